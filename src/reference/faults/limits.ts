import type { Fault } from '../types.js'

export const limitsFaults: readonly Fault[] = []
