import { checksByConcern } from '../checks/index.js'
import { HttpClient } from '../http/client.js'
import type { RetryPolicy } from '../http/retry.js'
import { GrowingSecrets, redactDeep, secretsOf, type Secret } from '../http/secrets.js'
import { interruptionCause, type CheckOutcome, type Interruption, type Resampling } from '../core/report.js'
import type { RunSettings } from '../core/settings.js'
import { cutOff, notSelected, ObservationTally, runOutcomes } from './judged-outcomes.js'
import { EVERY_RESPONSE, exchangeJudges, relationJudges, type Judge } from './judges.js'
import { RelationTally } from './relations.js'
import { resample, type ResampleOptions } from './resample.js'
import { observe, type Observations } from './observations.js'
import { addResponses, type ResponsesSeen } from './responses-seen.js'
import { SharedReads } from './shared-reads.js'
import { logExchanges } from '../har/exchange-log.js'
import { runCheck, secretsNow, type CheckEnvironment } from './run-check.js'
import { SignedBodySource, type SignInProcess } from '../generators/signed-bodies.js'
import { WriteBudget } from './write-plan.js'

/**
 * Checks run at once: twice the request bound, so that a check waiting on its next request does not idle the
 * connections.
 */
const CHECKS_PER_REQUEST_SLOT = 2

/**
 * What the engine runs against: the run's settings, the state its clients share, and where exchanges are logged for the
 * HAR.
 */
export interface EngineTarget {
  settings: RunSettings
  shared: SharedArrayBuffer
  exchangeLog?: string
}

export interface EngineOptions {
  /** Run only these check IDs; the others are reported skipped, not selected. */
  only?: readonly string[]
  /** Called with each check's outcome as it ends (progress), secrets already replaced. */
  onCheck?: (outcome: CheckOutcome) => void
  /** How the client retries a safe read; the polite default (src/http/retry.ts) unless given. */
  retryPolicy?: RetryPolicy
  /**
   * Aborted to interrupt the run (its reason 'SIGINT' or 'SIGTERM' from the CLI): no request is sent after it, those in
   * flight are cut off.
   */
  stop?: AbortSignal
  /**
   * The reads after the checks (src/engine/resample.ts): a last sweep, or a soak with a duration. Made when the run
   * selects every check, or a relation between samples among those it selects.
   */
  resampling?: ResampleOptions
  /** Signs the profile's signing commands it knows in this process (RunOptions.signInProcess). */
  signInProcess?: SignInProcess
}

/** What a run of the checks found: one outcome per check, then one per every-response rule, in catalogue order. */
export interface EngineResult {
  outcomes: CheckOutcome[]
  errors: string[]
  /** The responses of the run by operation and status, and how many were judged (the report's coverage). */
  responses: ResponsesSeen
  /**
   * Set when the run was cut short (the stop signal, --max-duration): the checks it cut off are 'not run', interrupted.
   */
  interrupted?: Interruption
  /** What the reads after the checks did: the last sweep, or the soak's rounds. */
  resampling?: Resampling
}

/**
 * The judges of each exchange of a run: the every-response rules, and the judgement of each check the run selected. A
 * check left out is reported as not selected whatever its judgement would find, so a run of a few checks spends no time
 * judging for the others.
 */
export function observingJudges(only: readonly string[] | undefined): readonly Judge[] {
  return only === undefined
    ? exchangeJudges()
    : exchangeJudges().filter((judge) => judge.concern === EVERY_RESPONSE || only.includes(judge.id))
}

/**
 * A client of the run: its bounds from the settings, its concurrency, quota gate and circuit breaker in the shared
 * state.
 */
export function clientOf(
  settings: RunSettings,
  shared: SharedArrayBuffer,
  retryPolicy?: RetryPolicy,
  stop?: AbortSignal,
): HttpClient {
  const { baseUrl, concurrency, connectTimeoutMs, requestTimeoutMs, maxBodyBytes, deadlineAt } = settings
  return new HttpClient({
    baseUrl,
    concurrency,
    connectTimeoutMs,
    requestTimeoutMs,
    maxBodyBytes,
    deadlineAt,
    shared,
    retryPolicy,
    stop,
  })
}

/** What has cut the run short by now, if anything: the stop signal, else the end of --max-duration. */
export function cutShort(
  settings: RunSettings,
  stop: AbortSignal | undefined,
  stoppedAt: () => string,
): Interruption | undefined {
  if (stop?.aborted) return { by: interruptionCause(stop.reason), at: stoppedAt() }
  if (settings.deadlineAt !== undefined && Date.now() >= settings.deadlineAt)
    return { by: 'max-duration', at: new Date(settings.deadlineAt).toISOString() }
  return undefined
}

/**
 * Signed bodies, --max-writes and the receipts learned, for a run that may write (--allow-writes and a profile that
 * states writes); none for one that may not.
 */
