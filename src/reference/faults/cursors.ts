import type { Fault } from '../types.js'

export const cursorsFaults: readonly Fault[] = []
