import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { isUtf8 } from 'node:buffer'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { gatherExchangeLog, logExchanges } from '../../src/har/exchange-log.js'
import { harEntries } from '../../src/har/from-exchange.js'
import type { Exchange } from '../../src/http/exchange.js'
import { readHarEntries } from '../../src/har/read.js'
import { exchangeOf as recordedExchangeOf } from '../../src/har/to-exchange.js'
import type { Har, HarEntry } from '../../src/har/types.js'
import { packageJson } from '../../src/core/package-root.js'
import { FLUSH_CHARS, HAR_BODY_BUDGET_CHARS, HAR_BODY_CUT_CHARS, writeHar } from '../../src/har/write.js'
import { TrafficJudgement } from '../../src/traffic/judgement.js'
import { standIn } from '../../src/http/listed-material.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'
import { harEntry, harText } from '../support/har-entries.js'

/**
 * The reading of recorded traffic without a command around it: the streaming HAR reader on files written by hand (what
 * it takes for an entry, each way a file is not HAR), an entry read as an exchange, and the judgement's counts of what
 * it was shown. The surfaces (test/surfaces/check-har.test.ts, proxy.test.ts) run the same code through the commands.
 */

const dir = mkdtempSync(join(tmpdir(), 'ipts-har-reading-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0
function harFile(text: string): string {
  const path = join(dir, `${++files}.har`)
  writeFileSync(path, text)
  return path
}

async function urlsOf(text: string): Promise<string[]> {
  const urls: string[] = []
  for await (const entry of readHarEntries(harFile(text), '--har')) urls.push(entry.request.url)
  return urls
}

async function problemOf(text: string): Promise<string> {
  const path = harFile(text)
  try {
    for await (const _ of readHarEntries(path, '--har'));
  } catch (error) {
    return (error as Error).message.replace(path, 'FILE')
  }
  return 'read'
}

const MARKETS = 'http://127.0.0.1:9/v1/markets'
const entry = (url = MARKETS) => harEntry({ url, body: '{"items":[]}' })
/** A JSON response that says it is gzip-coded, its body recorded as these bytes in base64. */
const gzipCodedBase64 = (size: number, bytes: Buffer) =>
  harEntry({
    url: MARKETS,
    headers: { 'Content-Encoding': 'gzip', 'Content-Type': 'application/json' },
    content: { size, mimeType: 'application/json', encoding: 'base64', text: bytes.toString('base64') },
  })

describe('readHarEntries: the entries of log.entries, one at a time', () => {
  test('reads each entry in order, whatever other keys, strings and nesting surround them', async () => {
    const first = { ...entry(`${MARKETS}?a="}]`), _note: 'a "quoted" {brace} [bracket] \\ backslash' }
    const text = JSON.stringify({
      pages: [{ entries: [{ nested: true }] }],
      log: { version: '1.2', creator: { name: 'x', entries: [] }, entries: [first, entry(`${MARKETS}/2`)] },
      entries: [{ outside: true }],
    })
    expect(await urlsOf(text)).toEqual([`${MARKETS}?a="}]`, `${MARKETS}/2`])
  })

  test('reads a key written with escapes, and whitespace of every kind between tokens', async () => {
    const text = `{\t"log"\r\n: { "entr\\u0069es" :\n[ ${JSON.stringify(entry())} ] } }`
    expect(await urlsOf(text)).toEqual([MARKETS])
  })

  test('reads an entry whose bytes span two chunks of the stream (more than 1 MiB of text before it ends)', async () => {
    const big = { ...entry(`${MARKETS}/big`), _padding: 'x'.repeat(1024 * 1024 + 10) }
    expect(await urlsOf(harText([entry(), big, entry(`${MARKETS}/3`)]))).toEqual([
      MARKETS,
      `${MARKETS}/big`,
      `${MARKETS}/3`,
    ])
  })

  test.each([
    ['', 'not JSON'],
    ['[]', 'not JSON'],
    ['{"log":{"entries":[]}', 'not JSON'],
    ['{"log":{"entries":[]}}]', 'not JSON'],
    ['{"log":{"entries":[{"a":"open', 'not JSON'],
    ['{"log":{"entries":[{"a":1]}}', 'not JSON'],
    ['{"log":{}}', 'no log.entries'],
    ['{"log":{"pages":[]},"entries":[]}', 'no log.entries'],
    ['{"entries":[]}', 'no log.entries'],
    ['{"log":[{"entries":[]}]}', 'no log.entries'],
    ['{"log":{"entries":[1]}}', 'entry 1 is not an object'],
    [`{"log":{"entries":[${JSON.stringify(entry())},"x"]}}`, 'entry 2 is not an object'],
    ['{"log":{"entries":[{"a":tru}]}}', 'not JSON'],
    [`{"log":{"entries":[${JSON.stringify(entry())}]}}x`, 'not JSON'],
    [`{"log":{"entries":[${JSON.stringify(entry())}]}}"`, 'not JSON'],
    [`{"log":{"entries":[${JSON.stringify(entry())}]}} {"log":{"entries":[]}}`, 'not JSON'],
    [`{"log":0}[{"entries":[${JSON.stringify(entry())}]}]`, 'not JSON'],
  ])('%j is not a HAR file (%s)', async (text, what) => {
    expect(await problemOf(text)).toBe(`--har: FILE is not a HAR file (${what})`)
  })

  const without = (part: 'request' | 'response', key: string): HarEntry => {
    const e = entry() as unknown as Record<string, Record<string, unknown>>
    const { [key]: _, ...rest } = e[part]!
    return { ...e, [part]: rest } as unknown as HarEntry
  }
  test.each([
    ['method', without('request', 'method'), 'has no request with method, url and headers'],
    ['url', without('request', 'url'), 'has no request with method, url and headers'],
    ['headers', without('request', 'headers'), 'has no request with method, url and headers'],
    ['a relative url', entry('/v1/markets'), 'has a request url that is not absolute: "/v1/markets"'],
    ['status', without('response', 'status'), 'has no response with status, headers and content'],
    ['response headers', without('response', 'headers'), 'has no response with status, headers and content'],
    ['content', without('response', 'content'), 'has no response with status, headers and content'],
  ])('an entry without its %s ends the reading with its number', async (_, bad, what) => {
    expect(await problemOf(harText([entry(), bad]))).toBe(`--har: FILE is not a HAR file (entry 2 ${what})`)
  })

  test('a request and a response that are not objects are named too', async () => {
    const e = entry()
    expect(await problemOf(harText([{ ...e, request: [] } as unknown as HarEntry]))).toBe(
      '--har: FILE is not a HAR file (entry 1 has no request with method, url and headers)',
    )
    expect(await problemOf(harText([{ ...e, response: null } as unknown as HarEntry]))).toBe(
      '--har: FILE is not a HAR file (entry 1 has no response with status, headers and content)',
    )
    for (const content of [[], null, 'text'])
      expect(await problemOf(harText([{ ...e, response: { ...e.response, content } } as unknown as HarEntry]))).toBe(
        '--har: FILE is not a HAR file (entry 1 has no response with status, headers and content)',
      )
  })

  test('a HAR with no entries, and a file that cannot be read, are each a usage error that says so', async () => {
    expect(await problemOf(harText([]))).toBe('--har: FILE has no entries: there is no recorded exchange to judge')
    const missing = join(dir, 'missing.har')
    await expect(readHarEntries(missing, '--har').next()).rejects.toThrow(`--har: cannot read ${missing} (ENOENT)`)
  })
})

describe('readHarEntries: where log.entries is, and where it is not', () => {
  const e = JSON.stringify(entry())
  test.each([
    ['entries an object, not an array', '{"log":{"entries":{}}}'],
    ['an array under an object under log.entries', `{"log":{"entries":{"a":[${e}]}}}`],
    ['entries under another key than log', `{"x":{"entries":[${e}]}}`],
    ['entries under log inside an array', `{"log":[{"entries":[${e}]}]}`],
    ['an array in an array after a log object whose entries was not one', `{"log":{"entries":0},"log":[[${e}]]}`],
    ['an array with no key in a log object after one with entries', `{"log":{"entries":0},"log":{[${e}]}}`],
  ])('%s: no log.entries', async (_, text) => {
    expect(await problemOf(text)).toBe('--har: FILE is not a HAR file (no log.entries)')
  })

  test('whitespace of each kind before the file and around entries', async () => {
    expect(await urlsOf(`\r\n\t {"log":{"entries":[\r${e}\t,\n${e} ]}}`)).toEqual([MARKETS, MARKETS])
  })

  test('an empty key does not make the next quote an escaped one', async () => {
    expect(await urlsOf(`{"":0,"log":{"":"","entries":[${e}]}}`)).toEqual([MARKETS])
  })

  test('strings outside the entries are read for their ends only, keys outside log too: a broken one there is not JSON.parsed', async () => {
    const broken = '"\\q"'
    const text = `{"a":${broken},"b":[${broken},${broken}],"log":{"c":${broken},"d":[${broken}],"entries":[${e}]}}`
    expect(await urlsOf(text)).toEqual([MARKETS])
  })

  test('a broken string inside an entry, key or value, is the entry not being JSON', async () => {
    expect(await problemOf('{"log":{"entries":[{"a\\q":1}]}}')).toBe('--har: FILE is not a HAR file (not JSON)')
    expect(await problemOf('{"log":{"entries":[{"a":"\\q"}]}}')).toBe('--har: FILE is not a HAR file (not JSON)')
  })

  test('a broken key on the path to the entries ends the reading as an error of the file', async () => {
    expect(await problemOf(`{"\\q":0,"log":{"entries":[${e}]}}`)).toBe('--har: cannot read FILE (error)')
  })

  test('a relative url is quoted in the message, cut to 80 characters', async () => {
    const url = `/v1/${'m'.repeat(100)}`
    expect(await problemOf(harText([entry(url)]))).toBe(
      `--har: FILE is not a HAR file (entry 1 has a request url that is not absolute: ${JSON.stringify(url).slice(0, 80)})`,
    )
  })

  const CHUNK = 1024 * 1024
  /** A HAR of two entries, the first padded by a string that ends with `end` and closes the entry at byte `at`. */
  function harWithFirstEntryEndingAt(at: number, end = ''): string {
    const text = (n: number) =>
      `{"log":{"entries":[${JSON.stringify({ ...entry(`${MARKETS}/1`), _padding: `${'x'.repeat(n)}${end}` })},${e}]}}`
    const n = at - text(0).indexOf(`,${e}]}}`)
    return text(n)
  }

  test('a chunk of the file that ends just after an entry, before the comma', async () => {
    const file = harWithFirstEntryEndingAt(CHUNK)
    expect(file.indexOf(`,${e}]}}`), 'the first chunk ends with the first entry').toBe(CHUNK)
    expect(await urlsOf(file)).toEqual([`${MARKETS}/1`, MARKETS])
  })

  test('a chunk of the file that ends on the backslash of an escaped quote inside an entry', async () => {
    // The entry ends with `\"tail"}`: its backslash is the first chunk's last byte.
    const file = harWithFirstEntryEndingAt(CHUNK + 7, '"tail')
    expect(file[CHUNK - 1]).toBe('\\')
    expect(file[CHUNK]).toBe('"')
    const urls: string[] = []
    const paddings: string[] = []
    for await (const read of readHarEntries(harFile(file), '--har')) {
      urls.push(read.request.url)
      paddings.push(String((read as unknown as { _padding?: string })._padding ?? '').slice(-6))
    }
    expect(urls).toEqual([`${MARKETS}/1`, MARKETS])
    expect(paddings).toEqual(['x"tail', ''])
  })
})

describe('exchangeOf: a HAR entry as the judgements read it', () => {
  test('headers by lower-case name (repeated ones joined for the request, listed for the response), body and senders', async () => {
    const e = {
      ...harEntry({
        url: MARKETS,
        method: 'POST',
        sent: { 'X-Api-Key': 'k', Accept: ['application/json', 'text/plain'] },
        headers: { 'Set-Thing': ['a', 'b'], 'Content-Type': 'application/json' },
        body: '{"items":[]}',
      }),
      connection: '7',
      _checks: ['auth/x', 3, 'headers/y'],
    } as unknown as HarEntry
    e.request.postData = { mimeType: 'application/json', text: '{"a":1}' }
    const { exchange, bodyRecorded, senders } = await recordedExchangeOf(e)
    expect(exchange.request).toEqual({
      method: 'POST',
      url: MARKETS,
      headers: { 'x-api-key': 'k', accept: 'application/json, text/plain' },
      body: '{"a":1}',
    })
    expect(exchange.connection).toEqual({ id: '7' })
    expect(exchange.response?.headers).toEqual({ 'set-thing': ['a', 'b'], 'content-type': 'application/json' })
    expect(exchange.response?.json).toEqual({ items: [] })
    expect(bodyRecorded).toBe(true)
    expect(senders).toEqual(['auth/x', 'headers/y'])
  })

  test('_checks that is not a list names no senders', async () => {
    const e = { ...entry(), _checks: 'auth/x' } as unknown as HarEntry
    const read = await recordedExchangeOf(e)
    expect(read).not.toHaveProperty('senders')
    expect(read.exchange.response?.status).toBe(200)
  })

  test('a status of 0 is a request without a response; a body neither recorded nor empty is not recorded', async () => {
    const unanswered = { ...entry(), response: { ...entry().response, status: 0, _error: 'net::ERR_FAILED' } }
    const read = await recordedExchangeOf(unanswered as HarEntry)
    expect(read.exchange.response).toBeUndefined()
    expect(read.exchange.error).toEqual({ code: 'NO_RESPONSE', message: 'net::ERR_FAILED' })
    expect(read.bodyRecorded).toBe(false)
    const left = harEntry({ url: MARKETS, content: { size: 12, mimeType: 'application/json' } })
    expect((await recordedExchangeOf(left)).bodyRecorded).toBe(false)
    const unmeasured = harEntry({ url: MARKETS, content: { size: -1, mimeType: 'application/json' } })
    expect((await recordedExchangeOf(unmeasured)).bodyRecorded, 'a size not measured is no empty body').toBe(false)
    const empty = harEntry({ url: MARKETS, content: { size: 0, mimeType: 'application/json' } })
    expect((await recordedExchangeOf(empty)).bodyRecorded).toBe(true)
    expect((await recordedExchangeOf(entry())).exchange.connection).toBeUndefined()
    expect((await recordedExchangeOf({ ...entry(), connection: '' } as HarEntry)).exchange.connection).toBeUndefined()
  })

  test('a base64 body is decoded with its Content-Encoding; base64 UTF-8 text is the decoded body already', async () => {
    const gzipped = gzipCodedBase64(8, gzipSync('{"a":2}'))
    expect((await recordedExchangeOf(gzipped)).exchange.response?.json).toEqual({ a: 2 })
    const decoded = gzipCodedBase64(7, Buffer.from('{"a":3}'))
    expect((await recordedExchangeOf(decoded)).exchange.response?.json).toEqual({ a: 3 })
  })
})

describe('TrafficJudgement: what it counts of the exchanges it is shown', () => {
  const judgement = () => new TrafficJudgement('har', 'http://127.0.0.1:9')
  const countsOf = (j: TrafficJudgement) => {
    const { source, ...counts } = j.findings().traffic!
    return { source, ...counts }
  }

  test('outside /v1, another path under /v1, no response, no body, not judged, judged: each counted once', () => {
    const j = judgement()
    j.judge(exchangeOf(responseOf(200), { url: 'http://127.0.0.1:9/v1x/markets', operation: undefined }))
    j.judge(exchangeOf(responseOf(200), { url: 'http://127.0.0.1:9/health', operation: undefined }))
    j.judge(exchangeOf(responseOf(404), { url: 'http://127.0.0.1:9/v1', operation: undefined }))
    j.judge(exchangeOf(responseOf(404), { url: 'http://127.0.0.1:9/v1/nowhere', operation: undefined }))
    j.judge(exchangeOf(responseOf(200), { method: 'POST', url: MARKETS, operation: undefined }))
    j.judge(exchangeOf(undefined))
    j.judge(exchangeOf(responseOf(200, {}, { items: [] })), false)
    j.judge(exchangeOf({ ...responseOf(200), notJudged: 'too large' }))
    j.judge(exchangeOf({ ...responseOf(200), notJudged: 'too large' }))
    j.judge(exchangeOf(responseOf(200, { 'content-type': 'application/json' }, { items: [] })))
    expect(countsOf(j)).toEqual({
      source: 'har',
      exchanges: 10,
      judged: 1,
      outsideV1: 2,
      otherV1: 3,
      withoutResponse: 1,
      withoutBody: 1,
      notJudged: 2,
    })
  })

  test('a proxy counts the requests it could not parse and the upstream failures, naming the first three', () => {
    const j = judgement()
    j.malformedRequest()
    j.malformedRequest()
    expect(j.findings().errors).toEqual([])
    const failed = (n: number) =>
      j.upstreamFailed({
        ...exchangeOf(undefined, { url: `${MARKETS}?n=${n}` }),
        error: { code: 'ECONNREFUSED', message: 'refused' },
      })
    failed(1)
    expect(j.findings().errors).toEqual([
      `the upstream did not answer 1 request; the client got a 502 from the proxy: GET ${MARKETS}?n=1: no response (refused)`,
    ])
    for (const n of [2, 3, 4]) failed(n)
    const [error] = j.findings().errors
    expect(error).toMatch(/^the upstream did not answer 4 requests; /)
    expect(error).toContain('?n=1: no response (refused); GET ')
    expect(error).toContain('?n=3:')
    expect(error).not.toContain('?n=4')
    expect(countsOf(j)).toMatchObject({ exchanges: 4, withoutResponse: 4, malformedRequests: 2 })
  })

  test('a check that sends requests of its own is not assessed; a rule is judged on what was shown', () => {
    const j = judgement()
    j.judge(exchangeOf(responseOf(200, { 'content-type': 'text/html' }, { items: [] })))
    const { checks } = j.findings()
    expect(checks.find((c) => c.id === 'properties/garbage-key-refused')).toMatchObject({
      status: 'skipped',
      reason: 'not assessed: recorded traffic (the check sends requests of its own)',
    })
    expect(checks.find((c) => c.id === 'every-response/success-json-content-type')).toMatchObject({ status: 'failed' })
  })

  test('a response with stand-ins is counted; without one there is no count', () => {
    const j = judgement()
    j.judge(exchangeOf(responseOf(200, { 'content-type': 'application/json' }, { items: [] })))
    expect(countsOf(j)).not.toHaveProperty('standIns')
    j.judge(exchangeOf({ ...responseOf(200, { 'content-type': 'application/json' }, { items: [] }), standIns: true }))
    expect(countsOf(j).standIns).toMatchObject({ responses: 1 })
  })
})

describe("a run's exchange log and its HAR: written, gathered and read back", () => {
  const sentAt = (url: string, startedAt: string, body = '{"items":[]}') => ({
    ...exchangeOf({ ...responseOf(200, { 'content-type': 'application/json' }), body }, { url }),
    startedAt,
  })

  test('the entries of every .jsonl file of the log, oldest first, each naming its check; other files are not read', () => {
    const log = join(dir, 'log')
    mkdirSync(log)
    // A line of more than 1 MiB (raw: the body kept as it was): the log is read a chunk at a time, lines span chunks.
    const long = `{"items":["${'x'.repeat(1024 * 1024)}"]}`
    logExchanges(
      log,
      [sentAt(`${MARKETS}/c`, '2026-01-01T00:00:03.000Z'), sentAt(`${MARKETS}/a`, '2026-01-01T00:00:01.000Z', long)],
      'auth/x',
      [],
      true,
    )
    appendFileSync(join(log, 'other.jsonl'), '\n')
    logExchanges(log, [sentAt(`${MARKETS}/b`, '2026-01-01T00:00:02.000Z')], 'headers/y', [])
    writeFileSync(join(log, 'notes.txt'), 'not an entry\n')
    writeFileSync(join(log, 'summary.json'), 'not an entry\n')
    writeFileSync(join(log, 'worker-1.jsonl.partial'), 'not an entry\n')
    const gathered = [...gatherExchangeLog(log)]
    expect(gathered.map((e) => [e.request.url, e._checks])).toEqual([
      [`${MARKETS}/a`, ['auth/x']],
      [`${MARKETS}/b`, ['headers/y']],
      [`${MARKETS}/c`, ['auth/x']],
    ])
    expect(gathered[0]!.response.content.text).toBe(long)
  })

  test("each entry is parsed once, when it is yielded: its time is read from the line's start", () => {
    const log = join(dir, 'parsed-once')
    mkdirSync(log)
    logExchanges(
      log,
      [sentAt(`${MARKETS}/b`, '2026-01-01T00:00:02.000Z'), sentAt(`${MARKETS}/a`, '2026-01-01T00:00:01.000Z')],
      'auth/x',
      [],
    )
    const parse = vi.spyOn(JSON, 'parse')
    try {
      const urls = [...gatherExchangeLog(log)].map((entry) => entry.request.url)
      expect(urls).toEqual([`${MARKETS}/a`, `${MARKETS}/b`])
      expect(parse).toHaveBeenCalledTimes(2)
    } finally {
      parse.mockRestore()
    }
  })

  test('a time written with an escape is read as JSON reads it, not as its escaped text', () => {
    const log = join(dir, 'escaped-time')
    mkdirSync(log)
    const line = (url: string, time: string) =>
      `{"startedDateTime":"${time}","request":{"url":"${url}"},"response":{},"timings":{}}\n`
    // \u0031970 is 1970: after the plain 1960, though its escaped text sorts before any digit.
    writeFileSync(
      join(log, 'hand.jsonl'),
      line(`${MARKETS}/b`, '\\u0031970-01-01T00:00:00.000Z') + line(`${MARKETS}/a`, '1960-01-01T00:00:00.000Z'),
    )
    expect([...gatherExchangeLog(log)].map((e) => [e.request.url, e.startedDateTime])).toEqual([
      [`${MARKETS}/a`, '1960-01-01T00:00:00.000Z'],
      [`${MARKETS}/b`, '1970-01-01T00:00:00.000Z'],
    ])
  })

  test('each entry is logged with the secrets as their placeholders', () => {
    const log = join(dir, 'redacted')
    mkdirSync(log)
    const key = 'ipts_live_5d6e7f8091a2b3c4'
    const sent = {
      ...exchangeOf(responseOf(200), { headers: { 'x-api-key': key } }),
      startedAt: '2026-01-01T00:00:01.000Z',
    }
    logExchanges(log, [sent], 'auth/x', [{ value: key, placeholder: '$IPTS_API_KEY' }])
    const [entry] = [...gatherExchangeLog(log)]
    expect(entry!.request.headers).toEqual([{ name: 'x-api-key', value: '$IPTS_API_KEY' }])
    expect(readdirSync(log).map((name) => readFileSync(join(log, name), 'utf8').includes(key))).toEqual([false])
  })

  test('entries sent at the same time keep the order they were logged in, whatever follows their time', () => {
    const log = join(dir, 'same-time')
    mkdirSync(log)
    const at = '2026-01-01T00:00:01.000Z'
    logExchanges(
      log,
      [
        { ...sentAt(`${MARKETS}/z`, at), durationMs: 9 },
        { ...sentAt(`${MARKETS}/a`, at), durationMs: 1 },
      ],
      'auth/x',
      [],
    )
    expect([...gatherExchangeLog(log)].map((e) => [e.request.url, e.time])).toEqual([
      [`${MARKETS}/z`, 9],
      [`${MARKETS}/a`, 1],
    ])
  })

  test('a log whose last chunk is shorter than the one before: only the bytes read are lines; every file is closed', () => {
    const log = join(dir, 'short-last-chunk')
    mkdirSync(log)
    const body = (n: number) => `{"items":["${'y'.repeat(n)}"]}`
    logExchanges(
      log,
      [
        sentAt(`${MARKETS}/1`, '2026-01-01T00:00:01.000Z', body(900 * 1024)),
        sentAt(`${MARKETS}/2`, '2026-01-01T00:00:02.000Z', body(200 * 1024)),
        sentAt(`${MARKETS}/3`, '2026-01-01T00:00:03.000Z'),
      ],
      'auth/x',
      [],
      true,
    )
    const openFiles = () => (existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : 0)
    const before = openFiles()
    const gathered = [...gatherExchangeLog(log)]
    expect(openFiles(), 'no file left open').toBe(before)
    expect(gathered.map((e) => e.request.url)).toEqual([`${MARKETS}/1`, `${MARKETS}/2`, `${MARKETS}/3`])
  })

  test("a check's exchanges are logged with the response's unlisted material as stand-ins unless raw", () => {
    const log = join(dir, 'listed')
    mkdirSync(log)
    const answered = {
      ...exchangeOf(responseOf(200, { 'content-type': 'application/json', 'x-vendor-thing': 'v-123' }, { items: [] })),
      startedAt: '2026-01-01T00:00:01.000Z',
    }
    logExchanges(log, [answered], 'auth/x', [])
    const [entry] = [...gatherExchangeLog(log)]
    const header = entry!.response.headers.find(({ name }) => name === 'x-vendor-thing')
    expect(header?.value).toMatch(/^«unlisted header: 5 bytes, sha256:[0-9a-f]{8}»$/)
  })

  test('writeHar: every entry read back in order; a body over the cut kept once, its repeat left out naming it', async () => {
    const path = join(dir, 'run', 'exchanges.har')
    const atCut = `"${'a'.repeat(HAR_BODY_CUT_CHARS - 2)}"`
    const overCut = `"${'b'.repeat(HAR_BODY_CUT_CHARS - 1)}"`
    const bodies = [
      atCut,
      atCut,
      overCut,
      overCut,
      ...Array.from({ length: 40 }, (_, i) => `"${i}${'c'.repeat(3000)}"`),
    ]
    const entries = bodies.map((body, i) => harEntry({ url: `${MARKETS}/${i}`, body }))
    await writeHar(path, entries)
    const read: HarEntry[] = []
    for await (const entry of readHarEntries(path, '--har')) read.push(entry)
    expect(read.map((e) => e.request.url)).toEqual(entries.map((e) => e.request.url))
    const texts = read.map((e) => e.response.content.text)
    expect(texts.slice(0, 3)).toEqual([atCut, atCut, overCut])
    expect(texts[3]).toBe('')
    expect(read[3]!.response.content.comment).toMatch(/^the same body as entry 3, left out: /)
    expect(read[1]!.response.content.comment).toBeUndefined()
    expect(texts.slice(4)).toEqual(bodies.slice(4))
    const har = JSON.parse(readFileSync(path, 'utf8')) as { log: { version: string; creator: { name: string } } }
    expect(har.log.version).toBe('1.2')
    expect(har.log.creator.name).toBe('ipts-conformance')
  })
})

describe('writeHar and memory', () => {
  test('the text is written to the file once FLUSH_CHARS of it are pending, exactly, and not before', async () => {
    const path = join(dir, 'flush', 'exchanges.har')
    const creator = { name: packageJson.name, version: packageJson.version }
    const opening = `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[`
    const first = harEntry({ url: `${MARKETS}/0` })
    // The second entry's body padded until the text pending after it is FLUSH_CHARS long (its size has more digits).
    let second = harEntry({ url: `${MARKETS}/1` })
    for (let pad = 0, pending = 0; pending !== FLUSH_CHARS;) {
      pad += FLUSH_CHARS - pending
      second = harEntry({ url: `${MARKETS}/1`, body: `"${'x'.repeat(pad)}"` })
      pending = `${opening}\n${JSON.stringify(first)},\n${JSON.stringify(second)}`.length
    }
    const onDisk: number[] = []
    async function* entries() {
      yield first
      onDisk.push(statSync(path).size)
      yield second
      onDisk.push(statSync(path).size)
      yield harEntry({ url: `${MARKETS}/2` })
    }
    await writeHar(path, entries())
    expect(onDisk, 'nothing written after the first entry, all of it after the second').toEqual([0, FLUSH_CHARS])
    expect((JSON.parse(readFileSync(path, 'utf8')) as Har).log.entries.map((e) => e.request.url)).toEqual(
      [0, 1, 2].map((i) => `${MARKETS}/${i}`),
    )
  })
})

describe('writeHar past the body budget', () => {
  test('bodies kept whole up to the budget exactly, then cut or left out naming the entry that holds them, each saying so', async () => {
    const path = join(dir, 'budget', 'exchanges.har')
    const body = (c: string, n: number) => `"${c.repeat(n - 2)}"`
    const half = body('a', HAR_BODY_BUDGET_CHARS / 2)
    const rest = body('b', HAR_BODY_BUDGET_CHARS / 2)
    const over = body('c', 3000)
    const entries = [
      harEntry({ url: `${MARKETS}/0`, body: half }),
      harEntry({ url: `${MARKETS}/1`, body: rest }),
      harEntry({ url: `${MARKETS}/2`, body: over }),
      harEntry({ url: `${MARKETS}/3`, body: over }),
      harEntry({ url: `${MARKETS}/4`, body: half }),
      harEntry({ url: `${MARKETS}/5`, body: half }),
      harEntry({ url: `${MARKETS}/6` }),
      harEntry({ url: `${MARKETS}/7`, body: '"short"' }),
      harEntry({ url: `${MARKETS}/8`, body: body('d', 3000) }),
    ]
    entries[2]!.response.content.comment = 'recorded by hand'
    entries[3]!.response.content.comment = 'again by hand'
    await writeHar(path, entries)
    const text = readFileSync(path, 'utf8')
    const lines = text.split('\n')
    expect(lines[0]).toBe(
      `{"log":{"version":"1.2","creator":{"name":"ipts-conformance","version":"${packageJson.version}"},"entries":[`,
    )
    expect(lines.slice(-2), 'one entry a line, then the end').toEqual([']}}', ''])
    expect(lines.slice(1, -2).map((line) => JSON.parse(line.replace(/,$/, '')).request.url)).toEqual(
      entries.map((e) => e.request.url),
    )
    const contents = (JSON.parse(text) as Har).log.entries.map((e) => e.response.content)
    const spent = 'the HAR keeps 4194304 characters of bodies in full over the run'
    expect(contents.map((c) => c.text)).toEqual([
      half,
      rest,
      over.slice(0, HAR_BODY_CUT_CHARS),
      '',
      '',
      '',
      undefined,
      '"short"',
      body('d', 3000).slice(0, HAR_BODY_CUT_CHARS),
    ])
    expect(contents.map((c) => c.comment)).toEqual([
      undefined,
      undefined,
      `recorded by hand; cut to its first ${HAR_BODY_CUT_CHARS} of 3000 characters: ${spent}`,
      `again by hand; the same body as entry 3, left out: ${spent}`,
      `the same body as entry 1, left out: ${spent}`,
      `the same body as entry 1, left out: ${spent}`,
      undefined,
      undefined,
      `cut to its first ${HAR_BODY_CUT_CHARS} of 3000 characters: ${spent}`,
    ])
  })
})

describe('harEntries: an exchange as HAR 1.2 entries', () => {
  test('a POST with a query and a body, timed, on a connection: every field of its entry', () => {
    const exchange = {
      operation: 'submitIntent',
      request: {
        method: 'POST',
        url: `${MARKETS}?a=1&b=two`,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: '{"é":1}',
      },
      response: {
        ...responseOf(201, { 'content-type': ['application/json', 'text/plain'], location: '/v1/x' }, { ok: true }),
        truncated: true,
      },
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 9,
      timings: { waitMs: 1.23456, receiveMs: 2.5 },
      connection: { port: 5123, number: 2 },
      retries: [],
    } as unknown as Exchange
    expect(harEntries(exchange, ['writes/x'], [], true)).toEqual([
      {
        startedDateTime: '2026-01-01T00:00:00.000Z',
        time: 3.735,
        timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 1.235, receive: 2.5 },
        request: {
          method: 'POST',
          url: `${MARKETS}?a=1&b=two`,
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: [
            { name: 'content-type', value: 'application/json' },
            { name: 'accept', value: 'application/json' },
          ],
          queryString: [
            { name: 'a', value: '1' },
            { name: 'b', value: 'two' },
          ],
          headersSize: -1,
          bodySize: 8,
          postData: { mimeType: 'application/json', text: '{"é":1}' },
        },
        response: {
          status: 201,
          statusText: '',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: [
            { name: 'content-type', value: 'application/json' },
            { name: 'content-type', value: 'text/plain' },
            { name: 'location', value: '/v1/x' },
          ],
          content: {
            size: 11,
            mimeType: 'application/json',
            text: '{"ok":true}',
            comment: 'body truncated at the size cap: the first 11 bytes',
          },
          redirectURL: '/v1/x',
          headersSize: -1,
          bodySize: 11,
        },
        cache: {},
        _checks: ['writes/x'],
        connection: '5123',
      },
    ])
  })

  test('an exchange without a response, and one without checks, a body or timings', () => {
    const unanswered = {
      ...exchangeOf(undefined),
      error: { code: 'ECONNRESET', message: 'reset' },
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 4,
    } as Exchange
    const [entry] = harEntries(unanswered, [], [], true)
    expect(entry!.time).toBe(4)
    expect(entry!.timings).toMatchObject({ wait: 4, receive: 0 })
    expect(entry!.request).not.toHaveProperty('postData')
    expect(entry!.request.bodySize).toBe(0)
    expect(entry).not.toHaveProperty('_checks')
    expect(entry).not.toHaveProperty('connection')
    expect(entry!._error).toBe('ECONNRESET: reset')
    expect(entry!.response).toEqual({
      status: 0,
      statusText: '',
      httpVersion: '',
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: 'x-unknown' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      _error: 'reset',
    })
    const [plain] = harEntries(exchangeOf(responseOf(204)), [], [], true)
    expect(plain!.response.content.mimeType).toBe('x-unknown')
    expect(plain!.response.redirectURL).toBe('')
  })

  test('each retried attempt and each redirect hop is an entry of its own, the last asking the last Location', () => {
    const exchange = {
      ...exchangeOf(responseOf(200, { 'content-type': 'application/json' }, { items: [] })),
      retries: [{ startedAt: '2026-01-01T00:00:00.000Z', response: responseOf(503) }],
      redirects: [{ url: MARKETS, response: responseOf(307, { location: '/v1/markets?moved=1' }) }],
      connection: { number: 3 },
    } as unknown as Exchange
    const entries = harEntries(exchange, ['a/b'], [], true)
    expect(entries.map((e) => [e.request.url, e.response.status, e.connection])).toEqual([
      [MARKETS, 503, undefined],
      [MARKETS, 307, undefined],
      [`${MARKETS}?moved=1`, 200, '3'],
    ])
  })

  test('a redirect followed to a request that failed: the error is on the last entry alone', () => {
    const exchange = {
      ...exchangeOf(undefined),
      error: { code: 'ECONNRESET', message: 'reset' },
      redirects: [{ url: MARKETS, response: responseOf(307, { location: '/v1/markets?moved=1' }) }],
    } as unknown as Exchange
    const entries = harEntries(exchange, [], [], true)
    expect(entries.map((e) => [e.response.status, e._error, e.response._error])).toEqual([
      [307, undefined, undefined],
      [0, 'ECONNRESET: reset', 'reset'],
    ])
  })
})

describe('harEntries: what a response entry says of its body', () => {
  const contentOf = (response: Exchange['response']) =>
    harEntries({ ...exchangeOf(response), connection: undefined } as unknown as Exchange, [], [], true)[0]!.response
      .content
  const json = () => responseOf(200, { 'content-type': 'application/json' }, { items: [] })

  test('a body as it came: its text, no comment; cut at the cap: a comment with its bytes', () => {
    expect(contentOf(json())).toEqual({ size: 12, mimeType: 'application/json', text: '{"items":[]}' })
    expect(contentOf({ ...json(), truncated: true }).comment).toBe('body truncated at the size cap: the first 12 bytes')
  })

  test('a body decoded from a known coding records its compression; cut, none', () => {
    const gzipped = {
      ...json(),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      encodedBytes: 5,
    }
    expect(contentOf(gzipped)).toEqual({ size: 12, mimeType: 'application/json', text: '{"items":[]}', compression: 7 })
    expect(contentOf({ ...gzipped, truncated: true })).not.toHaveProperty('compression')
    expect(contentOf({ ...json(), headers: { 'content-encoding': 'gzip' } })).not.toHaveProperty('compression')
  })

  test('a coded body is sized as it was sent (bodySize) and as decoded (content.size)', () => {
    const gzipped = { ...json(), headers: { 'content-encoding': 'gzip' }, encodedBytes: 5 }
    const entryOf = (response: Exchange['response']) =>
      harEntries({ ...exchangeOf(response), connection: undefined } as unknown as Exchange, [], [], true)[0]!.response
    expect([entryOf(gzipped).bodySize, entryOf(gzipped).content.size]).toEqual([5, 12])
    expect([entryOf(json()).bodySize, entryOf(json()).content.size]).toEqual([12, 12])
  })

  test('a body cut at the cap loses the beginning of a secret it ends with, too short for redaction to know', () => {
    const secret = { value: 'ipts_live_93be1c07aa5d', placeholder: '$IPTS_API_KEY' }
    const body = `k=${secret.value.slice(0, 8)}`
    const textOf = (truncated: boolean) =>
      harEntries(
        exchangeOf({ ...responseOf(200, { 'content-type': 'text/plain' }), body, truncated }),
        [],
        [secret],
        true,
      )[0]!.response.content.text
    expect(textOf(true), 'cut where the secret began').toBe('k=')
    expect(textOf(false), 'a body not cut ends with what it ends with').toBe(body)
  })

  test('a body in a coding the suite cannot decode is not recorded, saying why', () => {
    const unknown = { ...json(), headers: { 'content-encoding': 'x-secret-zip' }, encodedBytes: 9 }
    expect(contentOf(unknown)).toEqual({
      size: 9,
      mimeType: 'x-unknown',
      comment: 'a body in an unknown content coding: not recorded',
    })
    expect(contentOf({ ...unknown, truncated: true }), 'cut at the size cap as well').toEqual({
      size: 9,
      mimeType: 'x-unknown',
      comment: 'a body in an unknown content coding: not recorded',
    })
    expect(contentOf({ ...unknown, notJudged: 'a body in x-secret-zip' }).comment).toBe('a body in x-secret-zip')
    expect(contentOf({ ...unknown, encodedBytes: undefined }).text, 'no size as sent: kept').toBe('{"items":[]}')
  })

  test('no response: status 0 with the error, or none', () => {
    const unanswered = (error?: Exchange['error']) =>
      harEntries({ ...exchangeOf(undefined), error } as unknown as Exchange, [], [], true)[0]!
    expect(unanswered({ code: 'TIMEOUT', message: 'no answer' }).response).toMatchObject({
      status: 0,
      _error: 'no answer',
    })
    expect(unanswered({ code: 'TIMEOUT', message: 'no answer' })._error).toBe('TIMEOUT: no answer')
    expect(unanswered().response.status).toBe(0)
    expect(unanswered().response._error).toBeUndefined()
  })

  test("a request's body is its postData, typed by its Content-Type, JSON where it names none", () => {
    const sent = (headers: Record<string, string>) =>
      harEntries(
        {
          ...exchangeOf(json()),
          request: { method: 'POST', url: MARKETS, headers, body: '{"a":1}' },
        } as unknown as Exchange,
        [],
        [],
        true,
      )[0]!.request
    expect(sent({}).postData).toEqual({ mimeType: 'application/json', text: '{"a":1}' })
    expect(sent({ 'content-type': 'text/plain' }).postData).toEqual({ mimeType: 'text/plain', text: '{"a":1}' })
    expect(sent({}).bodySize).toBe(7)
  })
})

describe('exchangeOf: the edges of a recorded entry', () => {
  test('no response recorded, with no error named: the message says so; no retries', async () => {
    const unanswered = { ...entry(), response: { ...entry().response, status: 0 } }
    const { exchange } = await recordedExchangeOf(unanswered as HarEntry)
    expect(exchange.error).toEqual({ code: 'NO_RESPONSE', message: 'no response was recorded' })
    expect(exchange.retries).toEqual([])
    const named = { ...unanswered, _error: 'net::ERR_TIMED_OUT' }
    expect((await recordedExchangeOf(named as HarEntry)).exchange.error?.message).toBe('net::ERR_TIMED_OUT')
    const both = { ...named, response: { ...unanswered.response, _error: 'net::ERR_FAILED' } }
    expect((await recordedExchangeOf(both as HarEntry)).exchange.error?.message, "the response's first").toBe(
      'net::ERR_FAILED',
    )
  })

  test('a base64 content without its text is an empty body, not recorded', async () => {
    const left = harEntry({ url: MARKETS, content: { size: 5, mimeType: 'application/json', encoding: 'base64' } })
    const read = await recordedExchangeOf(left)
    expect(read.exchange.response?.body).toBe('')
    expect(read.bodyRecorded).toBe(false)
    const none = harEntry({ url: MARKETS, content: { size: 5, mimeType: 'application/json' } })
    expect((await recordedExchangeOf(none)).exchange.response?.body).toBe('')
  })

  test('a text under an encoding other than base64 is read as the text it is (HAR 1.2 names base64 alone)', async () => {
    const text = '{"items":[]}'
    const other = harEntry({
      url: MARKETS,
      content: { size: 12, mimeType: 'application/json', encoding: 'utf-8', text },
    })
    const read = await recordedExchangeOf(other)
    expect(read.exchange.response?.body).toBe(text)
    expect(read.exchange.response?.json).toEqual({ items: [] })
  })

  test('base64 bytes in their coding are decoded even where those bytes are UTF-8 text too', async () => {
    const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_LGWIN } = constants
    const coded = brotliCompressSync('{}', { params: { [BROTLI_PARAM_QUALITY]: 5, [BROTLI_PARAM_LGWIN]: 16 } })
    expect(isUtf8(coded), 'the brotli stream of {} is UTF-8 text').toBe(true)
    const br = harEntry({
      url: MARKETS,
      headers: { 'Content-Encoding': 'br', 'Content-Type': 'application/json' },
      content: { size: 2, mimeType: 'application/json', encoding: 'base64', text: coded.toString('base64') },
    })
    const { response } = (await recordedExchangeOf(br)).exchange
    expect(response?.body).toBe('{}')
    expect(response?.encodedBytes).toBe(coded.length)
  })

  test('base64 bytes that neither decode in their coding nor are UTF-8 are not readable, saying why', async () => {
    const broken = gzipCodedBase64(3, Buffer.from([0xff, 0xfe, 0x00]))
    expect((await recordedExchangeOf(broken)).exchange.response?.jsonError).toBe(
      'not readable: content-encoding gzip, but the body is not in that coding (incorrect header check)',
    )
  })

  test('a response with a stand-in, in a header or in its body, is marked so; one without is not', async () => {
    const marked = async (e: HarEntry) => (await recordedExchangeOf(e)).exchange.response?.standIns
    const inHeader = harEntry({ url: MARKETS, headers: { 'X-Session': standIn('header', 'rcpt_0123') }, body: '{}' })
    const inBody = harEntry({ url: MARKETS, body: JSON.stringify({ data: { v: standIn('member', '1.0.0') } }) })
    expect(await marked(inHeader)).toBe(true)
    expect(await marked(inBody)).toBe(true)
    expect(await marked(entry())).toBeUndefined()
  })
})

