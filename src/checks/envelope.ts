import type { Check } from './types.js'

export const envelopeChecks: readonly Check[] = []
