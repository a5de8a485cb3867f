import { headerValue, type ExchangeResponse } from './exchange.js'

/**
 * How the client retries a safe read: after a 429 once Retry-After has passed, after a transient 502, 503 or 504 with
 * bounded exponential backoff (a 503's Retry-After when given), and once after a 500 (a 500 that repeats is a finding).
 */
export interface RetryPolicy {
  /**
   * Attempts of one request in all, the first included. Waiting for a key that another request's 429 closed is no
   * attempt.
   */
  maxAttempts: number
  /** Backoff before retry n (from 0) is drawn from [base·2ⁿ / 2, base·2ⁿ], capped at backoffCapMs. */
  backoffBaseMs: number
  backoffCapMs: number
  /**
   * The longest Retry-After the client waits for; a longer one ends the retries, so a hostile value cannot hang the
   * run.
   */
  maxWaitMs: number
  /** The wait after a 429 whose Retry-After is missing or not an integer. */
  defaultRateLimitWaitMs: number
  /**
   * Times a write is sent again, as it was, after an ambiguous transport failure (a timeout, a connection reset after
   * sending).
   */
  ambiguousWriteRetries: number
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 6,
  backoffBaseMs: 250,
  backoffCapMs: 4000,
  maxWaitMs: 60_000,
  defaultRateLimitWaitMs: 2000,
  ambiguousWriteRetries: 1,
}

/**
 * The statuses the contract names for a dependency's failure (502, 503, 504): transient, retried; they say nothing of
 * the request.
 */
export const TRANSIENT_STATUSES: readonly number[] = [502, 503, 504]

export function isTransient(status: number | undefined): boolean {
  return status !== undefined && TRANSIENT_STATUSES.includes(status)
}

/** The status of an unexpected failure: a safe read answered 500 is sent once more before it is judged. */
export const UNEXPECTED_FAILURE = 500

const RETRY_AFTER_SECONDS = /^\s*[1-9][0-9]{0,8}\s*$/

/**
 * Retry-After in milliseconds when it is one integer number of seconds of at least 1 (the only form the contract
 * shows).
 */
export function retryAfterMs(response: ExchangeResponse): number | undefined {
  const value = headerValue(response, 'retry-after')
  return value !== undefined && RETRY_AFTER_SECONDS.test(value) ? Number(value) * 1000 : undefined
}

/**
 * Whether a 429's quota is the API key's own: x-ratelimit-scope names a key ("api-key", "key", "apikey", ...).
 * A scope naming something else (the client's address, the project) or nothing is taken to hold every request of the
 * run.
 */
export function quotaIsPerKey(response: ExchangeResponse): boolean {
  return /(?:^|[^a-z])(?:api)?key(?:$|[^a-z])/i.test(headerValue(response, 'x-ratelimit-scope') ?? '')
}

/** For a 429: how long its quota must not be used again. */
export function rateLimitWaitMs(response: ExchangeResponse, policy: RetryPolicy): number {
  return retryAfterMs(response) ?? policy.defaultRateLimitWaitMs
}

export function backoffMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.backoffCapMs, policy.backoffBaseMs * 2 ** retry)
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

/**
 * Whether to send the request again after this response, and the least wait before doing so; undefined means return the
 * response as it is. A 429's wait is enforced by the client's per-key gate; a 502, 503 or 504 waits here. A write is
 * sent again after a 429 or a 503, whose Retry-After says the request was refused, not after a 502 or 504: only safe
 * reads are retried with backoff. A safe read answered 500 is sent once more (after the first backoff), unless an
 * earlier attempt was a 500 too.
 */
export function retryWaitMs(
  response: ExchangeResponse,
  attempt: number,
  policy: RetryPolicy,
  write = false,
  earlier: readonly { status: number }[] = [],
): number | undefined {
  if (attempt + 1 >= policy.maxAttempts) return undefined
  let wait: number
  if (response.status === 429) wait = rateLimitWaitMs(response, policy)
  else if (response.status === 503) wait = retryAfterMs(response) ?? backoffMs(attempt, policy)
  else if (isTransient(response.status) && !write) wait = backoffMs(attempt, policy)
  else if (response.status === UNEXPECTED_FAILURE && !write && !earlier.some((e) => e.status === UNEXPECTED_FAILURE))
    wait = backoffMs(attempt, policy)
  else return undefined
  return wait <= policy.maxWaitMs ? wait : undefined
}
