import type { Allowance } from '../types.js'

export const envelopeAllowances: readonly Allowance[] = []
