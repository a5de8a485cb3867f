import { describe, expect, test } from 'vitest'
import { exchangeRules } from '../../src/checks/every-response.js'
import { findingMessage, type JudgedSettings } from '../../src/checks/exchange-judge.js'
import { schemaPattern } from '../../src/contract/schemas.js'
import type { ExchangeResponse } from '../../src/http/exchange.js'
import type { ProfileValues } from '../../src/profile/profile.js'
import { ACCEPTED, exchangeOf, responseOf, type Sent } from '../support/hand-made.js'

/**
 * Each every-response rule judging responses made by hand, one edge at a time: a repeated header, a header of spaces, a
 * status at the edge of a range, a body that is no object. The rule tests of test/checks/each-check.test.ts show each
 * rule fails under its faults; these pin what each branch of a rule decides, where no fault of the reference reaches it
 * (npm run mutation judges the rules by both).
 */

/** What the rule decides about one response: 'not applied', 'holds', or the violation's message. */
function judged(id: string, response: ExchangeResponse, sent: Sent = {}, settings: JudgedSettings = {}): string {
  const rule = exchangeRules.find((r) => r.id === id)
  if (!rule) throw new Error(`no rule ${id}`)
  const exchange = exchangeOf(response, sent)
  if (!rule.applies(response, exchange, settings)) return 'not applied'
  const finding = rule.violation(response, exchange, settings)
  return finding === undefined ? 'holds' : findingMessage(finding)
}

const JSON_TYPE = { 'content-type': 'application/json' }
const REQUEST_ID = 'req-0123456789'

describe('every-response/json-content-type and success-json-content-type', () => {
  test.each([
    [400, {}, 'every-response/json-content-type', 'content-type is missing'],
    [
      400,
      { 'content-type': ['application/json', 'application/json'] },
      'every-response/json-content-type',
      'content-type is repeated: application/json | application/json',
    ],
    [400, { 'content-type': 'application/problem+json; charset=utf-8' }, 'every-response/json-content-type', 'holds'],
    [
      500,
      { 'content-type': 'text/plain' },
      'every-response/json-content-type',
      'content-type is text/plain, not application/json',
    ],
    // White space may come before a parameter's ";" (RFC 9110's OWS), and nothing but a parameter after the type.
    [400, { 'content-type': 'application/json ;charset=utf-8' }, 'every-response/json-content-type', 'holds'],
    [
      400,
      { 'content-type': 'application/json charset=utf-8' },
      'every-response/json-content-type',
      'content-type is application/json charset=utf-8, not application/json',
    ],
    [
      400,
      { 'content-type': 'application/jsonp' },
      'every-response/json-content-type',
      'content-type is application/jsonp, not application/json',
    ],
    [399, { 'content-type': 'text/plain' }, 'every-response/json-content-type', 'not applied'],
    [
      399,
      { 'content-type': 'text/plain' },
      'every-response/success-json-content-type',
      'content-type is text/plain, not application/json',
    ],
    [200, {}, 'every-response/success-json-content-type', 'content-type is missing'],
    [400, { 'content-type': 'text/plain' }, 'every-response/success-json-content-type', 'not applied'],
  ] as const)('a %i with %j: %s says %s', (status, headers, id, expected) => {
    expect(judged(id, responseOf(status, headers))).toBe(expected)
  })
})

describe('every-response/request-id-present and request-id-format', () => {
  test('a missing or empty x-request-id is missing; one value is present', () => {
    expect(judged('every-response/request-id-present', responseOf(200))).toBe('x-request-id is missing')
    expect(judged('every-response/request-id-present', responseOf(200, { 'x-request-id': '' }))).toBe(
      'x-request-id is missing',
    )
    expect(judged('every-response/request-id-present', responseOf(200, { 'x-request-id': REQUEST_ID }))).toBe('holds')
  })

  test('the format is judged only where the header is sent: one value of the pattern', () => {
    const rule = 'every-response/request-id-format'
    expect(judged(rule, responseOf(200))).toBe('not applied')
    expect(judged(rule, responseOf(200, { 'x-request-id': REQUEST_ID }))).toBe('holds')
    expect(judged(rule, responseOf(200, { 'x-request-id': [REQUEST_ID, REQUEST_ID] }))).toBe(
      `x-request-id is repeated: ${REQUEST_ID} | ${REQUEST_ID}`,
    )
    expect(judged(rule, responseOf(200, { 'x-request-id': 'short' }))).toBe(
      `x-request-id "short" does not match ${schemaPattern('RequestId').source}`,
    )
  })
})

