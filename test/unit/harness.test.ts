import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import type { ExchangeJudge } from '../../src/checks/exchange-judge.js'
import { checksByConcern } from '../../src/checks/index.js'
import { packageRoot } from '../../src/core/package-root.js'
import type { RunSettings } from '../../src/core/settings.js'
import { ObservationTally } from '../../src/engine/judged-outcomes.js'
import { observe } from '../../src/engine/observations.js'
import { clientOf } from '../../src/engine/run-checks.js'
import { runCheck } from '../../src/engine/run-check.js'
import type { Exchange } from '../../src/http/exchange.js'
import { createSharedState } from '../../src/http/shared-state.js'
import { suiteTestConfig } from '../../src/vitest/config.js'
import type { CheckOutcome } from '../../src/core/report.js'
import { harnessChecks } from '../fixtures/harness-checks.js'
import { crashedIds, FIXED_SEED, idsWithStatus } from '../support/run.js'
import { runSuitesThroughVitest } from '../support/run-suites.js'

const HARNESS_SUITE = fileURLToPath(new URL('../fixtures/harness-suite/', import.meta.url))

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

/** What test/runs/faults.test.ts counts: a fault is detected by the failed checks, and no check may crash. */
function expectCrashAndFinding(outcomes: CheckOutcome[]): void {
  expect(outcomes.map((o) => o.id).sort(), 'every fixture check has an outcome').toEqual(
    harnessChecks.map((c) => c.id).sort(),
  )
  const crash = outcomes.find((o) => o.id === 'harness/crash')!
  expect(crash.status).toBe('failed')
  expect(crash.crashed).toBe(true)
  expect(crash.reason).toMatch(/^the check itself failed: TypeError: /)
  const finding = outcomes.find((o) => o.id === 'harness/finding')!
  expect(finding).toMatchObject({ status: 'failed', reason: 'the target answered 500, not 200' })
  expect(finding.crashed, 'a finding is not a crash').toBeUndefined()
  expect(idsWithStatus({ checks: outcomes }, 'failed')).toEqual(['harness/crash', 'harness/finding'])
  expect(crashedIds({ checks: outcomes })).toEqual(['harness/crash'])
}

describe('the engine', () => {
  test('reports a check that crashes as failed and crashed, and a finding as failed only', async () => {
    const client = clientOf(settings, createSharedState())
    try {
      const results = await Promise.all(
        harnessChecks.map((check) => runCheck(check, 'harness', { settings, client, secrets: [] })),
      )
      expectCrashAndFinding(results.map((r) => r.outcome))
    } finally {
      await client.close()
    }
  })

  test('reports an every-response rule that throws as crashed, not as a finding about the target', () => {
    const throwing: ExchangeJudge = {
      id: 'harness/throwing-rule',
      requirement: 'EP-CONFIG',
      title: 'throws on every response',
      notApplicable: 'no response',
      applies: () => true,
      violation: () => {
        throw new TypeError("cannot read the rule's own state")
      },
    }
    const exchange = {
      operation: 'getConfig',
      request: { method: 'GET', url: 'http://127.0.0.1:9/v1/config', headers: {} },
      response: { status: 200, headers: {}, body: '{}', json: {}, truncated: false },
      retries: [],
    } as unknown as Exchange
    const tally = new ObservationTally()
    tally.add(observe([exchange], settings, [], [throwing]))
    const [outcome] = tally.outcomes([{ ...throwing, concern: 'every-response' }], undefined)
    expect(outcome).toMatchObject({ id: 'harness/throwing-rule', status: 'failed', crashed: true })
    expect(outcome!.reason).toMatch(/^the check itself failed: TypeError: cannot read the rule's own state/)
  })

  test('the vitest adapter reports the same outcomes as the engine, through npx vitest run', async () => {
    const collector = await runSuitesThroughVitest({ settings, shared: createSharedState() }, HARNESS_SUITE)
    expect(collector.errors).toEqual([])
    // The collector adds the every-response rules, skipped here: no request was made.
    expectCrashAndFinding(collector.outcomes.filter((o) => o.id.startsWith('harness/')))
  })
})

describe('the vitest settings of npx vitest run (suiteTestConfig)', () => {
  test('run from the sources, they take the concern files of suites/, one per concern of the catalogue', () => {
    const config = suiteTestConfig({ settings, shared: createSharedState() })
    expect(config.dir).toBe(join(packageRoot, 'suites'))
    expect(readdirSync(config.dir!).sort()).toEqual(
      Object.keys(checksByConcern)
        .map((c) => `${c}.test.ts`)
        .sort(),
    )
  })
})
