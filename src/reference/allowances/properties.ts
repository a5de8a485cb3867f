import type { Allowance } from '../types.js'

export const propertiesAllowances: readonly Allowance[] = []
