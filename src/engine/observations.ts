import { findingMessage, type ExchangeJudge, type JudgedSettings } from '../checks/exchange-judge.js'
import type { Exchange } from '../http/exchange.js'
import { aboutStandIn } from '../http/listed-material.js'
import { redact, type Secret } from '../http/secrets.js'
import { profileEvidence, stated } from '../profile/profile.js'
import type { Evidence } from '../core/report.js'
import { buildEvidence, sampleOf } from './evidence.js'
import { exchangeJudges } from './judges.js'
import { countResponse, type ResponsesSeen } from './responses-seen.js'
import { isAnswerToJudge } from './server-errors.js'

/**
 * Per every-response rule: how many of a check's exchanges it applied to, the first violations with evidence, and the
 * first error the rule itself threw (a defect of the suite, reported as a crash, never as a finding about the target).
 */
export type Observations = Record<string, RuleObservation>

export interface RuleObservation {
  applied: number
  violated: number
  violations: Evidence[]
  crash?: string
  /** Findings set aside: about values a recording kept as stand-ins (the rule was not applied to them). */
  unrecorded?: number
}

const VIOLATIONS_KEPT_PER_CHECK = 3

/**
 * A retried 429 or 5xx is a response of the run like any other: the every-response rules see it too, as an attempt the
 * client sent again.
 */
function withRetriedAttempts(exchange: Exchange): { exchange: Exchange; superseded: boolean }[] {
  const attempts = exchange.retries.map(({ response }) => ({
    exchange: { ...exchange, response, error: undefined, retries: [] },
    superseded: true,
  }))
  return [...attempts, { exchange, superseded: false }]
}

/**
 * Judges each exchange, and each retried attempt, by itself: the one place where an exchange is judged, for a run (the
 * every-response rules), for check-har and for the proxy (those rules and the checks a recorded exchange decides).
 * Only exchanges with the contract's operations are judged: the contract states its header and body rules for its
 * operations, and a path that is no operation (an unknown route) may be answered by a gateway in its own way. A rule
 * that judges what the operation answered sees only answers (the 5xx policy, src/engine/server-errors.ts).
 * `responses`, when given, counts each response by operation and status, and whether any rule judged it (coverage).
 * `round`: the round that made the exchanges (0: the checks, or recorded traffic no run's rounds made), for evidence.
 * `room`: how many more violations of a rule the caller keeps (ObservationTally.room, where it adds the observations at
 * once): evidence is built for those alone, the others are counted.
 */
export function observe(
  exchanges: readonly Exchange[],
  settings: JudgedSettings,
  secrets: readonly Secret[],
  judges: readonly ExchangeJudge[] = exchangeJudges(),
  sentBy?: string,
  responses?: ResponsesSeen,
  round = 0,
  room: (ruleId: string) => number = () => VIOLATIONS_KEPT_PER_CHECK,
): Observations {
  const observations: Observations = {}
  for (const { exchange, superseded } of exchanges
    .filter((e) => e.operation !== undefined)
    .flatMap(withRetriedAttempts)) {
    const { response } = exchange
    if (!response) {
      if (responses) countResponse(responses, exchange.operation!, undefined, false)
      continue
    }
    // A response the suite cannot judge (a body in a coding it cannot decode, a redirect not followed) says nothing of
    // any rule.
    if (response.notJudged !== undefined) {
      if (responses) countResponse(responses, exchange.operation!, response.status, false)
      continue
    }
    const answer = isAnswerToJudge(response, superseded)
    let judged = false
    for (const rule of judges) {
      if (rule.profile && !stated(settings.profile, rule.profile)) continue
      if (rule.judgesAnswer && !answer) continue
      let finding: ReturnType<ExchangeJudge['violation']>
      try {
        if (!rule.applies(response, exchange, settings)) continue
        finding = rule.violation(response, exchange, settings)
      } catch (error) {
        const entry = (observations[rule.id] ??= { applied: 0, violated: 0, violations: [] })
        entry.crash ??= redact(String(error), secrets)
        continue
      }
      const entry = (observations[rule.id] ??= { applied: 0, violated: 0, violations: [] })
      if (
        finding !== undefined &&
        response.standIns &&
        aboutStandIn(typeof finding === 'string' ? { message: finding } : finding, response.headers)
      ) {
        entry.unrecorded = (entry.unrecorded ?? 0) + 1
        continue
      }
      entry.applied++
      judged = true
      if (finding === undefined) continue
      entry.violated++
      if (entry.violations.length < Math.min(VIOLATIONS_KEPT_PER_CHECK, room(rule.id))) {
        const evidence = buildEvidence(
          findingMessage(finding),
          { exchange, violations: typeof finding === 'string' ? undefined : finding.violations },
          secrets,
          undefined,
          settings.rawRecord,
        )
        if (rule.profile) evidence.profile = profileEvidence(settings.profile!, rule.profile)
        if (sentBy !== undefined) evidence.sentBy = sentBy
        const sample = sampleOf(exchange, round)
        if (sample) evidence.sample = sample
        entry.violations.push(evidence)
      }
    }
    if (responses) countResponse(responses, exchange.operation!, response.status, judged)
  }
  return observations
}
