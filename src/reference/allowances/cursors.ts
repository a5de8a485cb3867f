import type { Allowance } from '../types.js'

export const cursorsAllowances: readonly Allowance[] = []
