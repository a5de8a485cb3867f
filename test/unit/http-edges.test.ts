import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { loadOpenApi } from '../../src/contract/schemas.js'
import { isAmbiguous } from '../../src/http/client.js'
import {
  ACCEPTED_CODINGS,
  codingsOf,
  decodeBody,
  decodedResponse,
  unknownCodingOf,
} from '../../src/http/content-coding.js'
import { holdsStandIn, listedHeaders, standIn } from '../../src/http/listed-material.js'
import { headerShown, headerValue, headerValues } from '../../src/http/exchange.js'
import { recordedRedirect, redirectLocation } from '../../src/http/redirects.js'
import { BodyCollector, decodeUtf8, MAX_JSON_DEPTH, parsedResponse } from '../../src/http/response-body.js'
import {
  backoffMs,
  defaultRetryPolicy,
  isTransient,
  quotaIsPerKey,
  retryAfterMs,
  retryWaitMs,
} from '../../src/http/retry.js'
import { endingInWords, transportError, unansweredAs } from '../../src/http/transport-errors.js'
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
    ['apixkey', false],
    ['api.key', true],
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
    const unavailable = retryWaitMs(responseOf(503), 0, policy, true)
    expect(unavailable, 'a 503 without Retry-After: the backoff').toBeGreaterThanOrEqual(policy.backoffBaseMs / 2)
    expect(unavailable).toBeLessThanOrEqual(policy.backoffBaseMs)
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

describe('headers as the checks read them, and a recorded redirect', () => {
  const response = responseOf(200, { 'x-request-id': 'abc', vary: ['a', 'b'] })

  test('a single value by any case of its name; a missing or repeated one is none, and is named so', () => {
    expect(headerValues(response, 'X-Request-ID')).toEqual(['abc'])
    expect(headerValue(response, 'X-Request-ID')).toBe('abc')
    expect(headerValue(response, 'vary')).toBeUndefined()
    expect(headerValues(response, 'vary')).toEqual(['a', 'b'])
    expect(headerValues(response, 'etag')).toEqual([])
    expect(headerShown(response, 'x-request-id')).toBe('x-request-id "abc"')
    expect(headerShown(response, 'vary')).toBe('no single vary')
    expect(headerShown(response, 'etag')).toBe('no single etag')
  })

  test('a recorded redirect is not judged; any other response is as it was', () => {
    expect(recordedRedirect(responseOf(307, { location: '/next' })).notJudged).toBe(
      'a 307 redirect: not judged (the request it leads to is judged by itself)',
    )
    const plain = responseOf(200, { location: '/next' })
    expect(recordedRedirect(plain)).toBe(plain)
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
    // Its first two bytes pass zlib's check (a multiple of 31), not its method (8 in the low four bits): raw.
    const nines = Buffer.from(`${'9'.repeat(40)}{}`)
    const raw = deflateRawSync(nines)
    expect(((raw[0]! * 256 + raw[1]!) % 31) + (raw[0]! & 0x0f)).toBe(3)
    expect(await decodeBody(raw, 'deflate', 1000)).toEqual({ bytes: nines, truncated: false, codings: ['deflate'] })
  })
})

