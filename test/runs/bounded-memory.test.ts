import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { capped } from '../../src/cli/check-har.js'
import type { Report } from '../../src/core/report.js'
import { packageRoot } from '../../src/core/package-root.js'
import { reportOf } from '../../src/engine/report-of.js'
import { readHarEntries } from '../../src/har/read.js'
import type { Har, HarEntry } from '../../src/har/types.js'
import { exchangeOf } from '../../src/har/to-exchange.js'
import type { Exchange } from '../../src/http/exchange.js'
import { HarSpool } from '../../src/traffic/har-spool.js'
import { TrafficJudgement } from '../../src/traffic/judgement.js'
import { LearnedSecrets, SECRETS_REMEMBERED } from '../../src/traffic/learned-secrets.js'
import { WRITES_REMEMBERED, WriteKeys } from '../../src/traffic/write-keys.js'
import { harEntry } from '../support/har-entries.js'
import { cliRun } from '../support/output.js'
import { runAgainstReference } from '../support/run.js'

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
  return harEntry({
    url: `http://deployment.test${path}`,
    sent: { 'X-API-Key': apiKey },
    statusText: 'OK',
    headers: { 'content-type': 'application/json', 'x-request-id': 'req-1' },
    body,
  })
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
  const { code, report, err } = await cliRun(['check-har', path])
  if (!report) throw new Error(`check-har wrote no report.json: ${err}`)
  return { code, report }
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
        ?.evidence?.response?.bodyExcerpt.startsWith('{"a":"«unlisted member: '),
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

