import type { Check } from './types.js'

export const propertiesChecks: readonly Check[] = []