describe('every-response/error-body', () => {
  test('an error body that is no JSON, or breaks ErrorBody, is named; a success is not judged', () => {
    const rule = 'every-response/error-body'
    expect(judged(rule, responseOf(400))).toBe('error body is empty')
    expect(judged(rule, responseOf(400, JSON_TYPE, { error: 'bad request' }))).toBe('holds')
    expect(judged(rule, responseOf(400, JSON_TYPE, {}))).toBe(
      "ErrorBody must have required property 'error' (required)",
    )
    expect(judged(rule, responseOf(400, JSON_TYPE, { error: 1, code: 2 }))).toBe(
      'ErrorBody/error must be string (type); ErrorBody/code must be string (type)',
    )
    expect(judged(rule, responseOf(200, JSON_TYPE, {}))).toBe('not applied')
  })
})

describe('every-response/retry-after', () => {
  test.each([
    [429, {}, '429 without a single Retry-After header'],
    [503, { 'retry-after': ['1', '2'] }, '503 without a single Retry-After header'],
    [429, { 'retry-after': ' 5 ' }, 'holds'],
    [503, { 'retry-after': '0' }, 'Retry-After "0" is not an integer of at least 1'],
    [500, {}, 'not applied'],
  ] as const)('a %i with %j says %s', (status, headers, expected) => {
    expect(judged('every-response/retry-after', responseOf(status, headers))).toBe(expected)
  })
})

describe('every-response/service-source', () => {
  test.each([
    [{}, 'not applied'],
    [{ 'x-service-source': 'live' }, 'holds'],
    [{ 'x-service-source': ['live', 'live'] }, 'x-service-source is repeated: live | live'],
    [{ 'x-service-source': 'cache' }, 'x-service-source "cache" is not indexed, automation or live'],
  ] as const)('%j says %s', (headers, expected) => {
    expect(judged('every-response/service-source', responseOf(200, headers))).toBe(expected)
  })
})

describe('every-response/declared-status', () => {
  test('a status the intent operation does not declare breaks it, for a request with Accept; an operation with a default is not judged', () => {
    const rule = 'every-response/declared-status'
    const intent = { operation: 'getIntentStatus' }
    expect(judged(rule, responseOf(422), intent)).toBe('holds')
    expect(judged(rule, responseOf(400), intent)).toBe(
      'status 400 is not declared by getIntentStatus (200, 401, 403, 404, 422, 429, 500, 502, 503, 504)',
    )
    expect(judged(rule, responseOf(400), { ...intent, headers: {} })).toBe('not applied')
    expect(judged(rule, responseOf(418), { operation: 'listMarkets' })).toBe('not applied')
    expect(judged(rule, responseOf(418), { operation: undefined })).toBe('not applied')
  })
})

describe('every-response/error-request-id-matches-header', () => {
  const rule = 'every-response/error-request-id-matches-header'
  test('an error body whose requestId is a string is held to the header', () => {
    expect(judged(rule, responseOf(400, { 'x-request-id': REQUEST_ID }, { error: 'x', requestId: REQUEST_ID }))).toBe(
      'holds',
    )
    expect(judged(rule, responseOf(400, { 'x-request-id': REQUEST_ID }, { error: 'x', requestId: 'other-0123' }))).toBe(
      `body requestId "other-0123" differs from x-request-id "${REQUEST_ID}"`,
    )
    expect(judged(rule, responseOf(400, {}, { error: 'x', requestId: 'other-0123' }))).toBe(
      'body requestId "other-0123" differs from no single x-request-id',
    )
  })

  test('a success, a body without a string requestId, or a body that is no object is not judged', () => {
    expect(judged(rule, responseOf(399, {}, { requestId: 'other-0123' }))).toBe('not applied')
    expect(judged(rule, responseOf(400, {}, { error: 'x', requestId: 7 }))).toBe('not applied')
    expect(judged(rule, responseOf(400, {}, null))).toBe('not applied')
    expect(judged(rule, responseOf(400, {}, ['requestId']))).toBe('not applied')
  })
})

