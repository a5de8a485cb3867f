import { EVERY_RESPONSE, RELATIONS, type NamedJudge } from './judges.js'
import { notAssessableWithout, stated, type Profile } from '../profile/profile.js'
import { requirementById } from '../contract/requirements.js'
import type { Observations, RuleObservation } from './observations.js'
import { interruptedReason, type CheckOutcome, type InterruptionCause } from '../core/report.js'
import { redact, redactDeep, type Secret } from '../http/secrets.js'

const VIOLATIONS_KEPT_PER_JUDGE = 5

/** The reason of a check left out of a run by --check. */
export const NOT_SELECTED = 'not selected by --check'

/** An outcome of a check or rule with the given status: named, with its requirement's level, in its concern. */
export function outcomeOf(
  named: { id: string; title: string; requirement: string },
  concern: string,
  status: CheckOutcome['status'],
  reason?: string,
): CheckOutcome {
  const { id, title, requirement } = named
  return {
    id,
    title,
    requirement,
    ...levelOf(requirement),
    concern,
    status,
    ...(reason === undefined ? {} : { reason }),
  }
}

/** The outcome of a check a run left out (--check, a vitest name pattern). */
export function notSelected(check: { id: string; title: string; requirement: string }, concern: string): CheckOutcome {
  return { ...outcomeOf(check, concern, 'skipped', NOT_SELECTED), durationMs: 0 }
}

/**
 * The outcome of a check the run's interruption cut off before it began or ended: not run, with the reason, failing
 * nothing.
 */
export function cutOff(
  check: { id: string; title: string; requirement: string },
  concern: string,
  by: InterruptionCause,
): CheckOutcome {
  return { ...outcomeOf(check, concern, 'not run', interruptedReason(by)), interrupted: true, durationMs: 0 }
}

/**
 * How the message of a check (or every-response rule) that crashed begins; the outcome also carries `crashed: true`.
 */
export const CRASH_PREFIX = 'the check itself failed: '

/** A check's level and whether its requirement is a reading (inferred), as every report shows them. */
export function levelOf(requirement: string): Pick<CheckOutcome, 'level' | 'inferred'> {
  const { level, inferred } = requirementById(requirement)
  return { level, inferred: inferred === true }
}

/**
 * What the judgements of single exchanges found, added up as observations arrive: counts, and the first few violations
 * with their evidence. Its size does not grow with the number of exchanges.
 */
export class ObservationTally {
  private readonly tally = new Map<string, RuleObservation>()

  add(observations: Observations): void {
    for (const [id, entry] of Object.entries(observations)) {
      const total = this.tally.get(id) ?? { applied: 0, violated: 0, violations: [] }
      total.applied += entry.applied
      total.violated += entry.violated
      total.violations.push(...entry.violations.slice(0, VIOLATIONS_KEPT_PER_JUDGE - total.violations.length))
      total.crash ??= entry.crash
      this.tally.set(id, total)
    }
  }

  /**
   * How many more violations of the judge the tally will keep: evidence beyond that would be built only to be dropped
   * (redacting it is the dear part of judging a response).
   */
  room(id: string): number {
    return VIOLATIONS_KEPT_PER_JUDGE - (this.tally.get(id)?.violations.length ?? 0)
  }

  /** How many rules have shown a violation (or crashed) by now: a soak's "findings so far". */
  violatedRules(): number {
    return [...this.tally.values()].filter((total) => total.violated > 0 || total.crash !== undefined).length
  }

  /**
   * Redacts the evidence kept so far with these secrets: a holder that will forget them (the proxy's) redacts first.
   */
  redactKept(secrets: readonly Secret[]): void {
    for (const total of this.tally.values()) {
      total.violations = redactDeep(total.violations, secrets)
      if (total.crash !== undefined) total.crash = redact(total.crash, secrets)
    }
  }

  /**
   * One outcome per judge: crashed where the judge itself threw, failed with the first violation as evidence, passed
   * where it applied, skipped with its reason where it never did.
   */
  outcomes(judges: readonly NamedJudge[], profile: Profile | undefined): CheckOutcome[] {
    return judges.map((judge) => {
      const { applied, violated, violations, crash } = this.tally.get(judge.id) ?? {
        applied: 0,
        violated: 0,
        violations: [],
      }
      const outcome = outcomeOf(
        judge,
        judge.concern,
        violations.length > 0 ? 'failed' : applied > 0 ? 'passed' : 'skipped',
      )
      if (crash !== undefined) {
        const reason = `${CRASH_PREFIX}${crash}`
        return { ...outcome, status: 'failed', crashed: true, reason, evidence: { message: reason } }
      }
      // A judge that holds responses to a profile fact the run was not given judged nothing: that is why it is skipped.
      if (outcome.status === 'skipped')
        outcome.reason =
          judge.profile && !stated(profile, judge.profile) ? notAssessableWithout(judge.profile) : judge.notApplicable
      if (outcome.status === 'failed') {
        outcome.reason = `${violated === 1 ? 'one response' : `${violated} responses`} of ${applied}: ${violations[0]!.message}`
        outcome.samples = { showed: violated, of: applied }
        outcome.evidence = { ...violations[0]!, message: outcome.reason }
        if (violations.length > 1) outcome.evidence.others = violations.slice(1)
      }
      return outcome
    })
  }
}

/** What the observer cannot add to: a check that already failed, was not run, or was left out by --check. */
const settledWithoutObserver = (outcome: CheckOutcome) =>
  outcome.status === 'failed' || outcome.status === 'not run' || outcome.reason === NOT_SELECTED

/**
 * A check's outcome with what the run's observer found: every exchange of the run, whichever check sent it, is judged
 * by each check that declares how one exchange decides it, so a violation in a later page, one item or another key's
 * answer fails the check whose rule it breaks, with the exchange (and the check that sent it) as evidence.
 */
export function withObserved(own: CheckOutcome, observed: CheckOutcome | undefined): CheckOutcome {
  if (observed?.status !== 'failed' || settledWithoutObserver(own)) return own
  const { status, reason, evidence, crashed } = observed
  return { ...own, status, reason, evidence, ...(crashed ? { crashed } : {}) }
}

/** A run's outcomes: each check's own, with the observer's findings for it, then the every-response rules. */
export function runOutcomes(
  checks: readonly CheckOutcome[],
  tally: ObservationTally,
  judges: readonly NamedJudge[],
  profile: Profile | undefined,
): CheckOutcome[] {
  const observed = new Map(tally.outcomes(judges, profile).map((outcome) => [outcome.id, outcome]))
  const own = new Set(checks.map((check) => check.id))
  // A check the run left out altogether (a vitest file path) stays out; the every-response rules are the observer's
  // own.
  const rules = judges.filter(
    (judge) => (judge.concern === EVERY_RESPONSE || judge.concern === RELATIONS) && !own.has(judge.id),
  )
  return [
    ...checks.map((check) => withObserved(check, observed.get(check.id))),
    ...rules.map((judge) => observed.get(judge.id)!),
  ]
}
