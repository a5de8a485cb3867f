import { afterAll, describe, inject, test } from 'vitest'
import { logExchanges } from '../har/exchange-log.js'
import { HttpClient } from '../http/client.js'
import { redact, secretsOf } from '../http/secrets.js'
import { notAssessableWithout, profileEvidence, stated } from '../profile/profile.js'
import type { RunSettings } from '../runner/settings.js'
import type { Check, CheckFailure, CheckNotRun, CheckSkipped, InputPhase } from '../checks/types.js'
import { createCheckContext, missingInputReasons, missingNeed } from './context.js'
import { buildEvidence, type Evidence } from './evidence.js'
import { observe, type Observations } from './observations.js'

declare module 'vitest' {
  interface TaskMeta {
    checkId?: string
    requirement?: string
    concern?: string
    evidence?: Evidence
    observations?: Observations
    /** Set when a request of the check was retried (429, 502, 503), so its outcome depended on a retry. */
    retried?: boolean
    /** Set when the check threw something other than a finding (ctx.fail): its failure says nothing about the target. */
    crashed?: boolean
    /** Set when the circuit breaker kept the check from finishing: the target stopped answering. */
    notRun?: boolean
    /** Generated inputs the check examined, per phase. */
    inputs?: Partial<Record<InputPhase, number>>
  }
}

/** How the message of a check that crashed begins; the outcome also carries `crashed: true`. */
export const CRASH_PREFIX = 'the check itself failed: '

let sharedClient: { baseUrl: string; client: HttpClient } | undefined

/**
 * One client per worker and suite file, closed when the file's checks are done, so that no connection outlives the
 * run; concurrency and politeness hold across every file and worker through the state the clients share.
 */
function clientFor(settings: RunSettings): HttpClient {
  if (sharedClient?.baseUrl !== settings.baseUrl) {
    sharedClient = {
      baseUrl: settings.baseUrl,
      client: new HttpClient({
        baseUrl: settings.baseUrl,
        concurrency: settings.concurrency,
        connectTimeoutMs: settings.connectTimeoutMs,
        requestTimeoutMs: settings.requestTimeoutMs,
        maxBodyBytes: settings.maxBodyBytes,
        deadlineAt: settings.deadlineAt,
        shared: inject('iptsShared'),
      }),
    }
  }
  return sharedClient.client
}

/** The command that runs this check again with the same seed, for a failing property. */
export function replayCommand(settings: RunSettings, checkId: string, seed: number, path: string): string {
  const target = settings.embedded ? '' : ` --base-url ${settings.baseUrl}`
  return `npx ipts-conformance${target} --check ${checkId} --seed ${seed} --replay-path ${path}`
}

/** Registers a concern's checks as concurrent vitest tests; each test's meta carries its check ID, requirement and evidence. */
export function registerChecks(concern: string, checks: readonly Check[]): void {
  afterAll(async () => {
    const closing = sharedClient?.client
    sharedClient = undefined
    await closing?.close()
  })
  describe.concurrent(concern, () => {
    for (const check of checks) {
      test(check.title, { meta: { checkId: check.id, requirement: check.requirement, concern } }, async ({ task, skip }) => {
        const settings = inject('ipts')
        const secrets = secretsOf(settings)
        const missing = missingNeed(settings, check.needs)
        if (missing) return skip(missingInputReasons[missing])
        if (check.profile && !stated(settings.profile, check.profile)) return skip(notAssessableWithout(check.profile))
        const { ctx, end } = createCheckContext(settings, clientFor(settings))
        let outcome: unknown
        try {
          await check.run(ctx)
        } catch (error) {
          outcome = error
        }
        await end()
        task.meta.observations = observe(ctx.exchanges, settings, secrets)
        const exchangeLog = inject('iptsExchangeLog')
        if (exchangeLog) logExchanges(exchangeLog, ctx.exchanges, check.id, secrets)
        if (ctx.exchanges.some((exchange) => exchange.retries.length > 0)) task.meta.retried = true
        if (Object.keys(ctx.inputs).length > 0) task.meta.inputs = ctx.inputs
        if (outcome === undefined) return
        const code = (outcome as { code?: string }).code
        if (code === 'IPTS_CHECK_SKIPPED') return skip(redact((outcome as CheckSkipped).reason, secrets))
        if (code === 'IPTS_CHECK_NOT_RUN') {
          const { reason, exchange } = outcome as CheckNotRun
          task.meta.notRun = true
          task.meta.evidence = buildEvidence(reason, { exchange }, secrets)
          return skip(redact(reason, secrets))
        }
        const finding = code === 'IPTS_CHECK_FAILED'
        if (!finding) task.meta.crashed = true
        const failure = outcome as CheckFailure
        const message = redact(finding ? failure.message : `${CRASH_PREFIX}${String(outcome)}`, secrets)
        const details = finding ? failure.details : {}
        const replay = details.counterexample && replayCommand(settings, check.id, details.counterexample.seed, details.counterexample.path)
        task.meta.evidence = buildEvidence(message, details, secrets, replay)
        if (check.profile) task.meta.evidence.profile = profileEvidence(settings.profile!, check.profile)
        throw new Error(message)
      })
    }
  })
}
