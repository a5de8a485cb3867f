import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { limitsChecks, PROBE_MAX_MS, PROBE_MAX_REQUESTS, probeWait } from '../../src/checks/limits.js'
import type { RunSettings } from '../../src/core/settings.js'
import type { Exchange } from '../../src/http/exchange.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'
import { scriptedContext, verdictOfRun } from '../support/check-context.js'

// The wait for Retry-After is recorded, not slept: the check's bounds are judged on its arithmetic.
const waits: number[] = []

const probe = limitsChecks[0]!
const NOW = 1_000_000

const refusal = (retryAfter: string): Exchange =>
  exchangeOf(responseOf(429, { 'retry-after': retryAfter }, { error: 'quota', code: 'rate_limited' }), {
    operation: 'getConfig',
  })

const answerOf = (status: number): Exchange =>
  status === 0
    ? { ...exchangeOf(undefined, { operation: 'getConfig' }), error: { code: 'ECONNRESET', message: 'reset' } }
    : exchangeOf(responseOf(status, {}, {}), { operation: 'getConfig' })

/**
 * Runs the probe on scripted answers: the configuration answers `status`, and the quota is met (a 429 with
 * `retryAfter`) once `refusedAfter` requests were sent; the clock reads `clock(reads)`.
 */
async function probed(options: {
  settings?: Partial<RunSettings>
  retryAfter?: string
  refusedAfter?: number
  status?: number
  burstStatus?: number
  clock?: (reads: number) => number
}) {
  const { retryAfter = '1', refusedAfter = Infinity, status = 200, burstStatus = 200, clock = () => NOW } = options
  let reads = 0
  vi.spyOn(Date, 'now').mockImplementation(() => clock(reads++))
  // The burst's requests are never retried; the request after the wait is. A status of 0 is no response.
  const { ctx, calls } = scriptedContext({ probeRateLimit: true, concurrency: 1, ...options.settings }, (call) =>
    answerOf(call.options?.retry === false ? burstStatus : status),
  )
  let lookups = 0
  Object.assign(ctx, {
    quotaRefusalSince: () => (++lookups, calls.length >= refusedAfter ? refusal(retryAfter) : undefined),
  })
  return { verdict: await verdictOfRun(probe.run(ctx)), calls, lookups }
}

/**
 * Each test of the describe records the waits; the hooks live in the describes, as mutation/static-checks.test.ts
 * imports this file beside tests whose probe must sleep.
 */
function recordingWaits(): void {
  beforeEach(() => {
    waits.splice(0)
    vi.spyOn(probeWait, 'delay').mockImplementation(async (ms?: number) => void waits.push(ms!))
  })
  afterEach(() => void vi.restoreAllMocks())
}

describe('limits/quota-429: the burst’s bounds', () => {
  recordingWaits()
  const notAssessable = `CheckSkipped: no 429 within ${PROBE_MAX_REQUESTS} requests or ${PROBE_MAX_MS / 1000} s; the quota values are not shown, so this is not assessable`

  test('sends exactly 300 requests, in waves of the concurrency, the last one cut to fit', async () => {
    for (const concurrency of [1, 7]) {
      // A clock that moves 1 ms a read: a burst that kept going past its bound would end at the time bound, not hang.
      const { verdict, calls, lookups } = await probed({ settings: { concurrency }, clock: (reads) => NOW + reads })
      expect(verdict).toBe(notAssessable)
      expect(calls, `concurrency ${concurrency}`).toHaveLength(300)
      expect(lookups, 'one look for a 429 per wave').toBe(Math.ceil(300 / concurrency))
      expect(calls.every((call) => call.operation === 'getConfig' && call.options?.retry === false)).toBe(true)
    }
  })

  test('stops at 30 s: a burst whose clock reads 30 s at once sends nothing; at 29.999 s one wave', async () => {
    expect((await probed({ clock: (reads) => (reads === 0 ? NOW : NOW + 30_000) })).calls).toHaveLength(0)
    const { calls, verdict } = await probed({
      clock: (reads) => (reads === 0 ? NOW : NOW + 29_999 + (reads > 1 ? 1 : 0)),
    })
    expect(calls).toHaveLength(1)
    expect(verdict).toBe(notAssessable)
  })

  test('ends at the first 429 it meets', async () => {
    for (const refusedAfter of [1, 3]) {
      const { calls } = await probed({ refusedAfter, settings: { concurrency: 1 } })
      expect(calls.filter((call) => call.options?.retry === false)).toHaveLength(refusedAfter)
    }
  })
})

describe('limits/quota-429: the wait', () => {
  recordingWaits()
  test('waits Retry-After in ms and passes on a 2xx after it', async () => {
    const { verdict } = await probed({ refusedAfter: 1, retryAfter: '2' })
    expect(verdict).toBe('passed')
    expect(waits).toEqual([2000])
  })

  test('a Retry-After of 60 s is waited; of 61 s it is not', async () => {
    expect((await probed({ refusedAfter: 1, retryAfter: '60' })).verdict).toBe('passed')
    expect(waits).toEqual([60_000])
    expect((await probed({ refusedAfter: 1, retryAfter: '61' })).verdict).toBe(
      'CheckSkipped: the 429 carries Retry-After, but it is 61 s, longer than the probe waits (60 s): whether requests succeed after it was not observed',
    )
    expect(waits).toEqual([60_000])
  })

  test('a wait that ends at the run’s deadline to the ms is not waited; one that ends 1 ms before it is', async () => {
    const outlasts =
      "CheckSkipped: the 429 carries Retry-After, but it (1 s) outlasts the run's time bound (--max-duration): whether requests succeed after it was not observed"
    expect((await probed({ refusedAfter: 1, settings: { deadlineAt: NOW + 1000 } })).verdict).toBe(outlasts)
    expect(waits).toEqual([])
    expect((await probed({ refusedAfter: 1, settings: { deadlineAt: NOW + 1001 } })).verdict).toBe('passed')
    expect(waits).toEqual([1000])
  })

  test('no response, in the burst or after the wait, fails', async () => {
    expect((await probed({ burstStatus: 0 })).verdict).toMatch(/^CheckFailure: no response \(.+\) during the burst$/)
    expect((await probed({ refusedAfter: 1, status: 0 })).verdict).toMatch(
      /^CheckFailure: after waiting Retry-After \(1 s\) the next request got no response \(.+\), not a 2xx$/,
    )
  })

  test('after the wait, a 299 passes and a 300 fails', async () => {
    expect((await probed({ refusedAfter: 1, status: 299 })).verdict).toBe('passed')
    expect((await probed({ refusedAfter: 1, status: 300 })).verdict).toBe(
      'CheckFailure: after waiting Retry-After (1 s) the next request got 300, not a 2xx',
    )
  })
})
