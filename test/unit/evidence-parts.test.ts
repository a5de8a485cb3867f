import { describe, expect, test } from 'vitest'
import type { SchemaViolation } from '../../src/contract/schemas.js'
import { buildEvidence, curlCommand, exchangeEvidence, sampleOf } from '../../src/engine/evidence.js'
import type { Exchange } from '../../src/http/exchange.js'
import { standIn } from '../../src/http/listed-material.js'
import type { Secret } from '../../src/http/secrets.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'

/**
 * What a finding's evidence holds (src/engine/evidence.ts): the request, the response shared by allowlist but for what
 * the finding is about, the transport error and retries, at most ten schema violations with short values, the
 * counterexample and its replay, where the response came from, and a curl command with secrets as shell variables.
 */

const KEY: Secret = { value: 'ipts_full_0a1b2c3d4e5f60718293a4b5c6d7e8f9', placeholder: '$IPTS_API_KEY' }
const RECEIPT: Secret = { value: 'receipt-one-0123456789abcdef', placeholder: '$IPTS_WRITE_RECEIPT_1' }

/** A 404 of getIntentStatus whose error body has an unknown member `member` holding `value`. */
function notFoundWith(member: string, value: string, headers: Record<string, string> = {}): Exchange {
  return exchangeOf(responseOf(404, headers, { error: 'no such intent', code: 'not_found', [member]: value }), {
    operation: 'getIntentStatus',
    url: 'http://127.0.0.1:9/v1/intents/0xab',
  })
}

/** A schema violation of the error body at `instancePath`, with the params and value given. */
function violationAt(instancePath: string, params: Record<string, unknown> = {}, value?: unknown): SchemaViolation {
  return {
    schema: 'ErrorBody',
    keyword: 'additionalProperties',
    instancePath,
    schemaPath: '#/additionalProperties',
    params,
    message: 'must NOT have additional properties',
    ...(value === undefined ? {} : { value }),
  }
}

describe('exchangeEvidence', () => {
  test('the request line and headers, and the response with its unlisted headers as stand-ins unless raw', () => {
    const exchange = exchangeOf(responseOf(200, { 'content-type': 'application/json', 'x-debug': 'trace-7' }, []))
    const shared = exchangeEvidence(exchange, [])
    expect(shared.request).toEqual({
      method: 'GET',
      url: 'http://127.0.0.1:9/v1/markets',
      headers: { accept: 'application/json' },
    })
    expect(shared.response).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json', 'x-debug': standIn('header', 'trace-7') },
      bodyExcerpt: '[]',
      bodyBytes: 2,
      truncated: false,
    })
    expect(exchangeEvidence(exchange, [], true).response?.headers).toEqual({
      'content-type': 'application/json',
      'x-debug': 'trace-7',
    })
    expect(shared, 'no transport error, no retries').not.toHaveProperty('transportError')
    expect(shared).not.toHaveProperty('retries')
  })

  test('the bytes of the whole body, and an excerpt of its first 2000 characters', () => {
    const body = 'é'.repeat(2001)
    const exchange = exchangeOf({ status: 200, headers: {}, body, truncated: false })
    const { response } = exchangeEvidence(exchange, [])
    expect(response?.bodyBytes).toBe(4002)
    expect(response?.bodyExcerpt).toBe('é'.repeat(2000))
  })

  test('a transport error as it was, and each retried attempt as its status and wait', () => {
    const exchange: Exchange = {
      ...exchangeOf(undefined),
      error: { code: 'ECONNRESET', message: 'socket hang up' },
      retries: [
        { status: 503, waitedMs: 100, durationMs: 4, startedAt: '2026-11-26T20:00:00.000Z' },
        { status: 429, waitedMs: 1000 },
      ],
    }
    const evidence = exchangeEvidence(exchange, [])
    expect(evidence.transportError).toEqual({ code: 'ECONNRESET', message: 'socket hang up' })
    expect(evidence.retries).toEqual([
      { status: 503, waitedMs: 100 },
      { status: 429, waitedMs: 1000 },
    ])
    expect(evidence, 'no response arrived').not.toHaveProperty('response')
  })
})

describe('sampleOf', () => {
  test('the round, when the request was sent, and its connection where the client could tell', () => {
    const sent = { ...exchangeOf(undefined), startedAt: '2026-11-26T20:00:00.000Z' }
    expect(sampleOf(sent, 3)).toEqual({ round: 3, at: '2026-11-26T20:00:00.000Z' })
    expect(sampleOf({ ...sent, connection: { number: 2 } }, 0)).toEqual({
      round: 0,
      at: '2026-11-26T20:00:00.000Z',
      connection: { number: 2 },
    })
  })

  test('none for a request never sent', () => {
    expect(sampleOf(exchangeOf(undefined), 1)).toBeUndefined()
  })
})

