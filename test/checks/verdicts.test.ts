import { describe, expect, test } from 'vitest'
import { limitsChecks } from '../../src/checks/limits.js'
import type { Check } from '../../src/checks/types.js'
import { createCheckContext } from '../../src/engine/context.js'
import { HttpClient } from '../../src/http/client.js'
import { defaultRetryPolicy } from '../../src/http/retry.js'
import type { RunSettings } from '../../src/core/settings.js'
import { httpTarget } from '../support/hostile-servers.js'
import { FIXED_SEED } from '../support/run.js'

/**
 * Verdicts that no fault of the reference server reaches deterministically, judged by the real check against a
 * scripted target. The quota probe bursts while the whole suite runs, so a fault making the quota never lift would
 * fail whichever checks happened to run meanwhile.
 */

const CONCURRENCY = 4
const quotaProbe: Check = limitsChecks.find((check) => check.id === 'limits/quota-429')!

/**
 * A target whose first wave of requests (as many as the probe sends at once) gets a 429 for one second, and every later
 * request `afterWait`.
 */
async function quotaTarget(afterWait: 200 | 204 | 429) {
  const statuses: number[] = []
  const target = await httpTarget((_, res) => {
    const status = statuses.length < CONCURRENCY ? 429 : afterWait
    statuses.push(status)
    const quota = status === 429 ? { 'retry-after': '1', 'x-ratelimit-scope': 'api-key' } : {}
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-request-id': `scripted-${statuses.length}`.padEnd(8, '0'),
      ...quota,
    })
    res.end(status === 429 ? '{"error":"request quota exceeded"}' : status === 204 ? '' : '{"data":{}}')
  })
  return { ...target, statuses }
}

/**
 * Runs the quota probe against the target; what it threw (a finding has code IPTS_CHECK_FAILED), or undefined when it
 * passed.
 */
async function probe(baseUrl: string): Promise<unknown> {
  const settings: RunSettings = {
    baseUrl,
    embedded: false,
    apiKey: 'scripted-key',
    seed: FIXED_SEED,
    runs: 1,
    concurrency: CONCURRENCY,
    cursorParam: 'cursor',
    limitParam: 'limit',
    maxPages: 1000,
    connectTimeoutMs: 1000,
    requestTimeoutMs: 5000,
    maxBodyBytes: 1024 * 1024,
    probeRateLimit: true,
  }
  // Two attempts: a quota that has not lifted shows on the retry as well as on the first request after the wait.
  const client = new HttpClient({ ...settings, retryPolicy: { ...defaultRetryPolicy, maxAttempts: 2 } })
  const { ctx, end } = createCheckContext(settings, client)
  try {
    await quotaProbe.run(ctx)
    return undefined
  } catch (thrown) {
    return thrown
  } finally {
    await end()
    await client.close()
  }
}

describe('limits/quota-429 after the wait', () => {
  test('passes when the request after Retry-After succeeds', async () => {
    const target = await quotaTarget(200)
    try {
      expect(await probe(target.baseUrl)).toBeUndefined()
      expect(target.statuses, 'the first wave limited, then one request after the wait').toEqual([
        ...Array(CONCURRENCY).fill(429),
        200,
      ])
    } finally {
      await target.close()
    }
  })

  test("passes when the request after Retry-After gets another 2xx (the configuration's status is not shown)", async () => {
    const target = await quotaTarget(204)
    try {
      expect(await probe(target.baseUrl)).toBeUndefined()
      expect(target.statuses).toEqual([...Array(CONCURRENCY).fill(429), 204])
    } finally {
      await target.close()
    }
  })

  test('fails with a finding when requests still get 429 after the wait', async () => {
    const target = await quotaTarget(429)
    try {
      expect(await probe(target.baseUrl)).toMatchObject({
        code: 'IPTS_CHECK_FAILED',
        message: 'after waiting Retry-After (1 s) the next request got 429, not a 2xx',
      })
      expect(target.statuses, 'the first wave, then the request after the wait and its retry').toEqual(
        Array(CONCURRENCY + 2).fill(429),
      )
    } finally {
      await target.close()
    }
  })
})
