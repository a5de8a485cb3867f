import type { Allowance } from '../types.js'

export const errorsAllowances: readonly Allowance[] = []
