import { describe, expect, test } from 'vitest'
import { exchangeRules } from '../../src/checks/every-response.js'
import { findingMessage } from '../../src/checks/exchange-judge.js'
import { receiptRefusedForKey, refused } from '../../src/checks/operation-calls.js'
import { brokenFormat } from '../../src/checks/request-formats.js'
import { operationAt } from '../../src/contract/operations.js'
import type { Exchange, ExchangeResponse } from '../../src/http/exchange.js'
import { observe } from '../../src/engine/observations.js'
import { destinationOf, templatePattern } from '../../src/traffic/operation-of.js'
import { exchangeOf, responseOf, type Sent } from '../support/hand-made.js'

/**
 * Every value a judgement decides with, just inside and just outside each of its edges: the patterns of
 * specs/openapi.yaml as the rules apply them, the lengths the contract states, the status ranges and the path
 * templates. Loosening or narrowing a value (an anchor dropped, a bound moved by one, a range widened) fails here.
 */

function judged(id: string, response: ExchangeResponse, sent: Sent = {}): string {
  const rule = exchangeRules.find((r) => r.id === id)!
  const exchange = exchangeOf(response, sent)
  if (!rule.applies(response, exchange, {})) return 'not applied'
  const finding = rule.violation(response, exchange, {})
  return finding === undefined ? 'holds' : findingMessage(finding)
}

const HEX64 = 'ab'.repeat(32)
const HASH = `0x${HEX64}`
const intentUrl = (hash: string, receipt?: string) =>
  `http://127.0.0.1:9/v1/intents/${hash}${receipt === undefined ? '' : `?receipt=${encodeURIComponent(receipt)}`}`
const intentSent = (hash: string, receipt?: string, headers: Record<string, string> = {}): Sent => ({
  operation: 'getIntentStatus',
  url: intentUrl(hash, receipt),
  headers: { accept: 'application/json', ...headers },
})
const formatOf = (sent: Sent) => brokenFormat(exchangeOf(responseOf(200), sent))

const BAD_HASH = 'its hash is not in Hash format (0x and 64 hex digits)'
const BAD_REQUEST_ID = 'its X-Request-ID is not 8 to 128 letters, digits, dots, underscores, colons or hyphens'

describe('brokenFormat: the formats the contract states for a request', () => {
  test.each([
    [HASH, undefined],
    [`0x${HEX64.toUpperCase()}`, undefined],
    [`0x${'9'.repeat(64)}`, undefined],
    [`0x${'f'.repeat(64)}`, undefined],
    [`0X${HEX64}`, BAD_HASH],
    [`0x${HEX64.slice(1)}`, BAD_HASH],
    [`0x${HEX64}a`, BAD_HASH],
    [`x0x${HEX64}`, BAD_HASH],
    [`0x${HEX64.slice(1)}g`, BAD_HASH],
    [HEX64 + 'ab', BAD_HASH],
    ['%E0%A4%A', BAD_HASH],
    // The hash is the path's last segment: a segment after it leaves none in Hash format.
    [`${HASH}/x`, BAD_HASH],
  ])('the hash %s: %s', (hash, expected) => {
    expect(formatOf(intentSent(hash, 'r'))).toBe(expected)
  })

  test.each([
    ['r', undefined],
    ['r'.repeat(512), undefined],
    ['', 'its receipt has 0 characters, outside 1 to 512'],
    ['r'.repeat(513), 'its receipt has 513 characters, outside 1 to 512'],
    [undefined, 'it has no receipt, which is required'],
  ])('the receipt %s: %s', (receipt, expected) => {
    expect(formatOf(intentSent(HASH, receipt))).toBe(expected)
  })

  test.each([
    ['a'.repeat(8), undefined],
    ['a'.repeat(128), undefined],
    ['Az09._:-', undefined],
    ['a'.repeat(7), BAD_REQUEST_ID],
    ['a'.repeat(129), BAD_REQUEST_ID],
    ['abcdefg ', BAD_REQUEST_ID],
    ['abcdefg/', BAD_REQUEST_ID],
    [' abcdefgh', BAD_REQUEST_ID],
    ['abcdefgh\n', BAD_REQUEST_ID],
  ])('the X-Request-ID %j: %s', (requestId, expected) => {
    expect(formatOf({ operation: 'listMarkets', headers: { 'X-Request-ID': requestId } })).toBe(expected)
    expect(formatOf(intentSent(HASH, 'r', { 'x-request-id': requestId }))).toBe(expected)
  })

  test('the hash and receipt are judged for the intent operation only; no X-Request-ID breaks nothing', () => {
    expect(formatOf({ operation: 'listMarkets', url: intentUrl('0x1') })).toBeUndefined()
    expect(formatOf({ operation: 'listMarkets' })).toBeUndefined()
  })
})

