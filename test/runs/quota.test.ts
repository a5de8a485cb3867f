import { setTimeout as sleep } from 'node:timers/promises'
import { request } from 'undici'
import { describe, expect, test } from 'vitest'
import type { Report } from '../../src/core/report.js'
import { startReferenceServer, type Quota } from '../../src/reference/server.js'
import { failureSummary, idsWithStatus, runAgainstReference } from '../support/run.js'

/**
 * 60 requests, then a second's wait from its first refusal, which a slow (loaded) run meets too: the suite sends more
 * than 800, so a run meets a dozen refusals or more whatever its pace, and waits a dozen seconds, not a minute.
 */
const QUOTA: Quota = { limit: 60, windowMs: 1000, windowFrom: 'first-refusal' }

/**
 * Check ID to status, where an every-response rule skipped for want of (error) responses counts as passed: the 429s
 * give it some.
 */
function statuses(report: Report): Record<string, string> {
  const comparable = (id: string, status: string) =>
    id.startsWith('every-response/') && status === 'skipped' ? 'passed' : status
  return Object.fromEntries(report.checks.map((c) => [c.id, comparable(c.id, c.status)]))
}

function outcome(report: Report, id: string) {
  const found = report.checks.find((c) => c.id === id)
  expect(found, `${id} is not in the report`).toBeDefined()
  return found!
}

describe('a run under a quota of 60 requests a second per key', () => {
  test('has the same outcomes as a run without a quota, the 429s retried', { timeout: 300_000 }, async () => {
    const plain = await runAgainstReference()
    let requests = 0
    let limited = 0
    const report = await runAgainstReference({
      quota: QUOTA,
      record: (_, response) => {
        requests++
        if (response.status === 429) limited++
      },
    })
    console.info(
      `quota run: ${requests} requests, ${limited} answered 429, ${report.durationMs} ms (without a quota: ${plain.durationMs} ms)`,
    )
    expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([])
    expect(report.errors).toEqual([])
    expect(statuses(report)).toEqual(statuses(plain))
    // The suite sends hundreds of requests with one key, eight at a time: far more than 15 in some second.
    expect(limited, `${requests} requests and not one 429: the quota was not exercised`).toBeGreaterThan(0)
    expect(outcome(report, 'every-response/retry-after').status).toBe('passed')
    expect(
      report.checks.filter((c) => c.retried).length,
      'no check says its outcome depended on a retry',
    ).toBeGreaterThan(0)
  })
})

describe("the reference's quota", () => {
  /** The statuses of GET /v1/config with the key, one request at a time, each at least `gapMs` after the last. */
  async function statusesUnder(quota: Quota, count: number, gapMs: number): Promise<number[]> {
    const reference = await startReferenceServer({ quota })
    try {
      const statuses: number[] = []
      for (let i = 0; i < count; i++) {
        if (i > 0) await sleep(gapMs)
        const answer = await request(`${reference.baseUrl}/v1/config`, {
          headers: { 'x-api-key': reference.data.apiKey },
        })
        await answer.body.dump()
        statuses.push(answer.statusCode)
      }
      return statuses
    } finally {
      await reference.close()
    }
  }

  test('a fixed window (the default) starts afresh after its time, however few requests it took', async () => {
    expect(await statusesUnder({ limit: 2, windowMs: 100 }, 4, 150)).toEqual([200, 200, 200, 200])
  })

  test('a window that starts at its first refusal refuses the request after the limit however slowly they came, then starts afresh', async () => {
    expect(await statusesUnder({ limit: 2, windowMs: 100, windowFrom: 'first-refusal' }, 4, 150)).toEqual([
      200, 200, 429, 200,
    ])
  })
})

describe('the rate-limit probe', () => {
  test('is skipped without --probe-rate-limit', async () => {
    const report = await runAgainstReference({ quota: QUOTA }, {}, { only: ['limits/quota-429'] })
    expect(outcome(report, 'limits/quota-429').reason).toMatch(/opt-in/)
  })

  test('passes against the reference under a quota', async () => {
    const report = await runAgainstReference({ quota: QUOTA }, { probeRateLimit: true }, { only: ['limits/quota-429'] })
    expect(outcome(report, 'limits/quota-429').status, failureSummary(report)).toBe('passed')
  })

  test('is skipped as not assessable when no 429 arrives within its bound', async () => {
    const report = await runAgainstReference({}, { probeRateLimit: true }, { only: ['limits/quota-429'] })
    const probe = outcome(report, 'limits/quota-429')
    expect(probe.status).toBe('skipped')
    expect(probe.reason).toMatch(/no 429 within 300 requests/)
  })
})