describe('buildEvidence', () => {
  test('a finding without an exchange: its message and nothing of a request', () => {
    expect(buildEvidence('the catalogue is empty', {}, [])).toEqual({ message: 'the catalogue is empty' })
  })

  test("a finding on an exchange sent: the request, the response and the sample of the checks' round", () => {
    const exchange = { ...exchangeOf(responseOf(200, {}, [])), startedAt: '2026-11-26T20:00:00.000Z' }
    const evidence = buildEvidence('bad', { exchange }, [])
    expect(evidence.sample).toEqual({ round: 0, at: '2026-11-26T20:00:00.000Z' })
    expect(evidence.request?.url).toBe('http://127.0.0.1:9/v1/markets')
    expect(evidence.reproduce).toBe('curl -sS -i -H "accept: application/json" "http://127.0.0.1:9/v1/markets"')
    expect(buildEvidence('bad', { exchange: exchangeOf(undefined) }, []), 'never sent').not.toHaveProperty('sample')
  })

  test('an unlisted header the message names keeps its value, whatever the case; another is a stand-in', () => {
    const exchange = exchangeOf(responseOf(200, { 'X-Debug-Token': 'abc', 'x-other': 'def' }, []))
    const evidence = buildEvidence('the x-debug-token header leaks', { exchange }, [])
    expect(evidence.response?.headers).toEqual({ 'X-Debug-Token': 'abc', 'x-other': standIn('header', 'def') })
  })

  test('an unknown member a violation names keeps its value, its name escaped as a JSON pointer', () => {
    const exchange = notFoundWith('a/b~c', 'kept value')
    const about = buildEvidence(
      'extra member',
      { exchange, violations: [violationAt('', { additionalProperty: 'a/b~c' })] },
      [],
    )
    expect(about.response?.bodyExcerpt).toContain('"a/b~c":"kept value"')
    const elsewhere = buildEvidence(
      'extra member',
      { exchange, violations: [violationAt('', { missingProperty: 'x' })] },
      [],
    )
    expect(elsewhere.response?.bodyExcerpt).toContain(`"a/b~c":${JSON.stringify(standIn('member', '"kept value"'))}`)
    const none = buildEvidence('extra member', { exchange }, [])
    expect(none.response?.bodyExcerpt).toContain(`"a/b~c":${JSON.stringify(standIn('member', '"kept value"'))}`)
  })

  test('an unknown member a violation points at itself keeps its value', () => {
    const exchange = notFoundWith('debug', 'kept value')
    const evidence = buildEvidence('bad debug', { exchange, violations: [violationAt('/debug')] }, [])
    expect(evidence.response?.bodyExcerpt).toContain('"debug":"kept value"')
  })

  test('at most ten schema violations, each value as it is up to 500 characters of JSON, else its start', () => {
    const violations = [
      violationAt('/short', {}, { n: 1 }),
      violationAt('/at-the-bound', {}, 'x'.repeat(498)),
      violationAt('/over-the-bound', {}, 'y'.repeat(499)),
      ...Array.from({ length: 9 }, (_, index) => violationAt(`/more/${index}`)),
    ]
    const shown = buildEvidence('bad', { violations }, []).schemaViolations!
    expect(shown.map((v) => v.instancePath)).toEqual([
      '/short',
      '/at-the-bound',
      '/over-the-bound',
      ...Array.from({ length: 7 }, (_, index) => `/more/${index}`),
    ])
    expect(shown[0]).toEqual(violations[0])
    expect(shown[1]!.value, '500 characters of JSON').toBe('x'.repeat(498))
    expect(shown[2]!.value).toBe(`"${'y'.repeat(499)}… (501 characters of JSON)`)
    expect(shown[3]!.value, 'no value').toBeUndefined()
  })

  test('a value nested too deeply to serialise is described; a secret in a value is its placeholder', () => {
    const circular: Record<string, unknown> = {}
    circular.self = circular
    const shown = buildEvidence(
      'bad',
      { violations: [violationAt('/a', {}, circular), violationAt('/b', {}, KEY.value)] },
      [KEY],
    ).schemaViolations!
    expect(shown.map((v) => v.value)).toEqual(['[a value nested too deeply to show]', '$IPTS_API_KEY'])
  })

  test('no violations: no list of them', () => {
    expect(buildEvidence('bad', { violations: [] }, [])).toEqual({ message: 'bad' })
  })

  test('the counterexample, with the replay command when there is one', () => {
    const counterexample = { seed: 7, path: '0:1', value: ['0x'], runs: 25 }
    expect(buildEvidence('bad', { counterexample }, [], 'npx ipts-conformance --seed 7').counterexample).toEqual({
      ...counterexample,
      replay: 'npx ipts-conformance --seed 7',
    })
    expect(buildEvidence('bad', { counterexample }, []).counterexample).toEqual(counterexample)
    expect(buildEvidence('bad', {}, [], 'npx ipts-conformance')).not.toHaveProperty('counterexample')
  })
})

