import { deflateRawSync, deflateSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { loadOpenApi } from '../../src/contract/schemas.js'
import { decodeBody, unknownCodingOf } from '../../src/http/content-coding.js'
import { listedHeaders, standIn } from '../../src/http/listed-material.js'
import { redirectLocation } from '../../src/http/redirects.js'
import {
  backoffMs,
  defaultRetryPolicy,
  isTransient,
  quotaIsPerKey,
  retryAfterMs,
  retryWaitMs,
} from '../../src/http/retry.js'
import { responseOf } from '../support/hand-made.js'

/**
 * The values the HTTP client decides with, just inside and just outside each edge: which statuses are transient,
 * Retry-After's form and the longest wait, the attempts, the backoff's range and cap, which scope is the key's, which
 * statuses redirect, which codings are decoded.
 */

const policy = defaultRetryPolicy

describe('isTransient: 502, 503 and 504', () => {
  test.each([
    [500, false],
    [501, false],
    [502, true],
    [503, true],
    [504, true],
    [505, false],
    [429, false],
    [undefined, false],
  ])('%s: %s', (status, expected) => {
    expect(isTransient(status)).toBe(expected)
  })
})

describe('retryAfterMs: one integer number of seconds of at least 1, of at most 9 digits', () => {
  test.each([
    ['1', 1000],
    ['9', 9000],
    ['10', 10_000],
    [' 5 ', 5000],
    ['999999999', 999_999_999_000],
    ['0', undefined],
    ['01', undefined],
    ['1000000000', undefined],
    ['-1', undefined],
    ['1.5', undefined],
    ['1a', undefined],
    ['a1', undefined],
    ['1 2', undefined],
    ['', undefined],
  ])('%j: %s', (value, expected) => {
    expect(retryAfterMs(responseOf(429, { 'retry-after': value }))).toBe(expected)
  })

  test('a missing or repeated Retry-After gives none', () => {
    expect(retryAfterMs(responseOf(429))).toBeUndefined()
    expect(retryAfterMs(responseOf(429, { 'retry-after': ['1', '1'] }))).toBeUndefined()
  })
})

describe("quotaIsPerKey: x-ratelimit-scope names the API key's quota", () => {
  test.each([
    ['key', true],
    ['KEY', true],
    ['api-key', true],
    ['api_key', true],
    ['api key', true],
    ['apikey', true],
    ['per-key', true],
    ['key:abc', true],
    ['ip', false],
    ['project', false],
    ['keys', false],
    ['keyboard', false],
    ['monkey', false],
    ['xapikey', false],
    ['', false],
  ])('%j: %s', (scope, expected) => {
    expect(quotaIsPerKey(responseOf(429, { 'x-ratelimit-scope': scope }))).toBe(expected)
  })

  test('no scope is not the key', () => {
    expect(quotaIsPerKey(responseOf(429))).toBe(false)
  })
})

describe('backoffMs: drawn from [base·2ⁿ / 2, base·2ⁿ], capped', () => {
  test.each([
    [0, 0, 125],
    [0, 1, 250],
    [1, 0, 250],
    [1, 1, 500],
    [4, 1, 4000],
    [5, 1, 4000],
    [5, 0, 2000],
    [20, 1, 4000],
  ])('retry %i with chance %d waits %i ms', (retry, chance, expected) => {
    expect(backoffMs(retry, policy, () => chance)).toBe(expected)
  })
})

describe('retryWaitMs: whether, and after how long, a request is sent again', () => {
  const last = policy.maxAttempts - 1
  test.each([
    ['a 429 without Retry-After', responseOf(429), policy.defaultRateLimitWaitMs],
    ['a 429 with Retry-After 3', responseOf(429, { 'retry-after': '3' }), 3000],
    ['a 503 with Retry-After 3', responseOf(503, { 'retry-after': '3' }), 3000],
    [
      'a 429 at the longest wait',
      responseOf(429, { 'retry-after': String(policy.maxWaitMs / 1000) }),
      policy.maxWaitMs,
    ],
    ['a 429 past the longest wait', responseOf(429, { 'retry-after': String(policy.maxWaitMs / 1000 + 1) }), undefined],
    ['a 503 past the longest wait', responseOf(503, { 'retry-after': String(policy.maxWaitMs / 1000 + 1) }), undefined],
    ['a 499', responseOf(499), undefined],
    ['a 501', responseOf(501), undefined],
    ['a 505', responseOf(505), undefined],
    ['a 200', responseOf(200), undefined],
  ])('%s, first attempt: %s', (_, response, expected) => {
    expect(retryWaitMs(response, 0, policy)).toBe(expected)
  })

  test.each([502, 503, 504, 500])('a %i of a safe read is sent again after the backoff', (status) => {
    const wait = retryWaitMs(responseOf(status), 0, policy)
    expect(wait).toBeGreaterThanOrEqual(policy.backoffBaseMs / 2)
    expect(wait).toBeLessThanOrEqual(policy.backoffBaseMs)
  })

  test('a write is sent again after a 429 or a 503 only', () => {
    expect(retryWaitMs(responseOf(429), 0, policy, true)).toBe(policy.defaultRateLimitWaitMs)
    expect(retryWaitMs(responseOf(503, { 'retry-after': '2' }), 0, policy, true)).toBe(2000)
    for (const status of [500, 502, 504]) expect(retryWaitMs(responseOf(status), 0, policy, true)).toBeUndefined()
  })

  test('a 500 is sent again once: not after an earlier 500, whatever else came before', () => {
    expect(retryWaitMs(responseOf(500), 1, policy, false, [{ status: 500 }])).toBeUndefined()
    expect(retryWaitMs(responseOf(500), 2, policy, false, [{ status: 502 }, { status: 500 }])).toBeUndefined()
    expect(retryWaitMs(responseOf(500), 1, policy, false, [{ status: 502 }])).toBeDefined()
    expect(retryWaitMs(responseOf(502), 1, policy, false, [{ status: 500 }])).toBeDefined()
  })

  test('the last attempt is not followed by another; the one before it is', () => {
    expect(retryWaitMs(responseOf(429), last - 1, policy)).toBe(policy.defaultRateLimitWaitMs)
    expect(retryWaitMs(responseOf(429), last, policy)).toBeUndefined()
    expect(retryWaitMs(responseOf(502), last - 1, policy)).toBeDefined()
    expect(retryWaitMs(responseOf(502), last, policy)).toBeUndefined()
  })
})

describe('redirectLocation: 301, 302, 303, 307 and 308 with one Location', () => {
  test.each([
    [300, undefined],
    [301, '/a'],
    [302, '/a'],
    [303, '/a'],
    [304, undefined],
    [305, undefined],
    [306, undefined],
    [307, '/a'],
    [308, '/a'],
    [309, undefined],
    [200, undefined],
  ])('a %i: %s', (status, expected) => {
    expect(redirectLocation(responseOf(status, { location: '/a' }))).toBe(expected)
  })

  test('no Location, or two, is no redirect', () => {
    expect(redirectLocation(responseOf(302))).toBeUndefined()
    expect(redirectLocation(responseOf(302, { location: ['/a', '/b'] }))).toBeUndefined()
  })
})

describe('the content codings decoded', () => {
  test.each([
    ['gzip', undefined],
    ['x-gzip', undefined],
    ['deflate', undefined],
    ['br', undefined],
    ['identity', undefined],
    ['GZip', undefined],
    ['gzip, br', undefined],
    ['compress', 'compress'],
    ['zstd', 'zstd'],
    ['gzip2', 'gzip2'],
    ['x-deflate', 'x-deflate'],
    ['gzip, zstd', 'zstd'],
  ])('%j: unknown %s', (coding, expected) => {
    expect(unknownCodingOf(coding)).toBe(expected)
  })

  test('deflate is decoded as zlib or raw, by its header', async () => {
    const text = Buffer.from('{"data":[]}')
    for (const encoded of [deflateSync(text), deflateRawSync(text)]) {
      const decoded = await decodeBody(encoded, 'deflate', 1000)
      expect('bytes' in decoded && decoded.bytes.toString()).toBe(text.toString())
    }
  })
})

describe('the response headers kept as they are', () => {
  /** The response headers specs/openapi.yaml names, read from every response of every operation. */
  const contractHeaders = [
    ...new Set(
      Object.values(loadOpenApi().paths).flatMap((methods) =>
        Object.values(methods.get!.responses).flatMap((response) =>
          Object.keys((response as { headers?: Record<string, unknown> }).headers ?? {}).map((n) => n.toLowerCase()),
        ),
      ),
    ),
  ]
  /** HTTP's headers of representation, caching, connection, redirection and authentication metadata. */
  const httpHeaders = [
    'content-type',
    'content-length',
    'content-encoding',
    'content-language',
    'transfer-encoding',
    'connection',
    'keep-alive',
    'date',
    'age',
    'expires',
    'last-modified',
    'etag',
    'cache-control',
    'pragma',
    'vary',
    'allow',
    'accept-ranges',
    'location',
    'content-location',
    'link',
    'www-authenticate',
    'strict-transport-security',
  ]

  test('the contract names the five headers of its responses', () => {
    expect(contractHeaders.sort()).toEqual([
      'retry-after',
      'x-ratelimit-limit',
      'x-ratelimit-scope',
      'x-request-id',
      'x-service-source',
    ])
  })

  test.each([...contractHeaders, ...httpHeaders])('%s is kept as it is, in any case', (name) => {
    expect(listedHeaders({ [name]: 'v1', [name.toUpperCase()]: ['v2', 'v3'] })).toEqual({
      [name]: 'v1',
      [name.toUpperCase()]: ['v2', 'v3'],
    })
  })

  test.each(['x-request-ids', 'x-debug-token', 'set-cookie', 'server', 'content-typex', 'x-content-type'])(
    '%s is kept as its stand-in',
    (name) => {
      expect(listedHeaders({ [name]: 'v' })).toEqual({ [name]: standIn('header', 'v') })
    },
  )
})
