import type { Check } from './types.js'

export const limitsChecks: readonly Check[] = []