export function writingOf(
  settings: RunSettings,
  secrets: readonly Secret[],
  signInProcess?: SignInProcess,
): CheckEnvironment['writing'] {
  if (!settings.allowWrites || !settings.profile?.values.writes) return undefined
  const bodies = new SignedBodySource(
    settings.profile.baseDir ?? process.cwd(),
    settings.requestTimeoutMs,
    signInProcess,
  )
  return { bodies, budget: new WriteBudget(settings.maxWrites), secrets: new GrowingSecrets(secrets) }
}

/**
 * Runs every check of the catalogue (or those selected) in this process, a bounded number at once, and adds up what the
 * every-response rules saw in all their exchanges. The CLI and the API run through here; `npx vitest run` runs the
 * same runCheck once per vitest test.
 */
export async function runChecks(target: EngineTarget, options: EngineOptions = {}): Promise<EngineResult> {
  const { settings } = target
  const secrets = secretsOf(settings)
  const { stop } = options
  const client = clientOf(settings, target.shared, options.retryPolicy, stop)
  let stoppedAt: string | undefined
  const markStop = () => (stoppedAt ??= new Date().toISOString())
  stop?.addEventListener('abort', markStop, { once: true })
  const sharedReads = new SharedReads()
  const judges = observingJudges(options.only)
  const relations = new RelationTally(() => secretsNow(env))
  const env: CheckEnvironment = {
    settings,
    client,
    secrets,
    sharedReads,
    exchangeLog: target.exchangeLog,
    writing: writingOf(settings, secrets, options.signInProcess),
    judges,
    relations,
  }
  const catalogue = Object.entries(checksByConcern).flatMap(([concern, checks]) =>
    checks.map((check) => ({ check, concern })),
  )
  const outcomes: CheckOutcome[] = new Array(catalogue.length)
  const tally = new ObservationTally()
  const responses: ResponsesSeen = {}
  // Added up in the catalogue's order once every check is done, not as each ends: a rule's first violations, its
  // evidence, do not depend on timing.
  const observed: Observations[] = []
  let next = 0
  const worker = async () => {
    for (let index = next++; index < catalogue.length; index = next++) {
      const { check, concern } = catalogue[index]!
      const cut = cutShort(settings, stop, markStop)
      if (options.only && !options.only.includes(check.id)) {
        outcomes[index] = notSelected(check, concern)
      } else if (cut) {
        outcomes[index] = cutOff(check, concern, cut.by)
      } else {
        const result = await runCheck(check, concern, env)
        outcomes[index] = result.outcome
        observed[index] = result.observations
        addResponses(responses, result.responses)
      }
      options.onCheck?.(redactDeep(outcomes[index]!, secretsNow(env)))
    }
  }
  let resampled: Resampling | undefined
  try {
    await Promise.all(Array.from({ length: Math.max(1, settings.concurrency * CHECKS_PER_REQUEST_SLOT) }, worker))
    await sharedReads.settled()
    for (const observations of observed) if (observations) tally.add(observations)
    const known = secretsNow(env)
    for (const { exchange, sentBy } of sharedReads.exchanges) {
      tally.add(observe([exchange], settings, known, judges, sentBy, responses, 0, (id) => tally.room(id)))
      relations.responses([exchange], { round: 0 }, sentBy)
      if (target.exchangeLog) logExchanges(target.exchangeLog, [exchange], sentBy, known, settings.rawRecord)
    }
    if (options.resampling && resamples(options.only) && !cutShort(settings, stop, markStop))
      resampled = await resample(
        {
          settings,
          // One connection a round: its walks stay on one replica, and each round is a connection of its own.
          newClient: () => clientOf({ ...settings, concurrency: 1 }, target.shared, options.retryPolicy, stop),
          secrets: () => secretsNow(env),
          judges,
          tally,
          relations,
          responses,
          exchangeLog: target.exchangeLog,
          stop,
          retryPolicy: options.retryPolicy,
        },
        options.resampling,
      )
  } finally {
    stop?.removeEventListener('abort', markStop)
    await client.close()
  }
  tally.add(relations.observations())
  const interrupted =
    stop?.aborted || outcomes.some((outcome) => outcome.interrupted) ? cutShort(settings, stop, markStop) : undefined
  return {
    outcomes: runOutcomes(outcomes, tally, [...exchangeJudges(), ...relationJudges()], settings.profile),
    errors: [],
    responses,
    ...(interrupted ? { interrupted } : {}),
    ...(resampled ? { resampling: resampled } : {}),
  }
}

/** A run reads again after its checks unless --check narrows it to checks that are no relation between samples. */
export function resamples(only: readonly string[] | undefined): boolean {
  return only === undefined || relationJudges().some((judge) => only.includes(judge.id))
}