describe("the proxy's memory of keys and receipts", () => {
  /** Every tenth exchange sends this key again: seen that often, it is never forgotten. */
  const STEADY_KEY = 'ipts_live_steady_7f3e9a01'
  const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16)
  const keyOf = (i: number) => `ipts_live_${hashOf(`key ${i}`)}`
  // A slash and a plus: percent-encoded in the URL, as they are in the body.
  const receiptOf = (i: number) => `rcpt/${hashOf(`receipt ${i}`)}+9q`
  const keyAt = (i: number) => (i % 10 === 5 ? STEADY_KEY : keyOf(i))

  test('50,000 distinct keys and 50,000 receipts: never more than SECRETS_REMEMBERED at a time; the least recently seen are forgotten, those seen again keep their placeholder', () => {
    const learned = new LearnedSecrets()
    const told: { known: number; forgotten: string[] }[] = []
    learned.beforeForgetting((known, forgotten) =>
      told.push({ known: known.length, forgotten: forgotten.map((s) => s.value) }),
    )
    let most = 0
    for (let i = 0; i < 50_000; i++) {
      learned.learn({
        request: {
          method: 'GET',
          url: `http://deployment.test/v1/vault?receipt=${encodeURIComponent(receiptOf(i))}`,
          headers: { 'x-api-key': keyAt(i) },
        },
      })
      most = Math.max(most, learned.size)
    }
    expect(most).toBe(SECRETS_REMEMBERED)
    // 95,001 distinct: the first time one more than SECRETS_REMEMBERED are known, and again each time as many are
    // learned as were forgotten.
    expect(told.length, 'all but the most recent half forgotten at once').toBe(
      Math.floor((95_001 - (SECRETS_REMEMBERED + 1)) / (SECRETS_REMEMBERED / 2 + 1)) + 1,
    )
    expect(
      told.every((t) => t.known === SECRETS_REMEMBERED + 1 && t.forgotten.length === SECRETS_REMEMBERED / 2 + 1),
    ).toBe(true)
    expect(told[0]!.forgotten.slice(0, 2), 'the least recently seen first').toEqual([keyOf(0), receiptOf(0)])
    expect(
      told.some((t) => t.forgotten.includes(STEADY_KEY)),
      'the key seen every tenth exchange',
    ).toBe(false)
    const placeholders = new Map(learned.list().map((s) => [s.value, s.placeholder]))
    expect(placeholders.get(STEADY_KEY)).toBe('$IPTS_API_KEY_6')
    expect(placeholders.get(keyOf(49_999)), 'numbered in turn, forgotten ones counted').toBe('$IPTS_API_KEY_45001')
    expect(placeholders.has(keyOf(0))).toBe(false)
    expect(
      readFileSync(join(packageRoot, 'docs', 'traffic.md'), 'utf8'),
      'the bound as docs/traffic.md states it',
    ).toContain(`remembers the ${SECRETS_REMEMBERED} most`)
  })

  const EXCHANGES = 2_000
  /**
   * Exchange i sends a key and receipt i; its answer echoes them as they are and in base64, and names receipt i + 1,
   * which no request has sent yet (the last names its own). One in a thousand is an operation of the contract answered
   * with a request ID too
   * short, so that its evidence (the answer) is kept for the report.
   */
  function exchangeAt(i: number): Exchange {
    const key = keyAt(i)
    // Not JSON, so that the allowlist keeps it as it is, redacted by detection: what this test is about.
    const body = `echo ${JSON.stringify({
      key,
      keyBase64: Buffer.from(key).toString('base64'),
      receipt: receiptOf(i),
      next: receiptOf(Math.min(i + 1, EXCHANGES - 1)),
    })}`
    return {
      request: {
        method: 'GET',
        url: `http://deployment.test${i % 1000 === 0 ? '/v1/vault' : '/health'}?receipt=${encodeURIComponent(receiptOf(i))}`,
        headers: { 'x-api-key': key },
      },
      response: {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-request-id': 'req-1' },
        body,
        truncated: false,
      },
      startedAt: new Date(0).toISOString(),
      durationMs: 1,
      retries: [],
    }
  }

  /** Each form of a key or receipt the answers and requests carry, by the beginning all of them share. */
  const FORMS = ['ipts_live_', Buffer.from('ipts_live_').toString('base64').slice(0, 12), 'rcpt/', 'rcpt%2F', 'rcpt%2f']

  test(`the proxy's judgement and spool over ${EXCHANGES} exchanges, each with a key and a receipt of its own: none of them in the report or the HAR, though most were forgotten before they were written`, async () => {
    const judgement = new TrafficJudgement('proxy', 'http://deployment.test')
    const spool = await HarSpool.create(judgement.secrets)
    let most = 0
    for (let i = 0; i < EXCHANGES; i++) {
      const exchange = exchangeAt(i)
      judgement.judge(exchange)
      spool.add(exchange)
      most = Math.max(most, judgement.secrets.size)
      await spool.backlog()
    }
    expect(most).toBe(SECRETS_REMEMBERED)

    const report = JSON.stringify(reportOf({ ...judgement.findings(), strict: false }))
    const harPath = join(mkdtempSync(join(tmpdir(), 'ipts-learned-bound-')), 'exchanges.har')
    await spool.writeTo(harPath, judgement.secrets.list())
    const har = readFileSync(harPath, 'utf8')
    for (const form of FORMS) {
      expect(report.includes(form), `${form}… in the report`).toBe(false)
      expect(har.includes(form), `${form}… in the HAR`).toBe(false)
    }

    const entries = (JSON.parse(har) as Har).log.entries
    expect(entries).toHaveLength(EXCHANGES)
    const keyPlaceholder = (i: number) => entries[i]!.request.headers.find((h) => h.name === 'x-api-key')?.value
    expect([0, 1, EXCHANGES - 1].map(keyPlaceholder), 'each new key numbered in turn').toEqual([
      '$IPTS_API_KEY',
      '$IPTS_API_KEY_2',
      `$IPTS_API_KEY_${EXCHANGES * 0.9 + 1}`,
    ])
    expect(
      new Set(entries.flatMap((_, i) => (i % 10 === 5 ? [keyPlaceholder(i)] : []))),
      'the key seen again keeps its placeholder',
    ).toEqual(new Set(['$IPTS_API_KEY_6']))
    // The answer of exchange 0 named receipt 1 before a request sent it, and the report that kept it as evidence was
    // written long after receipt 1 was forgotten.
    const evidence = (JSON.parse(report) as Report).checks.find(
      (c) => c.id === 'every-response/request-id-format',
    )?.evidence
    // Receipt 1, found in the same answer, takes with it every stretch of receipt 2 it shares ('rcpt/'): what is left
    // of receipt 2 is named by its placeholder.
    const namesReceipt2 = /"next":"[^"]*\$IPTS_INTENT_RECEIPT_2[^"]*"/
    expect(evidence?.response?.bodyExcerpt).toMatch(namesReceipt2)
    expect(entries[0]!.response.content.text).toMatch(namesReceipt2)
  }, 120_000)
})