describe('the 5xx rules: a malformed request is not answered 5xx, an allowed one not 500', () => {
  const malformed = intentSent('0x1', 'r')
  const allowed = intentSent(HASH, 'r')
  test.each([
    ['every-response/malformed-request-not-5xx', malformed, 499, 'holds'],
    ['every-response/malformed-request-not-5xx', malformed, 422, 'holds'],
    ['every-response/malformed-request-not-5xx', allowed, 500, 'not applied'],
    ['every-response/malformed-request-not-5xx', { ...malformed, operation: undefined }, 500, 'not applied'],
    ['every-response/allowed-request-not-500', allowed, 499, 'holds'],
    ['every-response/allowed-request-not-500', malformed, 500, 'not applied'],
    ['every-response/allowed-request-not-500', { ...allowed, operation: undefined }, 500, 'not applied'],
  ] as const)('%s: %j answered %i: %s', (id, sent, status, expected) => {
    expect(judged(id, responseOf(status), sent)).toBe(expected)
  })

  test('the first 5xx breaks each, naming the format broken or the repeated failure', () => {
    expect(judged('every-response/malformed-request-not-5xx', responseOf(500), malformed)).toBe(
      `the request breaks a format the contract states (${BAD_HASH}), a validation failure (400 or 422), and was answered 500: an unexpected failure`,
    )
    expect(judged('every-response/malformed-request-not-5xx', responseOf(599), malformed)).toMatch(/answered 599/)
    expect(judged('every-response/allowed-request-not-500', responseOf(500), allowed)).toBe(
      'a request the contract allows to getIntentStatus was answered 500: the operation failed to serve it',
    )
    const rule = exchangeRules.find((r) => r.id === 'every-response/allowed-request-not-500')!
    const response = responseOf(500)
    const exchange = { ...exchangeOf(response, allowed), retries: [{ status: 502 }, { status: 500 }] }
    expect(findingMessage(rule.violation(response, exchange as never, {})!)).toBe(
      'a request the contract allows to getIntentStatus was answered 500 to a retry too: the operation failed to serve it',
    )
    expect(
      findingMessage(rule.violation(response, { ...exchange, retries: [{ status: 502 }] } as never, {})!),
    ).not.toMatch(/retry too/)
  })
})

describe('the 5xx rules judge answers alone', () => {
  const malformed = intentSent('0x1', 'r')
  const allowed = intentSent(HASH, 'r')
  const RULES = ['every-response/malformed-request-not-5xx', 'every-response/allowed-request-not-500']
  /** What each 5xx rule made of the exchange: how many responses it applied to, and its findings. */
  const judgedBy5xxRules = (exchange: Exchange) => {
    const observations = observe([exchange], {}, [], exchangeRules)
    return RULES.map((id) => [id, observations[id]?.applied ?? 0, observations[id]?.violated ?? 0])
  }

  test.each([502, 503, 504])('a transient %i, the last attempt the client made, says nothing of either', (status) => {
    for (const sent of [malformed, allowed])
      expect(judgedBy5xxRules(exchangeOf(responseOf(status), sent))).toEqual(RULES.map((id) => [id, 0, 0]))
  })

  test('an attempt answered 500 that the client sent again is no answer: the retry answered 400 or 200 is', () => {
    const attempt = { status: 500, waitedMs: 1, response: responseOf(500) }
    const retried = (status: number, sent: Sent) => ({ ...exchangeOf(responseOf(status), sent), retries: [attempt] })
    expect(judgedBy5xxRules(retried(400, malformed))).toEqual([
      [RULES[0], 1, 0],
      [RULES[1], 0, 0],
    ])
    expect(judgedBy5xxRules(retried(200, allowed))).toEqual([
      [RULES[0], 0, 0],
      [RULES[1], 1, 0],
    ])
  })
})

