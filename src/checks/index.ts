import { authChecks } from './auth.js'
import { configChecks } from './config.js'
import { cursorsChecks } from './cursors.js'
import { envelopeChecks } from './envelope.js'
import { errorsChecks } from './errors.js'
import { exchangeRules } from './every-response.js'
import { relationRules } from './relations.js'
import { headersChecks } from './headers.js'
import { intentsChecks } from './intents.js'
import { limitsChecks } from './limits.js'
import { requestIdChecks } from './request-ids.js'
import { shapeChecks } from './shapes.js'
import { profileChecks } from './profile.js'
import { propertiesChecks } from './properties.js'
import type { Check } from './types.js'
import { writesChecks } from './writes.js'
import { realtimeChecks } from './realtime.js'
import type { CheckId } from '../contract/catalogue-ids.js'
import { closestFirst } from '../core/closest.js'

/**
 * Every check of the suite by concern: the catalogue. The suite files under suites/, the ID types of
 * src/contract/catalogue-ids.ts and docs/checks.md are generated from it (npm run docs).
 */
const concerns = {
  envelope: envelopeChecks,
  shapes: shapeChecks,
  errors: errorsChecks,
  auth: authChecks,
  'request-ids': requestIdChecks,
  intents: intentsChecks,
  cursors: cursorsChecks,
  headers: headersChecks,
  limits: limitsChecks,
  config: configChecks,
  properties: propertiesChecks,
  profile: profileChecks,
  writes: writesChecks,
  realtime: realtimeChecks,
} satisfies Readonly<Record<string, readonly Check[]>>

/** A concern of the checks: one file under src/checks, one under suites/. */
export type Concern = keyof typeof concerns

/** A check of the catalogue, whose ID CheckId names (generated from the catalogue; test/meta/catalogue.test.ts). */
export type CataloguedCheck = Check & { readonly id: CheckId }

export const checksByConcern = concerns as Readonly<Record<Concern, readonly CataloguedCheck[]>>

export const allChecks: readonly CataloguedCheck[] = Object.values(checksByConcern).flat()

/**
 * Every check ID a report can carry: the checks, the every-response rules and the relations between samples. CheckId
 * is generated from them (npm run docs) and test/meta/catalogue.test.ts proves it names exactly these.
 */
export function allCheckIds(): CheckId[] {
  return [
    ...allChecks.map((c) => c.id),
    ...exchangeRules.map((r) => r.id as CheckId),
    ...relationRules.map((r) => r.id as CheckId),
  ]
}

/**
 * Why a selection of check IDs cannot be run: the first ID no check or rule has, and the three closest that do;
 * undefined when all are known.
 */
export function unknownCheckId(ids: readonly string[] | undefined): string | undefined {
  const known: readonly string[] = allCheckIds()
  const unknown = ids?.find((id) => !known.includes(id))
  return unknown === undefined
    ? undefined
    : `no check has the ID ${JSON.stringify(unknown)} (closest: ${closestFirst(unknown, known).slice(0, 3).join(', ')}; docs/checks.md lists them all)`
}
