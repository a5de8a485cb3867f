import { readdirSync, readFileSync, mkdtempSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { main } from '../../src/cli/main.js'
import { RAW_RECORD_WARNING } from '../../src/cli/options.js'
import { buildEvidence } from '../../src/engine/evidence.js'
import { harEntries } from '../../src/har/from-exchange.js'
import type { Exchange } from '../../src/http/exchange.js'
import { aboutStandIn, holdsStandIn, listedBody, listedHeaders, standIn } from '../../src/http/listed-material.js'
import { captureOutput } from '../support/output.js'

/**
 * What the run shares keeps response material by allowlist: listed headers and the members the schemas name as they
 * are, anything else as its length and a short hash, unless --raw-record.
 */

const KEY = 'ipts_full_0a1b2c3d4e5f60718293a4b5c6d7e8f9'
/** An encoding of the key that no decoder of redaction knows: ROT13 for letters, ROT5 for digits (ROT18). */
const rot13 = (text: string) =>
  text.replace(/[a-z0-9]/gi, (c) =>
    /[0-9]/.test(c)
      ? String((Number(c) + 5) % 10)
      : String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c < 'a' ? 65 : 97)),
  )

afterEach(() => {
  vi.restoreAllMocks()
})

describe('listed headers', () => {
  test('a header the contract or HTTP defines is kept; any other value becomes its length and hash', () => {
    const headers = listedHeaders({
      'content-type': 'application/json',
      'X-Request-ID': 'req-00000001',
      'x-debug-token': rot13(KEY),
      'set-cookie': ['a=1', 'b=2'],
    })
    expect(headers).toEqual({
      'content-type': 'application/json',
      'X-Request-ID': 'req-00000001',
      'x-debug-token': standIn('header', rot13(KEY)),
      'set-cookie': [standIn('header', 'a=1'), standIn('header', 'b=2')],
    })
    expect(standIn('header', 'abc')).toMatch(/^«unlisted header: 3 bytes, sha256:ba7816bf»$/)
  })

  test('a header a finding is about keeps its value', () => {
    expect(listedHeaders({ 'x-debug-token': 'v' }, { headers: ['x-debug-token'] })).toEqual({ 'x-debug-token': 'v' })
  })
})

describe('listed body members', () => {
  test("an error body keeps the members the schema names; an additional member's value is replaced, the rest of the text as it was", () => {
    const body = '{"error": "no such intent", "code":"not_found", "debug": {"token": "x"}, "n": 12345678901234567890}'
    expect(listedBody(body, 'getIntentStatus', 404)).toBe(
      `{"error": "no such intent", "code":"not_found", "debug": ${JSON.stringify(standIn('member', '{"token": "x"}'))}, "n": ${JSON.stringify(standIn('member', '12345678901234567890'))}}`,
    )
  })

  test('a success body keeps its members at every depth, through arrays and references, and replaces unknown ones', () => {
    const body = JSON.stringify({ data: [{ id: '1', secretNote: 'zz' }], cursor: null })
    const listed = JSON.parse(listedBody(body, 'listMarkets', 200)) as {
      data: Record<string, unknown>[]
      cursor: unknown
    }
    expect(listed.data[0]!.id).toBe('1')
    expect(listed.data[0]!.secretNote).toBe(standIn('member', '"zz"'))
    expect(listed.cursor).toBeNull()
  })

  test('a member a finding points at keeps its value', () => {
    expect(listedBody('{"error":"e","debug":"d"}', undefined, 500, { pointers: ['/debug'] })).toBe(
      '{"error":"e","debug":"d"}',
    )
  })

  test('a body that is not JSON is kept; an unknown member cut off by the end of the text is replaced to the end', () => {
    expect(listedBody('<html>oops</html>', 'getVault', 502)).toBe('<html>oops</html>')
    expect(listedBody('{"error":"e","debug":"abcdef', 'getVault', 500)).toBe(
      `{"error":"e","debug":${JSON.stringify(standIn('member', '"abcdef'))}`,
    )
  })
})

