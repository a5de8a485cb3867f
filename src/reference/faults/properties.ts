import type { Fault } from '../types.js'

export const propertiesFaults: readonly Fault[] = []