describe('the JSON media type of every-response/json-content-type', () => {
  test.each([
    ['application/json', 'holds'],
    ['APPLICATION/JSON', 'holds'],
    ['application/json;charset=utf-8', 'holds'],
    ['application/json ; charset=utf-8', 'holds'],
    ['application/vnd.api+json', 'holds'],
    ['application/problem+json', 'holds'],
    ['application/jsonx', 'content-type is application/jsonx, not application/json'],
    ['application/json5', 'content-type is application/json5, not application/json'],
    ['application/json-seq', 'content-type is application/json-seq, not application/json'],
    ['application/x-ndjson', 'content-type is application/x-ndjson, not application/json'],
    ['application/+json', 'content-type is application/+json, not application/json'],
    ['xapplication/json', 'content-type is xapplication/json, not application/json'],
    ['text/json', 'content-type is text/json, not application/json'],
    ['application/vnd api+json', 'content-type is application/vnd api+json, not application/json'],
  ])('%s: %s', (type, expected) => {
    expect(judged('every-response/json-content-type', responseOf(400, { 'content-type': type }))).toBe(expected)
  })
})

describe('the response patterns of specs/openapi.yaml as the rules apply them', () => {
  test.each([
    ['a'.repeat(8), 'holds'],
    ['a'.repeat(128), 'holds'],
    ['Az09._:-', 'holds'],
    ['a'.repeat(7), 'does not match'],
    ['a'.repeat(129), 'does not match'],
    ['abcdefg ', 'does not match'],
    [' abcdefgh', 'does not match'],
    ['abcdefgh/', 'does not match'],
  ])('x-request-id %j: %s', (value, expected) => {
    expect(judged('every-response/request-id-format', responseOf(200, { 'x-request-id': value }))).toContain(expected)
  })

  test.each([
    ['1', 'holds'],
    ['9', 'holds'],
    ['10', 'holds'],
    ['120', 'holds'],
    ['0', 'not an integer of at least 1'],
    ['01', 'not an integer of at least 1'],
    ['-1', 'not an integer of at least 1'],
    ['1a', 'not an integer of at least 1'],
    ['a1', 'not an integer of at least 1'],
    ['1.5', 'not an integer of at least 1'],
    ['', 'not an integer of at least 1'],
  ])('Retry-After %j: %s', (value, expected) => {
    expect(judged('every-response/retry-after', responseOf(503, { 'retry-after': value }))).toContain(expected)
  })

  test.each([
    [428, 'not applied'],
    [429, 'holds'],
    [430, 'not applied'],
    [502, 'not applied'],
    [503, 'holds'],
    [504, 'not applied'],
  ])('Retry-After is asked of a %i: %s', (status, expected) => {
    expect(judged('every-response/retry-after', responseOf(status, { 'retry-after': '1' }))).toBe(expected)
  })

  test.each([
    ['indexed', 'holds'],
    ['automation', 'holds'],
    ['live', 'holds'],
    ['Live', 'is not indexed, automation or live'],
    ['live ', 'is not indexed, automation or live'],
    ['', 'is not indexed, automation or live'],
  ])('x-service-source %j: %s', (value, expected) => {
    expect(judged('every-response/service-source', responseOf(200, { 'x-service-source': value }))).toContain(expected)
  })
})

