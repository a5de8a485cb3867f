import { exchangeRules } from './every-response.js'
import { requestIdChecks } from './request-ids.js'
import { shapeChecks } from './shapes.js'
import type { Check } from './types.js'

/** Every check of the suite by concern; each concern is one file under suites/. */
export const checksByConcern: Readonly<Record<string, readonly Check[]>> = {
  shapes: shapeChecks,
  'request-ids': requestIdChecks,
}

export const allChecks: readonly Check[] = Object.values(checksByConcern).flat()

/** Every check ID a report can carry: the checks, and the every-response rules. */
export function allCheckIds(): string[] {
  return [...allChecks.map((c) => c.id), ...exchangeRules.map((r) => r.id)]
}
