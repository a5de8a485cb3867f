import type { Allowance } from '../types.js'

export const limitsAllowances: readonly Allowance[] = []
