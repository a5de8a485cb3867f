import { describe, expect, test } from 'vitest'
import type { CheckOutcome } from '../../src/core/report.js'
import type { RefResponse } from '../../src/reference/types.js'
import type { Behaviour } from '../../src/reference/types.js'
import { outcomeWithBehaviours } from '../support/run.js'

const PROBE = 'limits/quota-429'
const PROBING = { probeRateLimit: true } as const

/**
 * How a scripted reference answers the nth request for the configuration (1-based), given the ms since its first 429.
 */
type Script = (n: number, sinceRefusalMs: number | undefined, response: RefResponse) => void

/** A reference whose answers to GET /config follow a script; every other request is answered as the reference does. */
function scripted(name: string, script: Script): Behaviour & { requests: () => number } {
  let n = 0
  let refusedAt: number | undefined
  return {
    name,
    description: `the configuration is answered as the test scripts it (${name})`,
    requests: () => n,
    onResponse(response, request) {
      if (request.route?.operation !== 'getConfig') return
      n++
      script(n, refusedAt === undefined ? undefined : Date.now() - refusedAt, response)
      if (response.status === 429) refusedAt ??= Date.now()
    },
  }
}

/** Makes the response a 429 with the given Retry-After (none when undefined) and a per-key scope. */
function refuse(response: RefResponse, retryAfter: string | undefined): void {
  response.status = 429
  response.body = { error: 'request quota exceeded', code: 'rate_limited' }
  response.headers['x-ratelimit-scope'] = 'api-key'
  if (retryAfter !== undefined) response.headers['retry-after'] = retryAfter
}

/** A response the client cannot read: two Content-Length fields that disagree (the server adds its own). */
function unreadable(response: RefResponse): void {
  response.headers['Content-Length'] = '1'
}

/** The third request of the burst is refused with this Retry-After; the rest as `after` says, when given. */
function thirdRefused(
  retryAfter: string | undefined,
  after?: (response: RefResponse, sinceRefusalMs: number) => void,
): Script {
  return (n, since, response) => {
    if (n === 3) refuse(response, retryAfter)
    else if (since !== undefined && after) after(response, since)
  }
}

function shownRequest(outcome: CheckOutcome): string | undefined {
  return outcome.evidence?.request && new URL(outcome.evidence.request.url).pathname
}

describe('limits/quota-429 (the opt-in rate-limit probe) against scripted answers', () => {
  test('passes when the request after Retry-After gets a 2xx other than 200 (299)', async () => {
    const outcome = await outcomeWithBehaviours(
      [PROBE],
      [
        scripted(
          '299-after-wait',
          thirdRefused('1', (response, since) => since >= 900 && (response.status = 299)),
        ),
      ],
      PROBING,
    )
    expect(outcome.status, outcome.reason).toBe('passed')
    // The burst is never retried, and the request after the wait follows the client's quota gate: no retry decided the
    // outcome.
    expect(outcome.retried, 'the burst was retried').toBeUndefined()
  })

  test('fails when the request after Retry-After gets a 500', async () => {
    const outcome = await outcomeWithBehaviours(
      [PROBE],
      [
        scripted(
          '500-after-wait',
          thirdRefused('1', (response, since) => since >= 900 && (response.status = 500)),
        ),
      ],
      PROBING,
    )
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toBe('after waiting Retry-After (1 s) the next request got 500, not a 2xx')
    expect(shownRequest(outcome)).toBe('/v1/config')
  })

  test('fails when the request after Retry-After gets a 300, the first status past the 2xx', async () => {
    const outcome = await outcomeWithBehaviours(
      [PROBE],
      [
        scripted(
          '300-after-wait',
          thirdRefused('1', (response, since) => since >= 900 && (response.status = 300)),
        ),
      ],
      PROBING,
    )
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toBe('after waiting Retry-After (1 s) the next request got 300, not a 2xx')
  })

  test('fails when the request after Retry-After gets no readable response', async () => {
    const outcome = await outcomeWithBehaviours(
      [PROBE],
      [
        scripted(
          'broken-after-wait',
          thirdRefused('1', (response, since) => since >= 900 && unreadable(response)),
        ),
      ],
      PROBING,
    )
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toMatch(/^after waiting Retry-After \(1 s\) the next request got .+, not a 2xx$/)
    expect(outcome.reason).not.toMatch(/got (undefined|null),/)
    expect(shownRequest(outcome)).toBe('/v1/config')
  })

  test('fails when a request of the burst gets no readable response', async () => {
    const outcome = await outcomeWithBehaviours(
      [PROBE],
      [scripted('broken-in-burst', (n, _, response) => n === 3 && unreadable(response))],
      PROBING,
    )
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toMatch(/^no response \(.+\) during the burst$/)
    expect(outcome.reason).not.toMatch(/undefined/)
    expect(outcome.crashed, 'the probe crashed').toBeFalsy()
    expect(shownRequest(outcome)).toBe('/v1/config')
  })

  test('fails when the 429 carries no Retry-After', async () => {
    const outcome = await outcomeWithBehaviours(
      [PROBE],
      [scripted('429-without-retry-after', thirdRefused(undefined))],
      PROBING,
    )
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toBe('the 429 has Retry-After null, not one integer of at least 1')
    expect(shownRequest(outcome)).toBe('/v1/config')
  })

  test('is skipped when Retry-After is longer than the probe waits (61 s)', async () => {
    const outcome = await outcomeWithBehaviours([PROBE], [scripted('429-retry-after-61', thirdRefused('61'))], PROBING)
    expect(outcome.status).toBe('skipped')
    expect(outcome.reason).toBe(
      'the 429 carries Retry-After, but it is 61 s, longer than the probe waits (60 s): whether requests succeed after it was not observed',
    )
  })

  test('is skipped when Retry-After (60 s, as long as the probe waits) outlasts the run’s time bound', async () => {
    const outcome = await outcomeWithBehaviours([PROBE], [scripted('429-retry-after-60', thirdRefused('60'))], {
      ...PROBING,
      maxDurationMs: 20_000,
    })
    expect(outcome.status).toBe('skipped')
    expect(outcome.reason).toBe(
      "the 429 carries Retry-After, but it (60 s) outlasts the run's time bound (--max-duration): whether requests succeed after it was not observed",
    )
  })

  test('is skipped as not assessable after 300 requests without a 429', async () => {
    const counted = scripted('never-429', () => {})
    const outcome = await outcomeWithBehaviours([PROBE], [counted], PROBING)
    expect(outcome.status).toBe('skipped')
    expect(outcome.reason).toBe(
      'no 429 within 300 requests or 30 s; the quota values are not shown, so this is not assessable',
    )
    // The preflight's one probe of the configuration (src/runner/preflight.ts), then the burst's bound of requests.
    expect(counted.requests(), 'the burst sends exactly its bound of requests').toBe(1 + 300)
  })
})