describe('decodeBody and decodedResponse: a body undone by its Content-Encoding', () => {
  const text = Buffer.from('{"data":{"symbol":"ETH-USD"}}')
  /** A body that compresses little, so that half of its coded bytes hold a good part of it in every coding. */
  const long = Buffer.from(JSON.stringify({ data: Array.from({ length: 5000 }, (_, i) => (i * 2654435761) >>> 0) }))

  test('codings are read in the order applied, case and spaces aside, identity and empty ones left out', async () => {
    expect(codingsOf(['GZip ,, identity', ' br'])).toEqual(['gzip', 'br'])
    expect(codingsOf('identity')).toEqual([])
    expect(await decodeBody(text, 'identity', 1000)).toEqual({ bytes: text, truncated: false, codings: [] })
    expect(await decodeBody(text, undefined, 1000, true)).toEqual({ bytes: text, truncated: true, codings: [] })
  })

  test('a chain is undone last coding first; an inner deflate is zlib', async () => {
    expect(await decodeBody(gzipSync(deflateSync(text)), 'deflate, gzip', 1000)).toEqual({
      bytes: text,
      truncated: false,
      codings: ['deflate', 'gzip'],
    })
    expect(await decodeBody(brotliCompressSync(gzipSync(text)), ['gzip', 'br'], 1000)).toMatchObject({ bytes: text })
  })

  test.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)(
    '%s cut at the cap as sent gives its decoded start; whole but cut it is corrupt',
    async (coding, encode) => {
      const encoded = encode(long)
      const cut = encoded.subarray(0, Math.floor(encoded.length / 2))
      const partial = await decodeBody(cut, coding, 1_000_000, true)
      expect(partial).toMatchObject({ truncated: true, codings: [coding] })
      const bytes = 'bytes' in partial ? partial.bytes : Buffer.alloc(0)
      expect(bytes.length).toBeGreaterThan(0)
      expect(long.subarray(0, bytes.length).equals(bytes), 'the start of the body').toBe(true)
      expect(await decodeBody(cut, coding, 1_000_000)).toHaveProperty('corrupt')
    },
  )

  test('a decoded body over the cap is cut there and marked truncated; one at the cap is whole', async () => {
    const over = await decodeBody(gzipSync(long), 'gzip', long.length - 1)
    expect(over).toMatchObject({ truncated: true })
    const at = await decodeBody(gzipSync(long), 'gzip', long.length)
    expect(at).toEqual({ bytes: long, truncated: false, codings: ['gzip'] })
  })

  test('names what is not in its coding, and a coding it cannot decode', async () => {
    expect(await decodeBody(text, 'br', 1000)).toEqual({
      corrupt: expect.stringMatching(/^content-encoding br, but the body is not in that coding \(.+\)$/),
    })
    expect(await decodeBody(text, 'gzip, compress', 1000)).toEqual({ unknownCoding: 'compress' })
    expect(await decodeBody(text, 'gzip, br', 1000)).toEqual({
      corrupt: expect.stringMatching(/^content-encoding gzip, br, but the body is not in that coding \(.+\)$/),
    })
  })

  test('a response: the coded size kept beside the decoded text, Content-Encoding found in any case', async () => {
    const coded = gzipSync(text)
    const response = await decodedResponse(200, { 'Content-Encoding': 'gzip' }, coded, false, 1000)
    expect(response).toMatchObject({ body: text.toString(), encodedBytes: coded.length, truncated: false })
    expect(response.json).toEqual({ data: { symbol: 'ETH-USD' } })
    const plain = await decodedResponse(200, {}, text, false, 1000)
    expect(plain.encodedBytes).toBeUndefined()
    expect(plain.json).toEqual({ data: { symbol: 'ETH-USD' } })
  })

  test('a response in an unknown coding has no body to judge; one not in its coding is kept as served, not JSON', async () => {
    const unknown = await decodedResponse(200, { 'content-encoding': 'zstd' }, text, false, 1000)
    expect(unknown).toEqual({
      status: 200,
      headers: { 'content-encoding': 'zstd' },
      body: '',
      truncated: false,
      jsonError: 'a body in an unknown content coding zstd: not judged',
      notJudged: 'a body in an unknown content coding zstd: not judged',
      encodedBytes: text.length,
    })
    const lie = await decodedResponse(200, { 'content-encoding': 'gzip' }, text, true, 1000)
    expect(lie.body).toBe(text.toString())
    expect(lie.truncated).toBe(true)
    expect(lie.json).toBeUndefined()
    expect(lie.jsonError).toMatch(/^not readable: content-encoding gzip, but the body is not in that coding/)
    expect(lie.encodedBytes).toBe(text.length)
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

describe('transportError: why no response was read, in words, by the code undici or Node gives', () => {
  const coded = (code: string, more: object = {}) => Object.assign(new Error('internal text'), { code }, more)
  test.each([
    [coded('ECONNRESET'), { code: 'ECONNRESET', message: 'the connection was reset (ECONNRESET)' }],
    [
      coded('UND_ERR_SOCKET'),
      { code: 'UND_ERR_SOCKET', message: 'the connection was closed before the response was complete' },
    ],
    [coded('UND_ERR_HEADERS_TIMEOUT'), { code: 'TIMEOUT', message: 'no response head within 750 ms' }],
    [coded('UND_ERR_BODY_TIMEOUT'), { code: 'TIMEOUT', message: 'the response body stalled for 750 ms' }],
    [coded('UND_ERR_CONNECT_TIMEOUT'), { code: 'TIMEOUT', message: 'no connection within 750 ms' }],
    [
      coded('UND_ERR_INVALID_ARG'),
      { code: 'UND_ERR_INVALID_ARG', message: 'the request could not be sent (internal text)' },
    ],
    [
      coded('HPE_INVALID_CONSTANT'),
      { code: 'HPE_INVALID_CONSTANT', message: 'the response is not valid HTTP/1.1 (HPE_INVALID_CONSTANT)' },
    ],
    [
      coded('HPE_HEADER_OVERFLOW'),
      { code: 'HPE_HEADER_OVERFLOW', message: "the response's header section is over 16 KiB: not readable" },
    ],
    [coded('EWHATEVER'), { code: 'EWHATEVER', message: 'the request failed (EWHATEVER)' }],
    [
      Object.assign(new Error('x'), { name: 'TimeoutError' }),
      { code: 'TIMEOUT', message: 'no complete response within 750 ms' },
    ],
    [
      Object.assign(new TypeError('x'), { cause: { code: 'ECONNREFUSED' } }),
      { code: 'ECONNREFUSED', message: 'the connection was refused (ECONNREFUSED)' },
    ],
    [
      coded('UND_ERR_SOCKET', { cause: { code: 'EPIPE' } }),
      { code: 'UND_ERR_SOCKET', message: 'the connection was closed before the response was complete' },
    ],
    [
      coded('UND_ERR_WRAPPED', { cause: { code: 'ECONNRESET' } }),
      { code: 'ECONNRESET', message: 'the connection was reset (ECONNRESET)' },
    ],
    [
      coded('UND_ERR_WRAPPED', { cause: { code: 'EUNKNOWN' } }),
      { code: 'UND_ERR_WRAPPED', message: 'the request failed (UND_ERR_WRAPPED)' },
    ],
    [new RangeError('x'), { code: 'RangeError', message: 'the request failed (RangeError)' }],
    [undefined, { code: 'ERROR', message: 'the request failed (ERROR)' }],
    [
      { code: 42, name: undefined },
      { code: 'ERROR', message: 'the request failed (ERROR)' },
    ],
  ])('%s', (error, expected) => {
    expect(transportError(error, 750)).toEqual(expected)
  })

  test.each([
    'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
    'UND_ERR_INFO',
    'HTTPParserError',
    'EPIPE',
    'ETIMEDOUT',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'ENOTFOUND',
    'EAI_AGAIN',
    'ERR_SSL_WRONG_VERSION_NUMBER',
    'EPROTO',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'CERT_HAS_EXPIRED',
    'ERR_TLS_CERT_ALTNAME_INVALID',
  ])('%s is named in words of its own', (code) => {
    const { message } = transportError(coded(code), 750)
    expect(message).toMatch(/^the \w/)
    expect(message).not.toMatch(/^the request failed/)
    expect(message.endsWith(` (${code})`)).toBe(!/^(UND_ERR_|HTTPParserError)/.test(code))
  })

  test('an error without words of its own is named without them', () => {
    expect(transportError({ code: 'UND_ERR_INVALID_ARG', message: 7 }, 1).message).toBe(
      'the request could not be sent ()',
    )
  })
})

describe('endingInWords and unansweredAs: how a report names an exchange without a response', () => {
  test.each([
    ['TIMEOUT', 'no response in time'],
    ['ECONNRESET', 'the connection was reset (ECONNRESET)'],
    ['UND_ERR_CLOSED', 'the connection was closed before the response was complete'],
    ['HPE_HEADER_OVERFLOW', "the response's header section is over 16 KiB: not readable (HPE_HEADER_OVERFLOW)"],
    ['ESOMETHING', 'the request failed (ESOMETHING)'],
    ['UND_ERR_INVALID_ARG', 'the request could not be sent ()'],
  ])('%s: %s', (code, words) => {
    expect(endingInWords(code)).toBe(words)
  })

  test.each([
    [{ code: 'UND_ERR_HEADERS_OVERFLOW', message: 'm' }, 'a response whose head is not readable (m)'],
    [{ code: 'HPE_HEADER_OVERFLOW', message: 'm' }, 'a response whose head is not readable (m)'],
    [{ code: 'ECONNRESET', message: 'm' }, 'no response (m)'],
    [{ code: 'ECONNRESET', message: '' }, 'no response (no reason recorded)'],
    [undefined, 'no response (no reason recorded)'],
  ])('%j: %s', (error, words) => {
    expect(unansweredAs(error)).toBe(words)
  })
})

describe('BodyCollector: a body kept up to its cap', () => {
  const chunk = (size: number) => Buffer.alloc(size, 0x61)

  test('a body of exactly the cap is whole; one byte more is truncated, and nothing after it is taken', () => {
    const whole = new BodyCollector(10)
    expect(whole.add(chunk(4))).toBe(true)
    expect(whole.add(chunk(6))).toBe(true)
    expect(whole.truncated).toBe(false)
    expect(whole.bytes()).toHaveLength(10)
    const over = new BodyCollector(10)
    over.add(chunk(10))
    expect(over.add(chunk(1))).toBe(false)
    expect(over.truncated).toBe(true)
    expect(over.add(chunk(1)), 'nothing more once over').toBe(false)
    expect(over.bytes(), 'under 64 KiB, all that came before the cap was passed').toHaveLength(11)
  })

  test('keeps only the first 64 KiB of a body over the cap', () => {
    const big = new BodyCollector(100 * 1024)
    big.add(chunk(100 * 1024))
    big.add(chunk(1))
    expect(big.bytes()).toHaveLength(64 * 1024)
  })

  test('a body declared larger than the cap is over it at 64 KiB; one declared at the cap is not', () => {
    const declared = new BodyCollector(100 * 1024, 100 * 1024 + 1)
    expect(declared.add(chunk(64 * 1024))).toBe(true)
    expect(declared.add(chunk(1))).toBe(false)
    const atCap = new BodyCollector(100 * 1024, 100 * 1024)
    expect(atCap.add(chunk(100 * 1024))).toBe(true)
    expect(atCap.truncated).toBe(false)
  })
})

describe('parsedResponse: the JSON of a body, or why it is none', () => {
  const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)
  test.each([
    ['{"a":1}', undefined],
    ['', 'empty body'],
    [deep(MAX_JSON_DEPTH), undefined],
    [deep(MAX_JSON_DEPTH + 1), `nested deeper than ${MAX_JSON_DEPTH} levels`],
    [`["${'['.repeat(300)}"]`, undefined],
    [`[${'[],{},'.repeat(300)}0]`, undefined],
    [`["\\"${'['.repeat(300)}"]`, undefined],
    ['{"a":', 'not JSON: it ends before its value does (it begins "{\\"a\\":")'],
    ['{"a":1}}', 'not JSON from character 8 on (it begins "{\\"a\\":1}}")'],
    ['{"abcdefgh":1}}', 'not JSON from character 15 on (it begins "{\\"abcdefgh"…)'],
    [`["x",${deep(MAX_JSON_DEPTH)}]`, `nested deeper than ${MAX_JSON_DEPTH} levels`],
    [`["\\"]",${deep(MAX_JSON_DEPTH)}]`, `nested deeper than ${MAX_JSON_DEPTH} levels`],
    [
      `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`,
      `nested deeper than ${MAX_JSON_DEPTH} levels`,
    ],
    [
      `${'[0,'.repeat(MAX_JSON_DEPTH + 1)}0${']'.repeat(MAX_JSON_DEPTH + 1)}`,
      `nested deeper than ${MAX_JSON_DEPTH} levels`,
    ],
    ['<html>oops!', 'not JSON (it begins "<html>oops"…)'],
    ['<html>oops', 'not JSON (it begins "<html>oops")'],
  ])('%j: %s', (body, jsonError) => {
    const response = parsedResponse(200, {}, body, false)
    expect(response.jsonError).toBe(jsonError)
    if (jsonError === undefined) expect(response.json).toEqual(JSON.parse(body))
    else expect(response.json).toBeUndefined()
  })

  test('a truncated body is not parsed; headers are kept by lower-case name, those without a value left out', () => {
    const response = parsedResponse(200, { 'Content-Type': 'application/json', 'X-None': undefined }, '{}', true)
    expect(response).toStrictEqual({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{}',
      truncated: true,
      jsonError: 'body truncated at the size cap',
    })
  })

  test('bytes that are not UTF-8 are named so, and kept as Latin-1', () => {
    expect(decodeUtf8(Buffer.from('é'))).toBe('é')
    expect(decodeUtf8(Buffer.from([0x61, 0xe9]))).toBe('[invalid UTF-8, 2 bytes] aé')
  })
})

describe('which failed writes may have been received (sent again as they were)', () => {
  test.each(['CHECK_ENDED', 'HEADER_NOT_SENDABLE', 'RUN_TIME_BOUND', 'RUN_INTERRUPTED', 'TARGET_NOT_ANSWERING'])(
    'not one the suite cut off or never sent itself: %s',
    (code) => {
      expect(isAmbiguous({ code, message: 'not sent' })).toBe(false)
    },
  )

  test('one the transport lost on the way, or none at all', () => {
    expect(isAmbiguous({ code: 'ECONNRESET', message: 'reset' })).toBe(true)
    expect(isAmbiguous({ code: 'TIMEOUT', message: 'no complete response' })).toBe(true)
    expect(isAmbiguous(undefined)).toBe(false)
  })
})

test('the codings a request accepts are those the client decodes: gzip, deflate and br, no other', async () => {
  const text = Buffer.from('{"data":[]}')
  const encoded: Record<string, Buffer> = {
    gzip: gzipSync(text),
    deflate: deflateSync(text),
    br: brotliCompressSync(text),
  }
  expect(codingsOf(ACCEPTED_CODINGS)).toEqual(Object.keys(encoded))
  for (const coding of codingsOf(ACCEPTED_CODINGS))
    expect(await decodeBody(encoded[coding]!, coding, 1000), coding).toEqual({
      bytes: text,
      truncated: false,
      codings: [coding],
    })
  expect(unknownCodingOf(ACCEPTED_CODINGS)).toBeUndefined()
})

test('a stand-in is found in a text or a value whatever its size, and only a whole one', () => {
  for (const size of [1, 9, 10, 4096]) {
    const kept = standIn('header', 'x'.repeat(size))
    expect(holdsStandIn(kept), kept).toBe(true)
    expect(holdsStandIn({ token: kept })).toBe(true)
  }
  expect(holdsStandIn('«unlisted header: 12 bytes, sha256:0123abc»')).toBe(false)
  expect(holdsStandIn('«unlisted header: bytes, sha256:0123abcd»')).toBe(false)
})

test("a header section too large to read is named with the client's bound", () => {
  expect(transportError({ code: 'UND_ERR_HEADERS_OVERFLOW' }, 750).message).toMatch(
    /^the response's header section is over \d+ KiB: not readable$/,
  )
})
