import { createSharedState } from '../src/http/shared-state.js'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { runSuites } from '../src/runner/run.js'
import type { RunSettings } from '../src/runner/settings.js'
import { harnessChecks } from './fixtures/harness-checks.js'
import { crashedIds, FIXED_SEED, idsWithStatus } from './support/run.js'

const HARNESS_SUITE = fileURLToPath(new URL('./fixtures/harness-suite/', import.meta.url))

/** The fixture checks send no request: the target is an address nothing listens on. */
const settings: RunSettings = {
  baseUrl: 'http://127.0.0.1:9',
  embedded: false,
  apiKey: 'harness-key',
  seed: FIXED_SEED,
  runs: 1,
  concurrency: 2,
  cursorParam: 'cursor',
  limitParam: 'limit',
  maxPages: 1000,
  connectTimeoutMs: 1000,
  requestTimeoutMs: 1000,
  maxBodyBytes: 1024,
  probeRateLimit: false,
}

describe('the harness', () => {
  test('reports a check that crashes as failed and crashed, and a finding as failed only', async () => {
    const collector = await runSuites({ settings, shared: createSharedState(), exchangeLog: undefined }, { dir: HARNESS_SUITE })
    const { errors } = collector
    // The collector adds the every-response rules, skipped here: no request was made.
    const outcomes = collector.outcomes.filter((o) => o.id.startsWith('harness/'))
    expect(outcomes.map((o) => o.id).sort(), 'every fixture check has an outcome').toEqual(harnessChecks.map((c) => c.id).sort())
    expect(errors).toEqual([])
    const crash = outcomes.find((o) => o.id === 'harness/crash')!
    expect(crash.status).toBe('failed')
    expect(crash.crashed).toBe(true)
    expect(crash.reason).toMatch(/^the check itself failed: TypeError: /)
    const finding = outcomes.find((o) => o.id === 'harness/finding')!
    expect(finding).toMatchObject({ status: 'failed', reason: 'the target answered 500, not 200' })
    expect(finding.crashed, 'a finding is not a crash').toBeUndefined()
    // What test/faults.test.ts counts: a fault is detected by the failed checks, and no check may crash.
    expect(idsWithStatus({ checks: outcomes }, 'failed')).toEqual(['harness/crash', 'harness/finding'])
    expect(crashedIds({ checks: outcomes })).toEqual(['harness/crash'])
  })
})
