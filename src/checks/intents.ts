import type { Check } from './types.js'

export const intentsChecks: readonly Check[] = []
