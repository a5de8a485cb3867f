import type { Fault } from '../types.js'

export const authFaults: readonly Fault[] = []
