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

/** Behaviour the contract permits; a server doing any of it passes the suite. */
export const allowances: readonly Allowance[] = [
  ...envelopeAllowances,
  ...shapeAllowances,
  ...errorsAllowances,
  ...authAllowances,
  ...requestIdAllowances,
  ...intentsAllowances,
  ...cursorsAllowances,
  ...headersAllowances,
  ...limitsAllowances,
  ...configAllowances,
  ...propertiesAllowances,
  ...profileAllowances,
  ...writesAllowances,
  ...codingsAllowances,
  ...serverErrorsAllowances,
  ...relationsAllowances,
]

export function allowanceByName(name: string): Allowance | undefined {
  return allowances.find((allowance) => allowance.name === name)
}