describe("a WebSocket channel's entry, written and read back", () => {
  test("its messages and comment on the upgrade's entry; read back, messages of another shape are left out", async () => {
    const messages = [
      { type: 'send', time: 1, opcode: 1, data: 'hello' },
      { type: 'receive', time: 2, opcode: 2, data: 'AAE=' },
    ] as const
    const channel = {
      ...exchangeOf(responseOf(101, { upgrade: 'websocket' })),
      webSocketMessages: [...messages],
      webSocketComment: '2 messages past the first 1000 (or past 10 bytes) not recorded',
    } as unknown as Exchange
    const [written] = harEntries(channel, [], [], true)
    expect(written).toMatchObject({
      _resourceType: 'websocket',
      _webSocketMessages: messages,
      comment: '2 messages past the first 1000 (or past 10 bytes) not recorded',
    })
    const plain = harEntries(exchangeOf(responseOf(200)), [], [], true)[0]!
    expect(plain).not.toHaveProperty('_webSocketMessages')
    expect(plain).not.toHaveProperty('comment')
    const odd = [
      null,
      'text',
      { ...messages[0], type: 'ping' },
      { ...messages[0], opcode: 8 },
      { ...messages[0], data: 7 },
    ]
    const read = await recordedExchangeOf({ ...written!, _webSocketMessages: [...messages, ...odd] } as HarEntry)
    expect(read.exchange.webSocketMessages).toEqual(messages)
    expect((await recordedExchangeOf(plain)).exchange).not.toHaveProperty('webSocketMessages')
    const notAList = await recordedExchangeOf({ ...written!, _webSocketMessages: 'none' } as unknown as HarEntry)
    expect(notAList.exchange).not.toHaveProperty('webSocketMessages')
  })
})
