import { randomInt } from 'node:crypto'

/** Characters safe under any reading of "safe characters" (URL-unreserved, token, base64url alike): letters, digits, hyphen. */
const SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-'

/**
 * A fresh Idempotency-Key of this length, of safe characters only. Random, never from the run's seed: a key used again
 * on another run against the same deployment, with another body, would be refused for that reason instead.
 */
export function idempotencyKey(length: number): string {
  return Array.from({ length }, () => SAFE[randomInt(SAFE.length)]).join('')
}

/** Characters no reading calls safe, yet legal in a header value: a space, quotes, angle brackets, braces. */
export const UNSAFE_KEY_CHARACTERS = ' "<>{}'

/** A fresh key of 8 to 128 characters that holds each of UNSAFE_KEY_CHARACTERS. */
export function unsafeIdempotencyKey(): string {
  return `${idempotencyKey(12)}${UNSAFE_KEY_CHARACTERS}${idempotencyKey(12)}`
}