describe('listed body members at their edges', () => {
  const member = (text: string) => JSON.stringify(standIn('member', text))
  const body = '{"data":[{"id":"1","x":2}],"error":"e"}'

  test.each([200, 299])("a %i is read by the operation's success schema", (status) => {
    expect(listedBody(body, 'listMarkets', status)).toBe(
      `{"data":[{"id":"1","x":${member('2')}}],"error":${member('"e"')}}`,
    )
  })

  test.each([199, 300, 404, 503])('a %i is read by the error schema', (status) => {
    expect(listedBody(body, 'listMarkets', status)).toBe(`{"data":${member('[{"id":"1","x":2}]')},"error":"e"}`)
  })

  test('a 2xx outside the operations names no member', () => {
    expect(listedBody('{"data":1,"error":"e"}', undefined, 200)).toBe(
      `{"data":${member('1')},"error":${member('"e"')}}`,
    )
  })

  test('keeps the text as it was around a replaced value: spacing, line breaks, escapes, brackets in strings', () => {
    const spaced = '{ \n\t"error" : "a\\"}{" ,\r\n "x" : [1, {"y": "]"}] , "code":"c" }'
    expect(listedBody(spaced, 'getVault', 500)).toBe(
      `{ \n\t"error" : "a\\"}{" ,\r\n "x" : ${member('[1, {"y": "]"}]')} , "code":"c" }`,
    )
    expect(listedBody('  {"error":"e","x":{},"y":[]}', 'getVault', 500)).toBe(
      `  {"error":"e","x":${member('{}')},"y":${member('[]')}}`,
    )
    expect(listedBody('{"error":"e","n":-1.5e3,"t":true,"z":null}', 'getVault', 500)).toBe(
      `{"error":"e","n":${member('-1.5e3')},"t":${member('true')},"z":${member('null')}}`,
    )
  })

  test('a member a finding points at is found by its escaped pointer, at any depth', () => {
    const text = '{"error":"e","a/b~c":1,"debug":{"keep":"k","drop":"d"}}'
    expect(listedBody(text, 'getVault', 500, { pointers: ['/a~1b~0c', '/debug', '/debug/keep'] })).toBe(
      `{"error":"e","a/b~c":1,"debug":{"keep":"k","drop":${member('"d"')}}}`,
    )
    expect(listedBody(text, 'getVault', 500, { pointers: ['/a/b~c'] })).toBe(
      `{"error":"e","a/b~c":${member('1')},"debug":${member('{"keep":"k","drop":"d"}')}}`,
    )
  })

  test('text that stops being JSON is kept from there; a body that is no object or array is kept whole', () => {
    expect(listedBody('{"error":"e","x":1 oops}', 'getVault', 500)).toBe(`{"error":"e","x":${member('1')} oops}`)
    expect(listedBody('{"error":"e",x:1}', 'getVault', 500)).toBe('{"error":"e",x:1}')
    expect(listedBody('"just a string"', 'getVault', 500)).toBe('"just a string"')
    expect(listedBody(' [{"error":"e"}]', 'getVault', 500), 'an array: no schema names its members').toBe(
      ` [{"error":${member('"e"')}}]`,
    )
  })

  test('a member a finding points at in a list is found by its index', () => {
    const list = '{"data":[{"id":"1","x":2},{"id":"2","x":3}]}'
    expect(listedBody(list, 'listMarkets', 200, { pointers: ['/data/1/x'] })).toBe(
      `{"data":[{"id":"1","x":${member('2')}},{"id":"2","x":3}]}`,
    )
  })

  test('where a separator or a value is missing the body stops being JSON: an unknown member open there goes to the end', () => {
    expect(listedBody('{"error":"e";"x":1}', 'getVault', 500), 'no comma between members').toBe('{"error":"e";"x":1}')
    expect(listedBody('{"data":[{"id":"1"};{"id":"2","x":3}]}', 'listMarkets', 200), 'no comma between items').toBe(
      '{"data":[{"id":"1"};{"id":"2","x":3}]}',
    )
    expect(listedBody('{"error":"e","x":,"code":"c"}', 'getVault', 500), 'no value').toBe(
      `{"error":"e","x":${member(',"code":"c"}')}`,
    )
    expect(listedBody('{"error":"e","n":12', 'getVault', 500), 'a number cut off by the end').toBe(
      `{"error":"e","n":${member('12')}`,
    )
  })

  test("a stand-in's size is the value's UTF-8 bytes, and its hash tells values apart", () => {
    expect(standIn('member', 'é')).toMatch(/^«unlisted member: 2 bytes, sha256:[0-9a-f]{8}»$/)
    expect(standIn('member', 'a')).not.toBe(standIn('member', 'b'))
    expect(holdsStandIn(`x ${standIn('header', 'v')} y`)).toBe(true)
    expect(holdsStandIn(standIn('header', 'v').replace('header', 'cookie'))).toBe(false)
  })

  test("a finding without violations is about a stand-in by its message, whatever the header's case", () => {
    const headers = { 'X-Session': standIn('header', 'v') }
    expect(aboutStandIn({ message: 'x-session is repeated', violations: [] }, headers)).toBe(true)
    expect(aboutStandIn({ message: 'X-SESSION is repeated' }, headers)).toBe(true)
    expect(aboutStandIn({ message: 'x-other is repeated' }, headers)).toBe(false)
  })

  test("a header a finding is about is kept in any case; the others' values each become a stand-in", () => {
    expect(listedHeaders({ 'X-Debug': ['a', 'b'], 'x-trace': 't' }, { headers: ['x-debug'] })).toEqual({
      'X-Debug': ['a', 'b'],
      'x-trace': standIn('header', 't'),
    })
  })
})

