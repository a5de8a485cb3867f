import { afterAll, describe, inject, test } from 'vitest'
import type { Check } from '../checks/types.js'
import type { CheckOutcome } from '../core/report.js'
import type { RunSettings } from '../core/settings.js'
import { clientOf, writingOf } from '../engine/run-checks.js'
import { runCheck, type CheckEnvironment } from '../engine/run-check.js'
import type { Observations } from '../engine/observations.js'
import type { ResponsesSeen } from '../engine/responses-seen.js'
import type { HttpClient } from '../http/client.js'
import { secretsOf } from '../http/secrets.js'

declare module 'vitest' {
  interface TaskMeta {
    /** The check a test runs, known before it runs: a test that --check leaves out is reported by it. */
    checkId?: string
    /** The engine's outcome of the check this test ran; the collector reports it as it is. */
    outcome?: CheckOutcome
    observations?: Observations
    responses?: ResponsesSeen
  }
}

let sharedClient: { baseUrl: string; client: HttpClient } | undefined
/**
 * The writes of this worker's files: the write checks are one concern, one file, so one worker holds them and
 * --max-writes.
 */
let writing: { of: CheckEnvironment['writing'] } | undefined

/**
 * One client per worker and suite file, closed when the file's checks are done, so that no connection outlives the
 * run; concurrency and politeness hold across every file and worker through the state the clients share.
 */
function clientFor(settings: RunSettings): HttpClient {
  if (sharedClient?.baseUrl !== settings.baseUrl)
    sharedClient = { baseUrl: settings.baseUrl, client: clientOf(settings, inject('iptsShared')) }
  return sharedClient.client
}

/**
 * Registers a concern's checks as concurrent vitest tests, the `npx vitest run` adapter of the engine: each test runs
 * the engine's runCheck, keeps its outcome in the test's meta, and skips or fails as the outcome says.
 */
export function registerChecks(concern: string, checks: readonly Check[]): void {
  afterAll(async () => {
    const closing = sharedClient?.client
    sharedClient = undefined
    await closing?.close()
  })
  describe.concurrent(concern, () => {
    for (const check of checks) {
      test(check.title, { meta: { checkId: check.id } }, async ({ task, skip }) => {
        const settings = inject('ipts')
        const secrets = secretsOf(settings)
        writing ??= { of: writingOf(settings, secrets) }
        const env = {
          settings,
          client: clientFor(settings),
          secrets,
          exchangeLog: inject('iptsExchangeLog'),
          writing: writing.of,
        }
        const { outcome, observations, responses } = await runCheck(check, concern, env)
        task.meta.outcome = outcome
        task.meta.observations = observations
        task.meta.responses = responses
        if (outcome.status === 'skipped' || outcome.status === 'not run') return skip(outcome.reason)
        if (outcome.status === 'failed') throw new Error(outcome.reason)
      })
    }
  })
}
