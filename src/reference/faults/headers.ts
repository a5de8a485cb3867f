import type { Fault } from '../types.js'

export const headersFaults: readonly Fault[] = []