function exchangeWith(headers: Record<string, string>, body: string): Exchange {
  return {
    operation: 'getVault',
    request: { method: 'GET', url: 'http://127.0.0.1:1/v1/vault', headers: { 'x-api-key': KEY } },
    response: { status: 500, headers, body, truncated: false },
    durationMs: 1,
    retries: [],
  } as unknown as Exchange
}

describe('a secret in an encoding no decoder knows', () => {
  const exchange = exchangeWith(
    { 'content-type': 'application/json', 'x-debug-token': rot13(KEY) },
    JSON.stringify({ error: 'e', trace: rot13(KEY) }),
  )
  const secrets = [{ value: KEY, placeholder: '$IPTS_API_KEY' }]

  test('reaches neither the evidence nor the HAR, unless raw', () => {
    const shared = JSON.stringify([buildEvidence('failed', { exchange }, secrets), harEntries(exchange, [], secrets)])
    expect(shared).not.toContain(rot13(KEY))
    expect(shared).toContain('«unlisted header: ')
    const raw = JSON.stringify([
      buildEvidence('failed', { exchange }, secrets, undefined, true),
      harEntries(exchange, [], secrets, true),
    ])
    expect(raw).toContain(rot13(KEY))
  })

  test('the evidence of a finding about the header keeps it, redacted by detection', () => {
    const evidence = buildEvidence('x-debug-token is repeated', { exchange }, secrets)
    expect(evidence.response?.headers['x-debug-token']).toBe(rot13(KEY))
  })

  test.each([
    [[], false],
    [['--raw-record'], true],
  ])('never reaches a report file of a run, and does with --raw-record (with a warning): %j', async (flags, raw) => {
    const server = createServer((_, res) => {
      res.writeHead(500, { 'content-type': 'application/json', 'x-debug-token': rot13(KEY) })
      res.end(JSON.stringify({ error: 'internal', trace: rot13(KEY) }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const dir = mkdtempSync(join(tmpdir(), 'ipts-listed-'))
    try {
      const { err } = captureOutput()
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      await main(
        [
          '--base-url',
          base,
          '--api-key',
          KEY,
          '--check',
          'auth/missing-key',
          '--report-dir',
          dir,
          '--seed',
          '1',
          ...flags,
        ],
        {},
      )
      vi.restoreAllMocks()
      const files = readdirSync(dir).map((file) => readFileSync(join(dir, file), 'utf8'))
      expect(files.length, 'report files written').toBeGreaterThan(2)
      expect(files.some((text) => text.includes(rot13(KEY)))).toBe(raw)
      expect(files.some((text) => text.includes(KEY))).toBe(false)
      expect(err.join('').includes(RAW_RECORD_WARNING)).toBe(raw)
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})

describe('a stand-in read back (check-har on a HAR the allowlist wrote)', () => {
  const member = standIn('member', '1.0.0')
  const headers = { 'x-session': standIn('header', 'rcpt_0123'), 'x-request-id': 'abc' }

  test('is recognised as one in a text, a header value or a value, and nothing else is', () => {
    expect(holdsStandIn(member)).toBe(true)
    expect(holdsStandIn({ data: { version: member } })).toBe(true)
    expect(holdsStandIn([headers['x-session']])).toBe(true)
    expect(holdsStandIn('«unlisted member: some bytes»')).toBe(false)
    expect(holdsStandIn(undefined)).toBe(false)
  })

  test('a finding is about it when every violation is on a stand-in, or its message names a header kept as one', () => {
    const onStandIn = { value: member }
    const onValue = { value: 7 }
    expect(aboutStandIn({ message: 'm', violations: [onStandIn] }, headers)).toBe(true)
    expect(aboutStandIn({ message: 'm', violations: [onStandIn, onValue] }, headers), 'one on a value').toBe(false)
    expect(aboutStandIn({ message: 'X-Session is not a receipt' }, headers)).toBe(true)
    expect(aboutStandIn({ message: `expected a number, got ${JSON.stringify(member)}` }, headers)).toBe(true)
    expect(aboutStandIn({ message: 'x-request-id is too short' }, headers), 'a header kept as it is').toBe(false)
  })

  test('a finding names one of several headers kept as stand-ins: it is about a stand-in', () => {
    const two = { ...headers, 'x-trace': standIn('header', 't') }
    expect(aboutStandIn({ message: 'x-trace is repeated' }, two)).toBe(true)
  })
})
