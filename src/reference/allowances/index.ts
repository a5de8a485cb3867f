import type { AllowanceName } from '../allowance-names.js'
import type { Allowance } from '../types.js'
import { authAllowances } from './auth.js'
import { configAllowances } from './config.js'
import { codingsAllowances } from './codings.js'
import { cursorsAllowances } from './cursors.js'
import { envelopeAllowances } from './envelope.js'
import { errorsAllowances } from './errors.js'
import { headersAllowances } from './headers.js'
import { intentsAllowances } from './intents.js'
import { limitsAllowances } from './limits.js'
import { requestIdAllowances } from './request-ids.js'
import { serverErrorsAllowances } from './server-errors.js'
import { shapeAllowances } from './shapes.js'
import { profileAllowances } from './profile.js'
import { propertiesAllowances } from './properties.js'
import { relationsAllowances } from './relations.js'
import { writesAllowances } from './writes.js'
import { realtimeAllowances } from './realtime.js'

/**
 * The allowances of each concern of the checks (src/checks/index.ts): those most likely to meet a check's edge cases,
 * which the per-check self-tests run it under.
 */
export const allowancesByConcern: Readonly<Partial<Record<string, readonly Allowance[]>>> = {
  envelope: envelopeAllowances,
  shapes: shapeAllowances,
  errors: errorsAllowances,
  auth: authAllowances,
  'request-ids': requestIdAllowances,
  intents: intentsAllowances,
  cursors: cursorsAllowances,
  headers: headersAllowances,
  limits: limitsAllowances,
  config: configAllowances,
  properties: propertiesAllowances,
  profile: profileAllowances,
  writes: writesAllowances,
  realtime: realtimeAllowances,
}

/**
 * An allowance of the catalogue, whose name AllowanceName names (generated from this list;
 * test/meta/catalogue.test.ts).
 */
export type NamedAllowance = Allowance & { readonly name: AllowanceName }

/** Behaviour the contract permits; a server doing any of it passes the suite. */
export const allowances = [
  ...Object.values(allowancesByConcern).flatMap((list) => list ?? []),
  ...codingsAllowances,
  ...serverErrorsAllowances,
  ...relationsAllowances,
] as readonly NamedAllowance[]

export function allowanceByName(name: string): Allowance | undefined {
  return allowances.find((allowance) => allowance.name === name)
}
