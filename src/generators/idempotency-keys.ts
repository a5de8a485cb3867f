import { randomInt } from 'node:crypto'
import { KEY_BOUNDS } from '../contract/idempotency.js'

/**
 * Characters safe under any reading of "safe characters" (URL-unreserved, token, base64url alike): letters, digits,
 * hyphen.
 */
const SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-'

/** Characters no reading calls safe, yet legal in a header value: a space, quotes, angle brackets, braces. */
export const UNSAFE_KEY_CHARACTERS = ' "<>{}'

/**
 * Characters one reading of "safe" allows and another refuses: tried, in this order, against a pattern the profile
 * states.
 */
const DOUBTFUL_KEY_CHARACTERS = '._~:+/=!*'

/**
 * A fresh Idempotency-Key of this length, of safe characters only (those of them the profile's keyPattern takes, when
 * it states one). Random, never from the run's seed: a key used again on another run against the same deployment,
 * with another body, would be refused for that reason instead.
 */
export function idempotencyKey(length: number, pattern?: RegExp): string {
  const alphabet = pattern ? [...SAFE].filter((c) => pattern.test(c.repeat(KEY_BOUNDS.min))).join('') || SAFE : SAFE
  return Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('')
}

/**
 * A fresh key of 8 to 128 characters that is not safe, and why: without a pattern, it holds each of
 * UNSAFE_KEY_CHARACTERS; with the profile's keyPattern, the first character of doubtful safety that the pattern
 * refuses.
 */
export function unsafeIdempotencyKey(pattern?: RegExp): { key: string; holds: string } {
  const around = (middle: string) => `${idempotencyKey(12, pattern)}${middle}${idempotencyKey(12, pattern)}`
  for (const c of pattern ? DOUBTFUL_KEY_CHARACTERS + UNSAFE_KEY_CHARACTERS : '') {
    const key = around(c)
    if (!pattern!.test(key))
      return { key, holds: `${JSON.stringify(c)}, which the profile's writes.keyPattern refuses` }
  }
  return {
    key: around(UNSAFE_KEY_CHARACTERS),
    holds: 'a space, quotes, angle brackets and braces, which no reading calls safe',
  }
}
