import type { Fault } from '../types.js'

export const intentsFaults: readonly Fault[] = []
