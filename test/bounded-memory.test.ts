import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { capped } from '../src/cli/check-har.js'
import { main } from '../src/cli/main.js'
import type { Report } from '../src/core/report.js'
import { readHarEntries } from '../src/har/read.js'
import type { HarEntry } from '../src/har/types.js'
import { exchangeOf } from '../src/har/to-exchange.js'
import { WRITES_REMEMBERED, WriteKeys } from '../src/traffic/write-keys.js'
import { captureOutput } from './support/output.js'
import { runAgainstReference } from './support/run.js'

const MiB = 1024 * 1024
const DEPTH = 100_000

afterEach(() => {
  vi.restoreAllMocks()
})

/**
 * A recorded exchange; its request ID is too short on purpose, so that every-response/request-id-format fails with the
 * response as evidence.
 */
function entry(path: string, body: string, apiKey = 'recorded-key-0001'): HarEntry {
  return {
    startedDateTime: '2026-11-25T10:00:00.000Z',
    time: 1,
    request: {
      method: 'GET',
      url: `http://deployment.test${path}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'X-API-Key', value: apiKey }],
      queryString: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [
        { name: 'content-type', value: 'application/json' },
        { name: 'x-request-id', value: 'req-1' },
      ],
      content: { size: body.length, mimeType: 'application/json', text: body },
      redirectURL: '',
      headersSize: -1,
      bodySize: body.length,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  }
}

function harFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'ipts-bounded-')), 'traffic.har')
  writeFileSync(path, text)
  return path
}

async function entriesOf(text: string): Promise<HarEntry[]> {
  const entries: HarEntry[] = []
  for await (const read of readHarEntries(harFile(text), 'check-har')) entries.push(read)
  return entries
}

async function checkHar(path: string): Promise<{ code: number; report: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'ipts-bounded-report-'))
  const { restore } = captureOutput()
  let code: number
  try {
    code = await main(['check-har', path, '--report-dir', dir], {})
  } finally {
    restore()
  }
  return { code, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report }
}

const deepBody = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH)

describe('reading a HAR streaming', () => {
  test('finds the entries of log.entries only, whatever surrounds them: strings with brackets and escaped quotes, decoy entries, escaped keys', async () => {
    const first = entry('/v1/vault', JSON.stringify({ data: { note: 'a ] } [ { "quoted" \\ \u00e9' } }))
    const second = entry('/v1/markets', '{}')
    const text = `{"other":{"entries":[{"not":"this"}]},"l\\u006fg":{"creator":{"name":"x ] }"},"entries":[ ${JSON.stringify(first)} ,\n${JSON.stringify(second)}],"pages":[]}}`
    expect(await entriesOf(text)).toEqual([first, second])
  })

  test('an entry far larger than a read chunk is read whole', async () => {
    const big = entry('/v1/vault', JSON.stringify({ data: 'x'.repeat(3 * MiB) }))
    const [read] = await entriesOf(JSON.stringify({ log: { version: '1.2', entries: [big] } }))
    expect(read!.response.content.text!.length).toBe(big.response.content.text!.length)
  })

  test.each([
    ['a file that is not JSON', 'GET /v1/config HTTP/1.1\n', /is not a HAR file \(not JSON\)$/],
    ['a file cut short', '{"log":{"entries":[{"request":', /is not a HAR file \(not JSON\)$/],
    ['JSON without log.entries', '{"entries":[]}', /is not a HAR file \(no log.entries\)$/],
    ['an entry that is not an object', '{"log":{"entries":[1]}}', /is not a HAR file \(entry 1 is not an object\)$/],
    [
      'an entry without a request',
      '{"log":{"entries":[{"response":{}}]}}',
      /is not a HAR file \(entry 1 has no request/,
    ],
  ])('%s: a usage error naming the file', async (_, text, message) => {
    await expect(entriesOf(text)).rejects.toThrow(message)
  })
})

describe('check-har bounds what it judges', () => {
  test('a body over the run cap (4 MiB) is judged as a run judges one: cut, marked truncated, its start kept', async () => {
    const recorded = await exchangeOf(entry('/v1/vault', JSON.stringify({ data: 'x'.repeat(6 * MiB) })))
    const cut = capped(recorded, 4 * MiB).exchange.response!
    expect(cut.truncated).toBe(true)
    expect(cut.jsonError).toBe('body truncated at the size cap')
    expect(Buffer.byteLength(cut.body)).toBeLessThanOrEqual(4 * MiB)
    const small = await exchangeOf(entry('/v1/vault', '{"data":{}}'))
    expect(capped(small, 4 * MiB)).toBe(small)
  })

  test('a HAR with a 45 MB body: judged, the body cut at the cap in the evidence, no crash', async () => {
    const path = harFile(
      JSON.stringify({
        log: { version: '1.2', entries: [entry('/v1/vault', JSON.stringify({ data: 'x'.repeat(45 * MiB) }))] },
      }),
    )
    const { report } = await checkHar(path)
    expect(report.traffic?.judged).toBe(1)
    const evidence = report.checks.map((c) => c.evidence?.response).filter((r) => r !== undefined)
    expect(report.checks.find((c) => c.id === 'every-response/request-id-format')?.status).toBe('failed')
    expect(evidence.length).toBeGreaterThan(0)
    for (const response of evidence) {
      expect(response.truncated).toBe(true)
      expect(response.bodyBytes).toBeLessThanOrEqual(4 * MiB)
    }
  })

  test('a body nested 100,000 deep is judged without a crash, and no check of its body passes on it', async () => {
    const { report } = await checkHar(
      harFile(JSON.stringify({ log: { version: '1.2', entries: [entry('/v1/vault', deepBody)] } })),
    )
    expect(report.traffic?.judged).toBe(1)
    expect(report.checks.some((c) => c.crashed)).toBe(false)
    expect(
      report.checks
        .find((c) => c.id === 'every-response/request-id-format')
        ?.evidence?.response?.bodyExcerpt.startsWith('{"a":{"a":'),
    ).toBe(true)
    expect(report.checks.find((c) => c.id === 'shapes/vault-checkpoint')?.status).not.toBe('passed')
  })
})

describe('a run against a target answering bodies nested 100,000 deep', () => {
  test('ends without a crash, the check of the vault body not passed, and a HAR written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-deep-run-'))
    const deep = {
      name: 'deep-vault',
      description: 'answers the vault with a body nested 100,000 deep',
      onResponse: (response: { raw?: string }, request: { path: string }) =>
        void (request.path === '/v1/vault' && (response.raw = deepBody)),
    }
    const report = await runAgainstReference(
      { behaviours: [deep] },
      {},
      { only: ['shapes/vault-checkpoint'], harPath: join(dir, 'exchanges.har') },
    )
    expect(report.checks.some((c) => c.crashed)).toBe(false)
    const vault = report.checks.find((c) => c.id === 'shapes/vault-checkpoint')!
    expect(vault.status, vault.reason).not.toBe('passed')
    expect(JSON.parse(readFileSync(join(dir, 'exchanges.har'), 'utf8')).log.entries.length).toBeGreaterThan(0)
  })
})

describe("the proxy's memory of signed writes (IDEM-SAME-BODY)", () => {
  test(`remembers the last ${WRITES_REMEMBERED} pairings of key and body, not every write`, () => {
    const writeKeys = new WriteKeys()
    const write = (i: number, key = `idem-key-${i}`) => writeKeys.record('intents', key, `{"n":${i}}`, `write ${i}`)
    for (let i = 0; i <= WRITES_REMEMBERED; i++) write(i)
    // The first write is forgotten: its body sent again under another key is not paired with it.
    write(0, 'idem-key-again-0')
    expect(writeKeys.breaches()).toEqual([])
    // The last one is remembered.
    write(WRITES_REMEMBERED, 'idem-key-again-last')
    expect(writeKeys.breaches().map((breach) => breach.message)).toEqual([
      `intents: write ${WRITES_REMEMBERED} sent a signed body again under Idempotency-Key "idem-key-again-last"; it was sent under "idem-key-${WRITES_REMEMBERED}" before`,
    ])
  })
})
