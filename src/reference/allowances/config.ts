import type { Allowance } from '../types.js'

export const configAllowances: readonly Allowance[] = []
