import { describe, inject, test } from 'vitest'
import { HttpClient } from '../http/client.js'
import { redact, secretsOf } from '../http/secrets.js'
import type { RunSettings } from '../runner/settings.js'
import type { Check, CheckFailure, CheckSkipped } from '../checks/types.js'
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
  }
}

/** How the message of a check that crashed begins; the outcome also carries `crashed: true`. */
export const CRASH_PREFIX = 'the check itself failed: '

let sharedClient: { baseUrl: string; client: HttpClient } | undefined

/** One client per worker, so that concurrency and politeness hold across every suite file of the run. */
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
  describe.concurrent(concern, () => {
    for (const check of checks) {
      test(check.title, { meta: { checkId: check.id, requirement: check.requirement, concern } }, async ({ task, skip }) => {
        const settings = inject('ipts')
        const secrets = secretsOf(settings)
        const missing = missingNeed(settings, check.needs)
        if (missing) return skip(missingInputReasons[missing])
        const ctx = createCheckContext(settings, clientFor(settings))
        let outcome: unknown
        try {
          await check.run(ctx)
        } catch (error) {
          outcome = error
        }
        task.meta.observations = observe(ctx.exchanges, settings, secrets)
        if (ctx.exchanges.some((exchange) => exchange.retries.length > 0)) task.meta.retried = true
        if (outcome === undefined) return
        const code = (outcome as { code?: string }).code
        if (code === 'IPTS_CHECK_SKIPPED') return skip(redact((outcome as CheckSkipped).reason, secrets))
        const finding = code === 'IPTS_CHECK_FAILED'
        if (!finding) task.meta.crashed = true
        const failure = outcome as CheckFailure
        const message = redact(finding ? failure.message : `${CRASH_PREFIX}${String(outcome)}`, secrets)
        const details = finding ? failure.details : {}
        const replay = details.counterexample && replayCommand(settings, check.id, details.counterexample.seed, details.counterexample.path)
        task.meta.evidence = buildEvidence(message, details, secrets, replay)
        throw new Error(message)
      })
    }
  })
}
