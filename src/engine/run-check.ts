import { logExchanges } from '../har/exchange-log.js'
import type { HttpClient } from '../http/client.js'
import { redact, type Secret } from '../http/secrets.js'
import { notAssessableWithout, profileEvidence, stated } from '../profile/profile.js'
import type { Check, CheckContext } from '../checks/types.js'
import type { CheckFailure, CheckNotRun, CheckSkipped } from '../checks/types.js'
import { ERROR_CODES } from '../core/errors.js'
import type { CheckOutcome } from '../core/report.js'
import type { RunSettings } from '../core/settings.js'
import { missingInputReasons, missingNeed } from '../checks/needs.js'
import { createCheckContext } from './context.js'
import { buildEvidence } from './evidence.js'
import { CRASH_PREFIX, outcomeOf } from './judged-outcomes.js'
import type { Judge } from './judges.js'
import type { SharedReads } from './shared-reads.js'
import { observe, type Observations } from './observations.js'

/** What a check runs with: the run's settings, a client, the secrets to keep out of what it reports, and where its exchanges go. */
export interface CheckEnvironment {
  settings: RunSettings
  client: HttpClient
  secrets: readonly Secret[]
  /** The reads the checks of the run share (src/engine/shared-reads.ts); none where checks run apart (vitest workers). */
  sharedReads?: SharedReads
  /** The folder the run's exchanges are logged to for the HAR (src/har/exchange-log.ts), when the run writes one. */
  exchangeLog?: string
  /** What judges each exchange: every judge of the catalogue (observe) unless the run selected fewer checks (runChecks). */
  judges?: readonly Judge[]
}

/** A check's outcome, and what the every-response rules saw in its exchanges (added up over the run). */
export interface CheckResult {
  outcome: CheckOutcome
  observations: Observations
}

/** The command that runs this check again with the same seed, for a failing property. */
export function replayCommand(settings: RunSettings, checkId: string, seed: number, path: string): string {
  const target = settings.embedded ? '' : ` --base-url ${settings.baseUrl}`
  const shaping = settings.shapingFlags?.length ? ` ${settings.shapingFlags.join(' ')}` : ''
  return `npx ipts-conformance${target}${shaping} --check ${checkId} --seed ${seed} --replay-path ${path}`
}

/**
 * Runs one check against the target and decides its outcome: the one place that does, whichever way the user came in
 * (CLI, API, `npx vitest run`). A finding fails it; a skip or a missing input skips it with the reason; the circuit
 * breaker leaves it 'not run'; anything else it throws is the suite's own defect (crashed).
 */
export async function runCheck(check: Check, concern: string, env: CheckEnvironment): Promise<CheckResult> {
  const started = performance.now()
  const { settings, secrets } = env
  const base = outcomeOf(check, concern, 'passed')
  const finish = (outcome: CheckOutcome, observations: Observations = {}): CheckResult => ({
    outcome: { ...outcome, durationMs: Math.round(performance.now() - started) },
    observations,
  })
  const missing = missingNeed(settings, check.needs)
  if (missing) return finish({ ...base, status: 'skipped', reason: missingInputReasons[missing] })
  if (check.profile && !stated(settings.profile, check.profile)) return finish({ ...base, status: 'skipped', reason: notAssessableWithout(check.profile) })

  // Stryker disable next-line ConditionalExpression: equivalent, shared reads save requests; a check that sends its own gets the same answers.
  const { ctx, end } = createCheckContext(settings, env.client, env.sharedReads && { reads: env.sharedReads, checkId: check.id })
  let thrown: unknown
  try {
    await check.run(ctx)
  } catch (error) {
    thrown = error
  }
  await end()
  const observations = observe(ctx.exchanges, settings, secrets, env.judges, check.id)
  if (env.exchangeLog) logExchanges(env.exchangeLog, ctx.exchanges, check.id, secrets)
  const outcome = { ...base, ...annotations(ctx), ...verdictOf(check, thrown, env) }
  return finish(outcome, observations)
}

function annotations(ctx: CheckContext): Pick<CheckOutcome, 'retried' | 'inputs'> {
  const notes: Pick<CheckOutcome, 'retried' | 'inputs'> = {}
  if (ctx.exchanges.some((exchange) => exchange.retries.length > 0)) notes.retried = true
  if (Object.keys(ctx.inputs).length > 0) notes.inputs = { coverage: ctx.inputs.coverage ?? 0, random: ctx.inputs.random ?? 0 }
  return notes
}

/** What the check's ending says: nothing thrown passes; a skip, a 'not run', a finding or a crash otherwise. */
function verdictOf(check: Check, thrown: unknown, { settings, secrets }: CheckEnvironment): Partial<CheckOutcome> {
  // Nothing thrown leaves the outcome as it began: passed.
  if (thrown === undefined) return {}
  const code = (thrown as { code?: string }).code
  if (code === ERROR_CODES.checkSkipped) return { status: 'skipped', reason: redact((thrown as CheckSkipped).reason, secrets) }
  if (code === ERROR_CODES.checkNotRun) {
    const { reason, exchange } = thrown as CheckNotRun
    return { status: 'not run', reason: redact(reason, secrets), evidence: buildEvidence(reason, { exchange }, secrets) }
  }
  if (code !== ERROR_CODES.checkFailed) {
    const message = redact(`${CRASH_PREFIX}${String(thrown)}`, secrets)
    return { status: 'failed', crashed: true, reason: message, evidence: buildEvidence(message, {}, secrets) }
  }
  const failure = thrown as CheckFailure
  const message = redact(failure.message, secrets)
  const { details } = failure
  const replay = details.counterexample && replayCommand(settings, check.id, details.counterexample.seed, details.counterexample.path)
  const evidence = buildEvidence(message, details, secrets, replay)
  if (check.profile) evidence.profile = profileEvidence(settings.profile!, check.profile)
  return { status: 'failed', reason: message, evidence }
}
