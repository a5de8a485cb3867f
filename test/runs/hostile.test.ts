import { mkdtempSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { writeReports } from '../../reporters/write.js'
import { HAR_FILE } from '../../src/har/write.js'
import { parseCli } from '../../src/cli/options.js'
import { runConformance, type RunOptions } from '../../src/runner/run.js'
import { hostileCases, LARGE_BODY_BYTES, type HostileTarget } from '../support/hostile-servers.js'
import { crashedIds, failureSummary, FIXED_SEED, messagesNotInWords } from '../support/run.js'

/**
 * The request timeout against a target that hangs, short so that its run ends soon; against the others, as long as a
 * run's, so that no response of theirs is cut by the clock while the other runs of this file work beside it (the
 * bounds of a large body and of a cut connection are then shown without a timeout's help).
 */
const REQUEST_TIMEOUT_MS = 1500
const PATIENT_TIMEOUTS = { connectTimeoutMs: 30_000, requestTimeoutMs: 60_000 }
/** The bound of a run against a target that hangs every request; its evidence may name the bound or the timeout. */
const HANGING_RUN_MS = 8000
/**
 * The bound of any other run: a guard only, so that what the run shows never depends on the machine's speed
 * (under load, vitest's start-up alone has taken most of 8 s, and six runs of this file go at once). How long a run
 * takes is the benchmark's business.
 */
const GUARD_MS = 240_000
/** What the four report files and exchanges.har may take together, whatever the target answers. */
const REPORT_FILES_BOUND_BYTES = 10 * 1024 * 1024

function settingsFor(target: HostileTarget, overrides: Partial<RunOptions['settings']> = {}): RunOptions['settings'] {
  return {
    baseUrl: target.baseUrl,
    apiKey: 'hostile-full-key',
    restrictedApiKey: 'hostile-restricted-key',
    trader: '0x1111111111111111111111111111111111111111',
    intent: { hash: `0x${'ab'.repeat(32)}`, receipt: 'receipt-of-intent-a' },
    secondIntent: { hash: `0x${'cd'.repeat(32)}`, receipt: 'receipt-of-intent-b' },
    seed: FIXED_SEED,
    runs: 3,
    concurrency: 8,
    cursorParam: 'cursor',
    limitParam: 'limit',
    maxPages: 1000,
    connectTimeoutMs: 1000,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    maxBodyBytes: 4 * 1024 * 1024,
    probeRateLimit: false,
    maxDurationMs: GUARD_MS,
    ...target.inputs,
    ...overrides,
  }
}

describe('a hostile or broken target', () => {
  // Concurrently: the runs against targets that hang or drip wait on their time bounds while the others work.
  test.concurrent.each(hostileCases.map((c) => [c.name, c] as const))(
    'with %s gives failed checks with evidence and a finished run',
    { timeout: GUARD_MS + 60_000 },
    async (_, hostile) => {
      const target = await hostile.start()
      try {
        const dir = mkdtempSync(join(tmpdir(), 'ipts-hostile-'))
        const report = await runConformance({
          settings: settingsFor(
            target,
            hostile.hangs ? { maxDurationMs: HANGING_RUN_MS } : { maxDurationMs: GUARD_MS, ...PATIENT_TIMEOUTS },
          ),
          harPath: join(dir, HAR_FILE),
        })
        await writeReports(report, dir)
        const bytes = readdirSync(dir).reduce((sum, file) => sum + statSync(join(dir, file)).size, 0)
        expect(bytes, `the report files of the run, ${readdirSync(dir).join(', ')}, fit a CI artefact`).toBeLessThan(
          REPORT_FILES_BOUND_BYTES,
        )
        expect(report.errors, 'the run itself went wrong').toEqual([])
        // A target that stops answering every request trips the circuit breaker: the checks left are 'not run', with
        // evidence.
        expect(report.summary.failed + report.summary.notRun, failureSummary(report)).toBeGreaterThan(0)
        expect(
          crashedIds(report),
          `checks that crashed instead of failing with a finding: ${failureSummary(report)}`,
        ).toEqual([])
        const failures = report.checks.filter((c) => c.status === 'failed' || c.status === 'not run')
        for (const failed of failures)
          expect(failed.evidence?.message, `${failed.id} failed without evidence: ${failed.reason}`).toBeTruthy()
        expect(JSON.stringify(failures), failureSummary(report)).toMatch(hostile.shows)
        expect(messagesNotInWords(report).join('\n'), 'messages not in words').toBe('')
        // Memory itself is measured by `npm run bench`; here, the bytes the target got to write show the client stopped
        // reading.
        if (target.mostBodyBytesWritten)
          expect(target.mostBodyBytesWritten(), 'a body was read to its end').toBeLessThan(LARGE_BODY_BYTES)
        if (target.requestsElsewhere)
          expect(target.requestsElsewhere(), 'a redirect was followed to another host').toBe(0)
      } finally {
        await target.close()
      }
    },
  )
})

describe('the time bound of the whole run', () => {
  test('is --max-duration in seconds, half an hour unless given', () => {
    expect(parseCli(['--max-duration', '90'], {}).run.settings.maxDurationMs).toBe(90_000)
    expect(parseCli([], {}).run.settings.maxDurationMs).toBe(1_800_000)
  })

  test('ends a run against a target that never finishes a body, the checks it cut off not run with that reason', async () => {
    const target = await hostileCases.find((c) => c.name === 'a body that never ends')!.start()
    try {
      const report = await runConformance({
        settings: settingsFor(target, { requestTimeoutMs: 60_000, maxDurationMs: 3000 }),
      })
      expect(report.errors).toEqual([])
      expect(report.interrupted?.by).toBe('max-duration')
      const cut = report.checks.filter((c) => c.status === 'not run' && c.interrupted)
      expect(cut.length, failureSummary(report)).toBeGreaterThan(0)
      // The request timeout is 60 s: a check whose request the bound cut off shows that the bound, not the timeout,
      // ended it.
      for (const check of cut)
        if (check.evidence?.transportError)
          expect(check.evidence.transportError.code, `${check.id}: ${check.reason}`).toBe('RUN_TIME_BOUND')
      expect(
        report.checks.filter((c) => c.status === 'failed' && c.evidence?.transportError?.code === 'RUN_TIME_BOUND'),
        'no check failed for the bound',
      ).toEqual([])
    } finally {
      await target.close()
    }
  })
})