describe('every-response/refusal-without-data', () => {
  const rule = 'every-response/refusal-without-data'
  test.each([
    [401, { error: 'x' }, 'holds'],
    [401, { error: 'x', data: null }, 'holds'],
    [401, { error: 'x', data: {} }, 'a 401 body carries data'],
    [403, { error: 'x', data: [] }, 'a 403 body carries data'],
    [404, { error: 'x', data: {} }, 'not applied'],
  ] as const)('a %i with %j says %s', (status, body, expected) => {
    expect(judged(rule, responseOf(status, JSON_TYPE, body))).toBe(expected)
  })
})

describe('the refusals that carry no payload', () => {
  test.each([
    ['every-response/refusal-carries-no-payload', 401, 'getConfig', 'holds'],
    ['every-response/refusal-carries-no-payload', 403, 'getVault', 'holds'],
    ['every-response/refusal-carries-no-payload', 404, 'getVault', 'not applied'],
    ['every-response/refusal-carries-no-payload', 401, undefined, 'not applied'],
    ['every-response/not-found-carries-no-payload', 404, 'listMarkets', 'holds'],
    ['every-response/not-found-carries-no-payload', 422, 'getTraderPnl', 'holds'],
    ['every-response/not-found-carries-no-payload', 404, 'getIntentStatus', 'not applied'],
    ['every-response/not-found-carries-no-payload', 400, 'listMarkets', 'not applied'],
    ['every-response/not-found-carries-no-payload', 404, undefined, 'not applied'],
    ['every-response/intent-refusal-carries-no-status', 404, 'getIntentStatus', 'holds'],
    ['every-response/intent-refusal-carries-no-status', 422, 'getIntentStatus', 'holds'],
    ['every-response/intent-refusal-carries-no-status', 401, 'getIntentStatus', 'not applied'],
    ['every-response/intent-refusal-carries-no-status', 404, 'listMarkets', 'not applied'],
  ] as const)('%s: a %i of %s without a payload: %s', (rule, status, operation, expected) => {
    expect(judged(rule, responseOf(status, JSON_TYPE, { error: 'refused' }), { operation })).toBe(expected)
  })
})

describe('every-response/rate-limit-scope', () => {
  test.each([
    [429, { 'x-ratelimit-scope': 'key' }, 'holds'],
    [429, { 'x-ratelimit-scope': ['key', 'ip'] }, 'x-ratelimit-scope is repeated: key | ip'],
    [429, { 'x-ratelimit-scope': ' ' }, 'a 429 without x-ratelimit-scope, which names the scope'],
    [429, {}, 'a 429 without x-ratelimit-scope, which names the scope'],
    [503, {}, 'not applied'],
  ] as const)('a %i with %j says %s', (status, headers, expected) => {
    expect(judged('every-response/rate-limit-scope', responseOf(status, headers))).toBe(expected)
  })
})

describe('every-response/receipt-not-disclosed', () => {
  const rule = 'every-response/receipt-not-disclosed'
  const intentUrl = (receipt: string) => `http://127.0.0.1:9/v1/intents/0xabc?receipt=${encodeURIComponent(receipt)}`
  const sent = (receipt: string): Sent => ({ operation: 'getIntentStatus', url: intentUrl(receipt) })

  test('applies to a request that sent a receipt', () => {
    expect(
      judged(rule, responseOf(200, {}, { echoed: 'receipt-0123456789' }), {
        operation: 'getIntentStatus',
        url: 'http://127.0.0.1:9/v1/intents/0xabc',
      }),
    ).toBe('not applied')
    expect(judged(rule, responseOf(200, {}, { state: 'pending' }), sent('receipt-0123456789'))).toBe('holds')
  })

  test('the receipt sent, or a receipt of the settings, repeated in the body or a header breaks it', () => {
    const repeats = 'the response repeats a receipt that was sent'
    expect(
      judged(rule, responseOf(404, {}, { error: 'receipt-0123456789 is wrong' }), sent('receipt-0123456789')),
    ).toBe(repeats)
    expect(judged(rule, responseOf(404, { 'x-echo': 'receipt-0123456789' }), sent('receipt-0123456789'))).toBe(repeats)
    expect(judged(rule, responseOf(404, { 'receipt-0123456789': 'x' }), sent('receipt-0123456789'))).toBe(repeats)
    const settings = {
      intent: { hash: '0xabc', receipt: 'first-receipt-0001' },
      secondIntent: { hash: '0xdef', receipt: 'second-receipt-0002' },
    }
    expect(judged(rule, responseOf(200, {}, { note: 'first-receipt-0001' }), sent('other-receipt'), settings)).toBe(
      repeats,
    )
    expect(judged(rule, responseOf(200, {}, { note: 'second-receipt-0002' }), sent('other-receipt'), settings)).toBe(
      repeats,
    )
  })

  test('a receipt of 8 characters is looked for, one shorter is not (it would be found by chance)', () => {
    expect(judged(rule, responseOf(200, {}, { note: 'rcpt0008' }), sent('rcpt0008'))).toBe(
      'the response repeats a receipt that was sent',
    )
    expect(judged(rule, responseOf(200, {}, { note: 'rcpt007' }), sent('rcpt007'))).toBe('holds')
  })
})

