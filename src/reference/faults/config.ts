import type { Fault } from '../types.js'

export const configFaults: readonly Fault[] = []
