import type { Allowance } from '../types.js'

export const authAllowances: readonly Allowance[] = []