describe('the status ranges of the every-response rules', () => {
  test.each([
    ['every-response/json-content-type', 399, 'not applied'],
    ['every-response/json-content-type', 400, 'content-type is missing'],
    ['every-response/json-content-type', 599, 'content-type is missing'],
    ['every-response/success-json-content-type', 100, 'content-type is missing'],
    ['every-response/success-json-content-type', 399, 'content-type is missing'],
    ['every-response/success-json-content-type', 400, 'not applied'],
    ['every-response/error-body', 399, 'not applied'],
    ['every-response/error-body', 400, 'error body is empty'],
    ['every-response/refusal-without-data', 400, 'not applied'],
    ['every-response/refusal-without-data', 401, 'holds'],
    ['every-response/refusal-without-data', 402, 'not applied'],
    ['every-response/refusal-without-data', 403, 'holds'],
    ['every-response/refusal-without-data', 404, 'not applied'],
    ['every-response/rate-limit-scope', 428, 'not applied'],
    ['every-response/rate-limit-scope', 430, 'not applied'],
  ] as const)('%s of a %i: %s', (id, status, expected) => {
    expect(judged(id, responseOf(status))).toBe(expected)
  })

  test.each([
    [400, 'not applied'],
    [401, 'holds'],
    [402, 'not applied'],
    [403, 'holds'],
    [404, 'not applied'],
  ])('every-response/refusal-carries-no-payload of a %i: %s', (status, expected) => {
    expect(
      judged('every-response/refusal-carries-no-payload', responseOf(status, {}, { error: 'x' }), {
        operation: 'getVault',
      }),
    ).toBe(expected)
  })

  test.each([
    [403, 'not applied'],
    [404, 'holds'],
    [405, 'not applied'],
    [421, 'not applied'],
    [422, 'holds'],
    [423, 'not applied'],
  ])('the lookup refusals of a %i: %s', (status, expected) => {
    const response = responseOf(status, {}, { error: 'x' })
    expect(judged('every-response/not-found-carries-no-payload', response, { operation: 'getVault' })).toBe(expected)
    expect(judged('every-response/intent-refusal-carries-no-status', response, { operation: 'getIntentStatus' })).toBe(
      expected,
    )
  })

  test('every status the intent operation declares holds; its neighbours do not', () => {
    const intent = { operation: 'getIntentStatus' }
    for (const status of [200, 401, 403, 404, 422, 429, 500, 502, 503, 504])
      expect(judged('every-response/declared-status', responseOf(status), intent)).toBe('holds')
    for (const status of [201, 199, 400, 402, 405, 421, 423, 428, 430, 499, 501, 505])
      expect(judged('every-response/declared-status', responseOf(status), intent)).toMatch(/is not declared/)
  })
})

