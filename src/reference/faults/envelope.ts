import type { Fault } from '../types.js'

export const envelopeFaults: readonly Fault[] = []
