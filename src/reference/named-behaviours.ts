import { allowanceByName } from './allowances/index.js'
import { faultByName } from './faults/index.js'
import type { Behaviour, Fault } from './types.js'

/** The named faults and allowances, in that order; an unknown name is a usage error. */
export function referenceBehaviours(faults: readonly string[] = [], allowances: readonly string[] = []): Behaviour[] {
  return [
    ...faults.map((name) => faultByName(name) ?? unknownName('fault', name)),
    ...allowances.map((name) => allowanceByName(name) ?? unknownName('allowance', name)),
  ]
}

/** The quota to serve under: the one given, else the one a fault that shows only under a quota brings, so that naming the fault alone demonstrates it. */
export function quotaFor(behaviours: readonly Behaviour[], given?: { limit: number; windowMs: number }): { limit: number; windowMs: number } | undefined {
  return given ?? behaviours.map((b) => (b as Fault).run?.quota).find(Boolean)
}

function unknownName(kind: string, name: string): never {
  throw Object.assign(new Error(`unknown reference ${kind} ${name}`), { code: 'IPTS_USAGE' })
}
