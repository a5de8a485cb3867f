import type { Check } from './types.js'

export const configChecks: readonly Check[] = []
