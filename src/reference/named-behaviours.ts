import { UsageError } from '../core/errors.js'
import { allowanceByName } from './allowances/index.js'
import { faultByName } from './faults/index.js'
import type { AllowanceName } from './allowance-names.js'
import type { FaultName } from './fault-names.js'
import type { Quota } from './server.js'
import type { Behaviour, Fault } from './types.js'

/** The named faults and allowances, in that order; an unknown name is a usage error. */
export function referenceBehaviours(
  faults: readonly FaultName[] = [],
  allowances: readonly AllowanceName[] = [],
): Behaviour[] {
  return [
    ...faults.map((name) => faultByName(name) ?? unknownName('fault', name)),
    ...allowances.map((name) => allowanceByName(name) ?? unknownName('allowance', name)),
  ]
}

export interface FaultNeeds {
  quota?: Quota
  receipts?: [string, string]
}

/**
 * The quota and receipts to serve with: those given, else those a fault that shows only with them brings, so that
 * naming the fault alone demonstrates it.
 */
export function broughtByFaults(behaviours: readonly Behaviour[], given: FaultNeeds): FaultNeeds {
  const brought = (need: keyof FaultNeeds) => behaviours.map((b) => (b as Fault).run?.[need]).find(Boolean)
  return {
    quota: given.quota ?? (brought('quota') as FaultNeeds['quota']),
    receipts: given.receipts ?? (brought('receipts') as FaultNeeds['receipts']),
  }
}

function unknownName(kind: string, name: string): never {
  throw new UsageError(`unknown reference ${kind} ${name} (ipts-conformance reference --list names them all)`)
}
