import type { Allowance } from '../types.js'

export const intentsAllowances: readonly Allowance[] = []