describe('the operation a path addresses', () => {
  test.each([
    ['/v1/markets', 'listMarkets'],
    ['/v1/markets?cursor=x#y', 'listMarkets'],
    ['/v1/markets#y', 'listMarkets'],
    ['/v1/vault#/x?y', 'getVault'],
    ['/v1/config', 'getConfig'],
    ['/v1/vault', 'getVault'],
    [`/v1/intents/${HASH}`, 'getIntentStatus'],
    ['/v1/intents/', 'getIntentStatus'],
    ['/v1/traders/0x1/pnl', 'getTraderPnl'],
    ['/v1/traders/0x1/balances', 'listTraderBalances'],
    ['/v1/marketsx', undefined],
    ['/v1/markets/', undefined],
    ['/x/v1/markets', undefined],
    ['v1/markets', undefined],
    ['/v1/intents/a/b', undefined],
    ['/v1/traders/0x1/pnlx', undefined],
    ['/v1/traders/a/b/pnl', undefined],
  ])('operationAt(%s) is %s', (path, expected) => {
    expect(operationAt(path)).toBe(expected)
  })

  test.each([
    ['GET', '/v1/markets', { operation: 'listMarkets' }],
    ['get', '/v1/markets', { operation: 'listMarkets' }],
    ['GET', `/v1/intents/${HASH}`, { operation: 'getIntentStatus' }],
    ['GET', '/v1/traders/0x1/balances', { operation: 'listTraderBalances' }],
    ['POST', '/v1/markets', 'other-v1'],
    ['HEAD', '/v1/markets', 'other-v1'],
    ['GET', '/v1/intents/', 'other-v1'],
    ['GET', '/v1/intents/a/b', 'other-v1'],
    ['GET', '/v1/marketsx', 'other-v1'],
    ['GET', '/v1/markets/', 'other-v1'],
    ['GET', '/v1/x/v1/markets', 'other-v1'],
    ['GET', '/v1/Markets', 'other-v1'],
    ['GET', '/V1/markets', 'outside-v1'],
    ['GET', '/v1', 'other-v1'],
    ['GET', '/v1/', 'other-v1'],
    ['GET', '/v1x/markets', 'outside-v1'],
    ['GET', '/v2/markets', 'outside-v1'],
    ['GET', '/x/v1/markets', 'outside-v1'],
    ['GET', '/', 'outside-v1'],
  ] as const)('destinationOf(%s %s) is %j', (method, path, expected) => {
    expect(destinationOf(method, `http://127.0.0.1:9${path}`)).toEqual(expected)
  })

  test.each([
    ['/v1/intents/{hash}', `/v1/intents/${HASH}`, true],
    ['/v1/intents/{hash}', '/v1/intents/x', true],
    ['/v1/intents/{hash}', '/v1/intents/', false],
    ['/v1/intents/{hash}', '/v1/intents/a/b', false],
    ['/v1/intents/{hash}', '/v1/intents/{hash}', true],
    ['/v1/intents/{hash}', `/x/v1/intents/${HASH}`, false],
    ['/v1/intents/{hash}', `/v1/intents/${HASH}/x`, false],
    ['/v1/{a}/pnl', '/v1/0x1/pnl', true],
    ['/v1/{a}/pnl', '/v1/0x1/pnlx', false],
    ['/v1/traders/{address}/pnl', '/v1/traders/0x1/pnl', true],
    ['/v1/traders/{address}/pnl', '/v1/traders//pnl', false],
    ['/v1/markets', '/v1/markets', true],
    ['/v1/markets', '/v1/markets/', false],
  ])('templatePattern(%s) matches %s: %s', (template, path, expected) => {
    expect(templatePattern(template).test(path)).toBe(expected)
  })

  test('a write the profile names is its operation; the same request without the profile is another path under /v1', () => {
    const values = { writes: { operations: { submitIntent: { method: 'POST', path: '/v1/intents' } } } }
    const url = 'http://127.0.0.1:9/v1/intents'
    expect(destinationOf('POST', url, values as never)).toEqual({ operation: 'submitIntent' })
    expect(destinationOf('POST', url)).toBe('other-v1')
    expect(destinationOf('POST', 'http://127.0.0.1:9/v2/intents', values as never)).toBe('outside-v1')
  })
})

describe('the refusals of operation-calls', () => {
  test.each([
    [399, false],
    [400, true],
    [499, true],
    [500, false],
    [200, false],
  ])('refused: a %i is a 4xx: %s', (status, expected) => {
    expect(refused(exchangeOf(responseOf(status)))).toBe(expected)
    expect(refused(exchangeOf(undefined))).toBe(false)
  })

  test.each([
    [403, false],
    [404, true],
    [405, false],
    [421, false],
    [422, true],
    [423, false],
  ])("receiptRefusedForKey: the intent operation's %i: %s", (status, expected) => {
    expect(receiptRefusedForKey(exchangeOf(responseOf(status), { operation: 'getIntentStatus' }))).toBe(expected)
    expect(receiptRefusedForKey(exchangeOf(responseOf(status), { operation: 'getVault' }))).toBe(false)
  })
})