describe('the profile rules', () => {
  const values: ProfileValues = {
    intentStates: ['pending', 'filled'],
    marketStatuses: ['open'],
    errorCodes: ['bad_request'],
    serviceSource: { getVault: 'indexed' },
    quota: { limit: 40, scope: 'key' },
  }
  const settings: JudgedSettings = { profile: { source: 'a profile made for the test', values } }
  const judgedBy = (id: string, response: ExchangeResponse, sent: Sent = {}, given = settings) =>
    judged(id, response, sent, given)

  test('every-response/intent-state-listed judges the state of a 200 of the intent operation', () => {
    const rule = 'every-response/intent-state-listed'
    const intent = { operation: 'getIntentStatus' }
    expect(judgedBy(rule, responseOf(200, {}, { state: 'pending' }), intent)).toBe('holds')
    expect(judgedBy(rule, responseOf(200, {}, { state: 'halted' }), intent)).toBe(
      'intent state "halted" is not listed (the profile lists "pending", "filled")',
    )
    expect(judgedBy(rule, responseOf(404, {}, { state: 'halted' }), intent)).toBe('not applied')
    expect(judgedBy(rule, responseOf(200, {}, { state: 'halted' }), { operation: 'getVault' })).toBe('not applied')
    expect(judgedBy(rule, responseOf(200, {}, { state: 3 }), intent)).toBe('not applied')
  })

  test('every-response/market-status-listed judges each market of a 200 of the markets list, each value once', () => {
    const rule = 'every-response/market-status-listed'
    const markets = { operation: 'listMarkets' }
    expect(judgedBy(rule, responseOf(200, {}, { data: [{ status: 'open' }, null, { status: 2 }] }), markets)).toBe(
      'holds',
    )
    expect(
      judgedBy(
        rule,
        responseOf(200, {}, { data: [{ status: 'odd' }, { status: 'open' }, { status: 'odd' }] }),
        markets,
      ),
    ).toBe('market status "odd" is not listed (the profile lists "open")')
    expect(judgedBy(rule, responseOf(200, {}, { data: [{ status: 'odd' }, { status: 'weird' }] }), markets)).toBe(
      'market status "odd", "weird" is not listed (the profile lists "open")',
    )
    expect(judgedBy(rule, responseOf(200, {}, { data: { status: 'odd' } }), markets)).toBe('not applied')
    expect(
      judgedBy(rule, responseOf(200, {}, { data: [{ status: 'odd' }] }), { operation: 'listTraderBalances' }),
    ).toBe('not applied')
  })

  test('every-response/error-code-listed judges the code of every 4xx and 5xx', () => {
    const rule = 'every-response/error-code-listed'
    expect(judgedBy(rule, responseOf(400, {}, { error: 'x', code: 'bad_request' }))).toBe('holds')
    expect(judgedBy(rule, responseOf(400, {}, { error: 'x', code: 'oops' }))).toBe(
      'error code "oops" is not listed (the profile lists "bad_request")',
    )
    expect(judgedBy(rule, responseOf(503, {}, { error: 'x', code: 'oops' }))).toBe(
      'error code "oops" is not listed (the profile lists "bad_request")',
    )
    expect(judgedBy(rule, responseOf(399, {}, { code: 'oops' }))).toBe('not applied')
    expect(judgedBy(rule, responseOf(400, {}, ['code']))).toBe('not applied')
  })

  test('every-response/service-source-mapped holds each mapped operation to its value', () => {
    const rule = 'every-response/service-source-mapped'
    const vault = { operation: 'getVault' }
    expect(judgedBy(rule, responseOf(200, { 'x-service-source': 'indexed' }), vault)).toBe('holds')
    expect(judgedBy(rule, responseOf(200, { 'x-service-source': 'live' }), vault)).toBe(
      'getVault sent x-service-source "live"; the profile gives "indexed"',
    )
    expect(judgedBy(rule, responseOf(200, { 'x-service-source': ['indexed', 'live'] }), vault)).toBe(
      'getVault sent x-service-source "indexed | live"; the profile gives "indexed"',
    )
    expect(judgedBy(rule, responseOf(200, { 'x-service-source': 'Indexed' }), vault), 'another letter case').toBe(
      'getVault sent x-service-source "Indexed"; the profile gives "indexed"',
    )
    expect(judgedBy(rule, responseOf(200, {}), vault)).toBe('not applied')
    expect(judgedBy(rule, responseOf(200, { 'x-service-source': 'live' }), { operation: 'listMarkets' })).toBe(
      'not applied',
    )
  })

  test("every-response/quota-values holds a 429's headers to the profile's limit and scope", () => {
    const rule = 'every-response/quota-values'
    expect(judgedBy(rule, responseOf(429, { 'x-ratelimit-limit': ' 40 ', 'x-ratelimit-scope': ' key ' }))).toBe('holds')
    expect(judgedBy(rule, responseOf(429, { 'x-ratelimit-limit': '41', 'x-ratelimit-scope': 'key' }))).toBe(
      'the 429 has x-ratelimit-limit "41"; the profile gives 40',
    )
    expect(judgedBy(rule, responseOf(429, { 'x-ratelimit-limit': '40', 'x-ratelimit-scope': 'ip' }))).toBe(
      'the 429 has x-ratelimit-scope "ip"; the profile gives "key"',
    )
    expect(judgedBy(rule, responseOf(429, { 'x-ratelimit-limit': ['40', '40'] }))).toBe(
      'the 429 has x-ratelimit-limit "40 | 40"; the profile gives 40',
    )
    expect(judgedBy(rule, responseOf(503, {}))).toBe('not applied')
    for (const status of [428, 430, 503])
      expect(judgedBy(rule, responseOf(status, { 'x-ratelimit-limit': '41' })), `status ${status}`).toBe('not applied')
    expect(
      judgedBy(rule, responseOf(200, { 'x-ratelimit-limit': '41', 'x-ratelimit-scope': 'ip' })),
      'the contract names these values for the 429 of an exceeded quota; a success that sends them is not judged',
    ).toBe('not applied')
  })

  test('every-response/quota-values judges an optional quota header only when it is sent ("error responses can also include" them)', () => {
    const rule = 'every-response/quota-values'
    expect(judgedBy(rule, responseOf(429, { 'x-ratelimit-scope': 'key' }))).toBe('holds')
    expect(judgedBy(rule, responseOf(429, { 'x-ratelimit-limit': '40' }))).toBe('holds')
    expect(judgedBy(rule, responseOf(429, { 'x-ratelimit-scope': 'ip' }))).toBe(
      'the 429 has x-ratelimit-scope "ip"; the profile gives "key"',
    )
    expect(judgedBy(rule, responseOf(429, { 'x-ratelimit-limit': '41' }))).toBe(
      'the 429 has x-ratelimit-limit "41"; the profile gives 40',
    )
    expect(judgedBy(rule, responseOf(429, {}))).toBe('not applied')
    const scopeOnly = { profile: { source: 'a profile made for the test', values: { quota: { scope: 'key' } } } }
    expect(judgedBy(rule, responseOf(429, { 'x-ratelimit-scope': 'key' }), {}, scopeOnly)).toBe('holds')
    expect(
      judgedBy(rule, responseOf(429, { 'x-ratelimit-limit': '40', 'x-ratelimit-scope': 'key' }), {}, scopeOnly),
      'a limit the profile does not state',
    ).toBe('holds')
    const limitOnly = { profile: { source: 'a profile made for the test', values: { quota: { limit: 40 } } } }
    expect(judgedBy(rule, responseOf(429, { 'x-ratelimit-limit': '40' }), {}, limitOnly)).toBe('holds')
    expect(
      judgedBy(rule, responseOf(429, { 'x-ratelimit-limit': '40', 'x-ratelimit-scope': 'ip' }), {}, limitOnly),
      'a scope the profile does not state',
    ).toBe('holds')
  })
})

