import type { Fault } from '../types.js'

export const errorsFaults: readonly Fault[] = []
