import { describe, expect, test } from 'vitest'
import { parseCli } from '../src/cli/options.js'
import { runConformance, type RunOptions } from '../src/runner/run.js'
import { hostileCases, type HostileTarget } from './hostile/servers.js'
import { failureSummary } from './support/run.js'

const REQUEST_TIMEOUT_MS = 1500
const MAX_DURATION_MS = 8000
/** The run's own bound, plus start-up, the reachability probe and vitest's teardown. */
const FINISHED_WITHIN_MS = MAX_DURATION_MS + 15_000
/**
 * A run's own growth (two workers, vitest, the suite) measures 100 to 190 MiB here; a run that buffered the
 * bodies of a 50 MB target, several hundred requests, would need gigabytes.
 */
const MEMORY_GROWTH_BOUND = 320 * 1024 * 1024

function settingsFor(target: HostileTarget, overrides: Partial<RunOptions['settings']> = {}): RunOptions['settings'] {
  return {
    baseUrl: target.baseUrl,
    apiKey: 'hostile-full-key',
    restrictedApiKey: 'hostile-restricted-key',
    trader: '0x1111111111111111111111111111111111111111',
    intent: { hash: `0x${'ab'.repeat(32)}`, receipt: 'receipt-of-intent-a' },
    secondIntent: { hash: `0x${'cd'.repeat(32)}`, receipt: 'receipt-of-intent-b' },
    seed: 1,
    runs: 3,
    concurrency: 8,
    cursorParam: 'cursor',
    limitParam: 'limit',
    maxPages: 1000,
    connectTimeoutMs: 1000,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    maxBodyBytes: 4 * 1024 * 1024,
    probeRateLimit: false,
    maxDurationMs: MAX_DURATION_MS,
    ...target.inputs,
    ...overrides,
  }
}

/** Samples resident memory while `work` runs (the suite's worker is a thread of this process) and returns its peak growth. */
async function peakMemoryGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const before = process.memoryUsage.rss()
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50)
  try {
    const result = await work()
    return { result, growth: Math.max(peak, process.memoryUsage.rss()) - before }
  } finally {
    clearInterval(sampler)
  }
}

describe('a hostile or broken target', () => {
  test.each(hostileCases.map((c) => [c.name, c] as const))('with %s gives failed checks with evidence and a finished run', { timeout: FINISHED_WITHIN_MS + 10_000 }, async (_, hostile) => {
    const target = await hostile.start()
    try {
      const started = Date.now()
      const { result: report, growth } = await peakMemoryGrowth(() => runConformance({ settings: settingsFor(target) }))
      expect(Date.now() - started, 'the run did not finish within its bound').toBeLessThan(FINISHED_WITHIN_MS)
      expect(report.errors, 'the run itself went wrong').toEqual([])
      expect(report.summary.failed, failureSummary(report)).toBeGreaterThan(0)
      const failures = report.checks.filter((c) => c.status === 'failed')
      for (const failed of failures) {
        expect(failed.evidence?.message, `${failed.id} failed without evidence: ${failed.reason}`).toBeTruthy()
        expect(failed.reason, `${failed.id} failed because the check itself broke`).not.toMatch(/the check itself failed/)
      }
      expect(JSON.stringify(failures), failureSummary(report)).toMatch(hostile.shows)
      expect(growth, `memory grew by ${Math.round(growth / 1024 / 1024)} MiB`).toBeLessThan(MEMORY_GROWTH_BOUND)
      if (target.requestsElsewhere) expect(target.requestsElsewhere(), 'a redirect was followed to another host').toBe(0)
    } finally {
      await target.close()
    }
  })
})

describe('the time bound of the whole run', () => {
  test('is --max-duration in seconds, half an hour unless given', () => {
    expect(parseCli(['--max-duration', '90'], {}).run.settings.maxDurationMs).toBe(90_000)
    expect(parseCli([], {}).run.settings.maxDurationMs).toBe(1_800_000)
  })

  test('ends a run against a target that never finishes a body, the rest failing with that reason', async () => {
    const target = await hostileCases.find((c) => c.name === 'a body that never ends')!.start()
    try {
      const started = Date.now()
      const report = await runConformance({ settings: settingsFor(target, { requestTimeoutMs: 60_000, maxDurationMs: 3000 }) })
      expect(Date.now() - started, 'the run outlived its time bound').toBeLessThan(3000 + 10_000)
      expect(report.errors).toEqual([])
      const failures = report.checks.filter((c) => c.status === 'failed')
      expect(failures.length, failureSummary(report)).toBeGreaterThan(0)
      for (const failed of failures) expect(failed.evidence?.transportError?.code, `${failed.id}: ${failed.reason}`).toBe('RUN_TIME_BOUND')
    } finally {
      await target.close()
    }
  })
})