describe('every-response/accepted-write-carries-key', () => {
  const rule = 'every-response/accepted-write-carries-key'
  const submitIntent = {
    kind: 'intent',
    method: 'POST',
    path: '/v1/intents',
    statusIdentifier: '/data/hash',
    bodies: { files: ['a.json'] },
  }
  const profiled = (keyPattern?: string): JudgedSettings => ({
    profile: {
      source: 'a profile made for the test',
      values: {
        writes: { ...(keyPattern !== undefined && { keyPattern }), operations: { submitIntent } },
      } as unknown as ProfileValues,
    },
  })
  const write = (key: string | undefined, url = 'http://127.0.0.1:9/v1/intents', method = 'POST'): Sent => ({
    operation: undefined,
    method,
    url,
    headers: key === undefined ? ACCEPTED : { ...ACCEPTED, 'idempotency-key': key },
  })
  const accepted = (key: string | undefined, status = 201, settings = profiled()) =>
    judged(rule, responseOf(status, JSON_TYPE, { data: {} }), write(key), settings)

  test('a key of 8 to 128 characters holds; 7, 129 and none break it', () => {
    expect(accepted('k'.repeat(8))).toBe('holds')
    expect(accepted('k'.repeat(128))).toBe('holds')
    expect(accepted('k'.repeat(7))).toBe(
      'a write of submitIntent sent with an Idempotency-Key of 7 characters, outside 8 to 128 was accepted (201)',
    )
    expect(accepted('k'.repeat(129))).toBe(
      'a write of submitIntent sent with an Idempotency-Key of 129 characters, outside 8 to 128 was accepted (201)',
    )
    expect(accepted(undefined)).toBe('a write of submitIntent sent without Idempotency-Key was accepted (201)')
  })

  test('a control character, DEL or a character no reading calls safe breaks it; letters, digits and hyphens hold', () => {
    expect(accepted('key-0123-abcd')).toBe('holds')
    expect(accepted('key-0123\x1fabcd')).toBe(
      'a write of submitIntent sent with an Idempotency-Key holding "\\u001f", which no reading calls safe was accepted (201)',
    )
    expect(accepted('key-0123\x7fabcd')).toBe(
      'a write of submitIntent sent with an Idempotency-Key holding "\x7f", which no reading calls safe was accepted (201)',
    )
    expect(accepted('key-0123 abcd')).toBe(
      'a write of submitIntent sent with an Idempotency-Key holding " ", which no reading calls safe was accepted (201)',
    )
    expect(accepted('key-0123~abcd')).toBe('holds')
  })

  test("a profile's keyPattern decides what is safe instead", () => {
    expect(accepted('abcdefgh', 201, profiled('^[a-z]+$'))).toBe('holds')
    expect(accepted('abcdefg1', 201, profiled('^[a-z]+$'))).toBe(
      "a write of submitIntent sent with an Idempotency-Key that the profile's writes.keyPattern refuses was accepted (201)",
    )
    expect(accepted('abc{defg}', 201, profiled('^[^x]+$')), 'the pattern takes braces').toBe('holds')
  })

  test('applies to a 2xx of a write the profile states, and to nothing without a profile', () => {
    expect(accepted('k'.repeat(7), 200)).not.toBe('not applied')
    expect(accepted('k'.repeat(7), 299)).not.toBe('not applied')
    expect(accepted('k'.repeat(7), 199)).toBe('not applied')
    expect(accepted('k'.repeat(7), 300)).toBe('not applied')
    expect(accepted('k'.repeat(7), 400)).toBe('not applied')
    expect(
      judged(
        rule,
        responseOf(201, JSON_TYPE, { data: {} }),
        write('k'.repeat(7), 'http://127.0.0.1:9/v1/intents', 'GET'),
        profiled(),
      ),
    ).toBe('not applied')
    expect(
      judged(
        rule,
        responseOf(201, JSON_TYPE, { data: {} }),
        write('k'.repeat(7), 'http://127.0.0.1:9/v1/orders'),
        profiled(),
      ),
    ).toBe('not applied')
    expect(judged(rule, responseOf(201, JSON_TYPE, { data: {} }), write('k'.repeat(7)), {})).toBe('not applied')
  })
})
