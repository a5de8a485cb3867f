import type { Check } from './types.js'

export const cursorsChecks: readonly Check[] = []
