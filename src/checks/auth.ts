import type { Check } from './types.js'

export const authChecks: readonly Check[] = []
