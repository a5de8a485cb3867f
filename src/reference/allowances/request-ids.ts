import type { Allowance } from '../types.js'

export const requestIdAllowances: readonly Allowance[] = []
