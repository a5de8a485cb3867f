import { logExchanges } from '../har/exchange-log.js'
import { RUN_CUT_CODES, type HttpClient } from '../http/client.js'
import { redact, redactDeep, type GrowingSecrets, type Secret } from '../http/secrets.js'
import type { SignedBodySource } from '../generators/signed-bodies.js'
import { declaredWrites, type WriteBudget } from './write-plan.js'
import { notAssessableWithout, profileEvidence, stated, WRITES_NOT_ASSESSABLE } from '../profile/profile.js'
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
import type { RelationTally } from './relations.js'
import type { ResponsesSeen } from './responses-seen.js'

/**
 * What a check runs with: the run's settings, a client, the secrets to keep out of what it reports, and where its
 * exchanges go.
 */
export interface CheckEnvironment {
  settings: RunSettings
  client: HttpClient
  /** The secrets given to the run; those its writes learn are in writing.secrets. */
  secrets: readonly Secret[]
  /**
   * The reads the checks of the run share (src/engine/shared-reads.ts); none where checks run apart (vitest workers).
   */
  sharedReads?: SharedReads
  /** The folder the run's exchanges are logged to for the HAR (src/har/exchange-log.ts), when the run writes one. */
  exchangeLog?: string
  /** Where write checks get their signed bodies, and the run's --max-writes; a run without them sends no write. */
  writing?: { bodies: SignedBodySource; budget: WriteBudget; secrets: GrowingSecrets }
  /**
   * What judges each exchange: every judge of the catalogue (observe) unless the run selected fewer checks (runChecks).
   */
  judges?: readonly Judge[]
  /** The relations between the run's samples, shown every exchange; none where checks run apart (vitest workers). */
  relations?: RelationTally
}

/**
 * A check's outcome, what the every-response rules saw in its exchanges, and its responses by operation (added up over
 * the run).
 */
export interface CheckResult {
  outcome: CheckOutcome
  observations: Observations
  responses: ResponsesSeen
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
  const { settings } = env
  const base = outcomeOf(check, concern, 'passed')
  const finish = (
    outcome: CheckOutcome,
    observations: Observations = {},
    responses: ResponsesSeen = {},
  ): CheckResult => ({
    outcome: { ...outcome, durationMs: Math.round(performance.now() - started) },
    observations,
    responses,
  })
  const missing = missingNeed(settings, check.needs)
  if (missing) return finish({ ...base, status: 'skipped', reason: missingInputReasons[missing] })
  // A check with no operation of the profile to write to runs, and says which profile key would give it one.
  if (check.writes && !env.writing) return finish({ ...base, status: 'skipped', reason: WRITES_NOT_ASSESSABLE })
  const submissions = declaredWrites(check, settings)
  if (check.profile && !stated(settings.profile, check.profile))
    return finish({ ...base, status: 'skipped', reason: notAssessableWithout(check.profile) })
  if (submissions > 0 && !env.writing!.budget.take(submissions))
    return finish({ ...base, status: 'skipped', reason: env.writing!.budget.refusal(submissions) })

  const writing =
    submissions > 0 ? { bodies: env.writing!.bodies, secrets: env.writing!.secrets, allowance: submissions } : undefined
  const { ctx, end, writes, lifecycle } = createCheckContext(
    settings,
    env.client,
    env.sharedReads && { reads: env.sharedReads, checkId: check.id },
    writing,
  )
  let thrown: unknown
  try {
    await check.run(ctx)
  } catch (error) {
    thrown = error
  }
  await end()
  // Read after the check: the receipts its writes were handed are among them.
  const secrets = secretsNow(env)
  const responses: ResponsesSeen = {}
  const observations = observe(ctx.exchanges, settings, secrets, env.judges, check.id, responses)
  env.relations?.responses(ctx.exchanges, { round: 0 }, check.id)
  if (env.exchangeLog)
    logExchanges(env.exchangeLog, [...ctx.exchanges, ...ctx.sockets], check.id, secrets, env.settings.rawRecord)
  const outcome = {
    ...base,
    ...annotations(ctx),
    ...verdictOf(check, thrown, env),
    ...(writes.length > 0 ? { writes: redactDeep(writes, secrets) } : {}),
    ...(lifecycle.length > 0 ? { lifecycle: redactDeep(lifecycle, secrets) } : {}),
  }
  return finish(outcome, observations, responses)
}

function annotations(ctx: CheckContext): Pick<CheckOutcome, 'retried' | 'inputs'> {
  const notes: Pick<CheckOutcome, 'retried' | 'inputs'> = {}
  if (ctx.exchanges.some((exchange) => exchange.retries.length > 0)) notes.retried = true
  if (Object.keys(ctx.inputs).length > 0)
    notes.inputs = { coverage: ctx.inputs.coverage ?? 0, random: ctx.inputs.random ?? 0 }
  return notes
}

/** Every secret the run knows by now: those given, and the receipts its writes have learned. */
export function secretsNow(env: Pick<CheckEnvironment, 'secrets' | 'writing'>): readonly Secret[] {
  return env.writing?.secrets.all() ?? env.secrets
}

/** What the check's ending says: nothing thrown passes; a skip, a 'not run', a finding or a crash otherwise. */
function verdictOf(check: Check, thrown: unknown, env: CheckEnvironment): Partial<CheckOutcome> {
  const { settings } = env
  const secrets = secretsNow(env)
  // Nothing thrown leaves the outcome as it began: passed.
  if (thrown === undefined) return {}
  const code = (thrown as { code?: string }).code
  if (code === ERROR_CODES.checkSkipped)
    return { status: 'skipped', reason: redact((thrown as CheckSkipped).reason, secrets) }
  if (code === ERROR_CODES.checkNotRun) {
    const { reason, exchange } = thrown as CheckNotRun
    const interrupted = exchange.error !== undefined && RUN_CUT_CODES.has(exchange.error.code)
    return {
      status: 'not run',
      reason: redact(reason, secrets),
      evidence: buildEvidence(reason, { exchange }, secrets, undefined, settings.rawRecord),
      ...(interrupted ? { interrupted } : {}),
    }
  }
  if (code !== ERROR_CODES.checkFailed) {
    const message = redact(`${CRASH_PREFIX}${String(thrown)}`, secrets)
    return { status: 'failed', crashed: true, reason: message, evidence: buildEvidence(message, {}, secrets) }
  }
  const failure = thrown as CheckFailure
  const message = redact(failure.message, secrets)
  const { details } = failure
  const replay =
    details.counterexample &&
    replayCommand(settings, check.id, details.counterexample.seed, details.counterexample.path)
  const evidence = buildEvidence(message, details, secrets, replay, settings.rawRecord)
  if (check.profile) evidence.profile = profileEvidence(settings.profile!, check.profile)
  return { status: 'failed', reason: message, evidence }
}
