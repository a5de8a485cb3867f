import type { Fault } from '../types.js'
import { requestIdFaults } from './request-ids.js'
import { shapeFaults } from './shapes.js'

/** Every named fault of the reference server: each one precise violation of the contract. */
export const faults: readonly Fault[] = [...shapeFaults, ...requestIdFaults]

export function faultByName(name: string): Fault | undefined {
  return faults.find((fault) => fault.name === name)
}
