import { exchangeRules } from '../checks/every-response.js'
import type { Exchange } from '../http/exchange.js'
import type { Secret } from '../http/secrets.js'
import { profileEvidence, stated } from '../profile/profile.js'
import type { RunSettings } from '../runner/settings.js'
import { buildEvidence, type Evidence } from './evidence.js'

/** Per every-response rule: how many of a check's exchanges it applied to, and the first violations with evidence. */
export type Observations = Record<string, { applied: number; violations: Evidence[] }>

const VIOLATIONS_KEPT_PER_CHECK = 3

/** A retried 429 or 503 is a response of the run like any other: the every-response rules see it too. */
function withRetriedAttempts(exchange: Exchange): Exchange[] {
  const attempts = exchange.retries.map(({ response }) => ({ ...exchange, response, error: undefined, retries: [] }))
  return [...attempts, exchange]
}

/**
 * Only exchanges with the contract's operations feed the rules: the contract states its header and body rules for
 * its operations, and a path that is no operation (an unknown route) may be answered by a gateway in its own way.
 */
export function observe(exchanges: readonly Exchange[], settings: RunSettings, secrets: readonly Secret[]): Observations {
  const observations: Observations = {}
  for (const exchange of exchanges.filter((e) => e.operation !== undefined).flatMap(withRetriedAttempts)) {
    const { response } = exchange
    if (!response) continue
    for (const rule of exchangeRules) {
      if (rule.profile && !stated(settings.profile, rule.profile)) continue
      if (!rule.applies(response, exchange, settings)) continue
      const entry = (observations[rule.id] ??= { applied: 0, violations: [] })
      entry.applied++
      const violation = rule.violation(response, exchange, settings)
      if (violation !== undefined && entry.violations.length < VIOLATIONS_KEPT_PER_CHECK) {
        const evidence = buildEvidence(violation, { exchange }, secrets)
        if (rule.profile) evidence.profile = profileEvidence(settings.profile!, rule.profile)
        entry.violations.push(evidence)
      }
    }
  }
  return observations
}
