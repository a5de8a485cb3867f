import { setTimeout as delay } from 'node:timers/promises'
import { schemaPattern } from '../contract/schemas.js'
import { headerValue, type Exchange } from '../http/exchange.js'
import type { Check, CheckContext } from './types.js'
import { statusOf } from './operation-calls.js'

/** Bounds of the opt-in burst: the quota values are not shown, so the probe gives up rather than flood a deployment. */
export const PROBE_MAX_REQUESTS = 300
export const PROBE_MAX_MS = 30_000
/** The longest Retry-After the probe waits out to see requests succeed again (a per-minute quota fits). */
export const PROBE_MAX_WAIT_S = 60
const RETRY_AFTER_SECONDS = schemaPattern('RetryAfterSeconds')
/** How the probe waits out Retry-After: an object, so that a test can record the wait instead of sleeping it. */
export const probeWait = { delay }

/**
 * Sends the cheapest read with the full key, `concurrency` at a time and never retried, until a 429 or a bound. A 429
 * that another request of the run got meanwhile is the quota met as well: the burst's own requests then wait at the
 * quota gate with the rest, and may not be the ones refused.
 */
async function burstUntil429(ctx: CheckContext): Promise<Exchange | undefined> {
  const started = Date.now()
  let sent = 0
  while (sent < PROBE_MAX_REQUESTS && Date.now() - started < PROBE_MAX_MS) {
    const wave = Math.min(ctx.settings.concurrency, PROBE_MAX_REQUESTS - sent)
    sent += wave
    const answers = await Promise.all(Array.from({ length: wave }, () => ctx.call('getConfig', { retry: false })))
    // Every 429 the client receives, the burst's own included, is the latest quota refusal until the next one.
    const limited = ctx.quotaRefusalSince(started)
    if (limited) return limited
    const broken = answers.find((exchange) => !exchange.response)
    if (broken) ctx.fail(`${statusOf(broken)} during the burst`, { exchange: broken })
  }
  return undefined
}

export const limitsChecks: readonly Check[] = [
  {
    id: 'limits/quota-429',
    requirement: 'LIM-QUOTA-429',
    title: 'exceeding the request quota gives a 429 with Retry-After, and requests succeed (2xx) after the wait',
    needs: ['apiKey'],
    async run(ctx) {
      if (!ctx.settings.probeRateLimit)
        ctx.skip(
          'the rate-limit probe is opt-in (--probe-rate-limit): without it the suite never provokes a 429 on purpose',
        )
      const exchange = await burstUntil429(ctx)
      if (!exchange)
        ctx.skip(
          `no 429 within ${PROBE_MAX_REQUESTS} requests or ${PROBE_MAX_MS / 1000} s; the quota values are not shown, so this is not assessable`,
        )
      const response = exchange!.response!
      // The HTTP parser has already stripped the whitespace around a field value.
      const retryAfter = headerValue(response, 'retry-after')
      if (!RETRY_AFTER_SECONDS.test(retryAfter ?? '')) {
        ctx.fail(`the 429 has Retry-After ${JSON.stringify(retryAfter ?? null)}, not one integer of at least 1`, {
          exchange,
        })
      }
      // x-ratelimit-scope is every-response/rate-limit-scope's (a reading: error responses "can also include" it), and
      // x-ratelimit-limit is optional ("can also include") with its format not shown: nothing is asserted about them
      // here.
      if (Number(retryAfter) > PROBE_MAX_WAIT_S) {
        ctx.skip(
          `the 429 carries Retry-After, but it is ${retryAfter} s, longer than the probe waits (${PROBE_MAX_WAIT_S} s): whether requests succeed after it was not observed`,
        )
      }
      const waitMs = Number(retryAfter) * 1000
      if (Date.now() + waitMs >= (ctx.settings.deadlineAt ?? Infinity)) {
        ctx.skip(
          `the 429 carries Retry-After, but it (${retryAfter} s) outlasts the run's time bound (--max-duration): whether requests succeed after it was not observed`,
        )
      }
      await probeWait.delay(waitMs)
      // Retried as usual: other checks running meanwhile may have used up the new window; a quota that never lifts
      // still ends in a 429.
      const after = await ctx.call('getConfig')
      // The configuration's status is not shown beyond a success: any 2xx, as config/answers-json takes it. The client
      // never returns an interim (1xx) response as the answer, so a status of at most 299 is a 2xx.
      const status = after.response?.status
      if (status === undefined || status > 299) {
        ctx.fail(`after waiting Retry-After (${retryAfter} s) the next request got ${statusOf(after)}, not a 2xx`, {
          exchange: after,
        })
      }
    },
  },
]