describe('curlCommand', () => {
  const sentWith = (url: string, headers: Record<string, string> = {}) => exchangeOf(undefined, { url, headers })

  test('a request without headers or query: curl, quiet but for errors, showing the response head', () => {
    expect(curlCommand(sentWith('http://127.0.0.1:9/v1/markets'), [])).toBe(
      'curl -sS -i "http://127.0.0.1:9/v1/markets"',
    )
  })

  test('Accept-Encoding, in any case, becomes --compressed before the other headers', () => {
    const exchange = sentWith('http://h/v1/markets', { accept: 'application/json', 'Accept-Encoding': 'gzip, br' })
    expect(curlCommand(exchange, [])).toBe(
      'curl -sS -i --compressed -H "accept: application/json" "http://h/v1/markets"',
    )
  })

  test('quotes, backslashes, backticks and dollars are escaped for the shell', () => {
    const exchange = sentWith('http://h/v1/markets', { 'x-note': 'say "hi" \\ `date` $HOME' })
    expect(curlCommand(exchange, [])).toBe(
      'curl -sS -i -H "x-note: say \\"hi\\" \\\\ \\`date\\` \\$HOME" "http://h/v1/markets"',
    )
  })

  test('each secret as its shell variable, braced, a numbered one as well', () => {
    const exchange = sentWith('http://h/v1/intents/0xab', { 'x-api-key': KEY.value, 'x-receipt': RECEIPT.value })
    expect(curlCommand(exchange, [KEY, RECEIPT])).toBe(
      'curl -sS -i -H "x-api-key: ${IPTS_API_KEY}" -H "x-receipt: ${IPTS_WRITE_RECEIPT_1}" "http://h/v1/intents/0xab"',
    )
  })

  test('a placeholder that is not a whole variable name stays text, its dollar escaped', () => {
    const nearMiss = { value: 'IPTS_FULL_0A1B2C3D4E5F60718293A4B5C6D7E8F9', placeholder: '$IPTS_API_KEY~case' }
    const prefixed = { value: 'another-secret-value-0123', placeholder: 'near$IPTS_NEAR' }
    const exchange = sentWith('http://h/v1/markets', { 'x-a': nearMiss.value, 'x-b': prefixed.value })
    expect(curlCommand(exchange, [nearMiss, prefixed])).toBe(
      'curl -sS -i -H "x-a: \\$IPTS_API_KEY~case" -H "x-b: near\\$IPTS_NEAR" "http://h/v1/markets"',
    )
  })

  test('query parameters without a secret stay in the URL, in order; those holding one go through -G', () => {
    const url = `http://h/v1/intents/0xab?limit=5&receipt=${RECEIPT.value}&cursor=a%20b&&`
    expect(curlCommand(sentWith(url), [RECEIPT])).toBe(
      'curl -sS -i -G --data-urlencode "receipt=${IPTS_WRITE_RECEIPT_1}" "http://h/v1/intents/0xab?limit=5&cursor=a%20b"',
    )
  })

  test('a secret only percent-encoded in the query is found by its decoded value', () => {
    const encoded = RECEIPT.value.replace(/-/g, '%2D')
    expect(curlCommand(sentWith(`http://h/v1/intents/0xab?receipt=${encoded}`), [RECEIPT])).toBe(
      'curl -sS -i -G --data-urlencode "receipt=${IPTS_WRITE_RECEIPT_1}" "http://h/v1/intents/0xab"',
    )
  })

  test('a query of only secrets leaves the address without a question mark; the rest of a query after a ? is kept', () => {
    expect(curlCommand(sentWith(`http://h/v1/x?r=${RECEIPT.value}`), [RECEIPT])).toBe(
      'curl -sS -i -G --data-urlencode "r=${IPTS_WRITE_RECEIPT_1}" "http://h/v1/x"',
    )
    expect(curlCommand(sentWith('http://h/v1/x?a=1?b=2'), [])).toBe('curl -sS -i "http://h/v1/x?a=1?b=2"')
  })
})
