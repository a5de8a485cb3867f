import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { Exchange } from '../../src/http/exchange.js'
import type { Har } from '../../src/har/types.js'
import { HarSpool, LOOK_AHEAD_EXCHANGES } from '../../src/traffic/har-spool.js'
import { LearnedSecrets, SECRETS_REMEMBERED } from '../../src/traffic/learned-secrets.js'

const KEY = 'ipts_live_4f0c9e27b1d84a6f'
const TRUNCATED_KEY = 'ipts_live_93be1c07aa5d'

function exchange(
  path: string,
  headers: Record<string, string>,
  body: string,
  truncated = false,
  responseHeaders: Record<string, string> = {},
): Exchange {
  return {
    request: { method: 'GET', url: `http://127.0.0.1:1${path}`, headers },
    response: { status: 200, headers: { 'content-type': 'application/json', ...responseHeaders }, body, truncated },
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    retries: [],
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
}

const tmpdirBefore = process.env.TMPDIR
afterEach(() => {
  if (tmpdirBefore === undefined) delete process.env.TMPDIR
  else process.env.TMPDIR = tmpdirBefore
})

test('the spool on disk holds no secret readable, even one learned after the exchange that carried it; the HAR redacts it and cuts a truncated tail', async () => {
  const harPath = join(mkdtempSync(join(tmpdir(), 'ipts-spool-har-')), 'exchanges.har')
  const spoolRoot = mkdtempSync(join(tmpdir(), 'ipts-spool-root-'))
  process.env.TMPDIR = spoolRoot
  const spool = await HarSpool.create()
  // A response names the key before any request sends it: nothing knows it is a secret when the exchange is spooled.
  // (In a header the contract names: the HAR keeps its value, redacted, where an unlisted member is a stand-in.)
  spool.add(exchange('/v1/config', {}, '{}', false, { 'x-request-id': KEY }))
  spool.add(exchange('/v1/markets', { 'x-api-key': KEY }, '{"data":[]}'))
  spool.add(exchange('/v1/vault', {}, `{"data":"${TRUNCATED_KEY.slice(0, 12)}`, true))
  // The stream writes to disk when the event loop lets it: waited for, however loaded the machine.
  await vi.waitFor(
    () =>
      expect(
        filesUnder(spoolRoot).some((path) => statSync(path).size > 0),
        'spooled to disk',
      ).toBe(true),
    { timeout: 20_000, interval: 20 },
  )
  const spooled = filesUnder(spoolRoot)
  expect(spooled.length, 'the spool file exists while the proxy runs').toBeGreaterThan(0)
  for (const path of spooled) {
    const bytes = readFileSync(path)
    expect(bytes.length, `${path} holds the spooled exchanges`).toBeGreaterThan(0)
    for (const secret of [KEY, Buffer.from(KEY).toString('base64'), 'x-api-key', '/v1/markets'])
      expect(bytes.includes(secret), `${secret} readable in ${path}`).toBe(false)
  }

  await spool.writeTo(harPath, [
    { value: KEY, placeholder: '$IPTS_API_KEY' },
    { value: TRUNCATED_KEY, placeholder: '$IPTS_API_KEY_2' },
  ])
  const text = readFileSync(harPath, 'utf8')
  const har = JSON.parse(text) as Har
  expect(har.log.entries.map((e) => new URL(e.request.url).pathname)).toEqual([
    '/v1/config',
    '/v1/markets',
    '/v1/vault',
  ])
  expect(text.includes(KEY), 'the key learned from a later request').toBe(false)
  expect(har.log.entries[0]!.response.headers).toContainEqual({ name: 'x-request-id', value: '$IPTS_API_KEY' })
  expect(har.log.entries[1]!.request.headers).toContainEqual({ name: 'x-api-key', value: '$IPTS_API_KEY' })
  const cut = har.log.entries[2]!.response.content.text!
  expect(cut.startsWith('{"data":"'), cut).toBe(true)
  expect(cut.includes(TRUNCATED_KEY.slice(0, 8)), 'the beginning of a secret where the body was cut').toBe(false)
  expect(filesUnder(spoolRoot), 'the spool is removed once the HAR is written').toEqual([])
})

test('a spool behind the traffic says so until it has caught up: the proxy waits on it, so memory does not pile up', async () => {
  const spool = await HarSpool.create()
  expect(spool.backlog(), 'an empty spool holds nothing back').toBeUndefined()
  const body = JSON.stringify({ data: 'x'.repeat(64 * 1024) })
  for (let i = 0; i < 50; i++) spool.add(exchange('/v1/vault', {}, body))
  const behind = spool.backlog()
  expect(behind, 'more than the stream buffers is not yet on disk').toBeInstanceOf(Promise)
  await behind
  expect(spool.backlog(), 'drained').toBeUndefined()
  const harPath = join(mkdtempSync(join(tmpdir(), 'ipts-spool-backlog-')), 'exchanges.har')
  await spool.writeTo(harPath, [])
  expect((JSON.parse(readFileSync(harPath, 'utf8')) as Har).log.entries).toHaveLength(50)
})

describe("a spool given the learned secrets (the proxy's), which forget all but the most recent", () => {
  const A = 'ipts_live_a1b2c3d4e5f60718'
  const R2 = 'rcpt_2222aaaabbbbcccc'
  const R3 = 'rcpt_3333ddddeeeeffff'
  let keys = 0
  /** Learns new keys until the learned secrets forget some (the spool sets its exchanges aside). */
  function forget(learned: LearnedSecrets): void {
    for (let size = -1; learned.size > size;) {
      size = learned.size
      learned.learn(exchange('/v1/markets', { 'x-api-key': `k-${++keys}-0123456789` }, ''))
    }
  }
  function shownTo(learned: LearnedSecrets, spool: HarSpool) {
    return (shown: Exchange) => {
      learned.learn(shown)
      spool.add(shown)
    }
  }
  const intent = (receipt: string) => exchange(`/v1/intents/0x${'a'.repeat(64)}?receipt=${receipt}`, {}, '{}')
  const harRoot = mkdtempSync(join(tmpdir(), 'ipts-spool-learned-'))
  let hars = 0
  const harAt = () => join(harRoot, `${++hars}.har`)
  /** The entries of the HAR the spool writes, with no secret given at the end. */
  async function entriesWritten(spool: HarSpool) {
    const har = harAt()
    await spool.writeTo(har, [])
    return (JSON.parse(readFileSync(har, 'utf8')) as Har).log.entries
  }
  /** The resource an entry reads: 'markets' of /v1/markets. */
  const resourceOf = (entry: { request: { url: string } }) => new URL(entry.request.url).pathname.split('/')[2]
  const valueOf = (headers: { name: string; value: string }[], name: string) =>
    headers.find((h) => h.name === name)?.value

  test(`sets its exchanges aside when secrets are forgotten, and redacts them ${LOOK_AHEAD_EXCHANGES} exchanges later with what is known then`, async () => {
    const spoolRoot = mkdtempSync(join(tmpdir(), 'ipts-spool-root-'))
    process.env.TMPDIR = spoolRoot
    const learned = new LearnedSecrets()
    const spool = await HarSpool.create(learned)
    const show = shownTo(learned, spool)
    show(exchange('/v1/markets', { 'x-api-key': A }, '{"data":[]}'))
    show(exchange('/v1/config', {}, '{}', false, { 'x-request-id': R2 }))
    show(exchange('/v1/config', {}, '{}', false, { 'x-request-id': R3 }))
    forget(learned)
    expect(
      learned.list().some(({ value }) => value === A),
      'the key is forgotten',
    ).toBe(false)
    // A file is created when the event loop lets its stream open it.
    await vi.waitFor(
      () =>
        expect(
          filesUnder(spoolRoot)
            .map((path) => basename(path))
            .sort(),
        ).toEqual(['exchanges-0.jsonl.enc', 'exchanges-1.jsonl.enc']),
      { timeout: 20_000, interval: 20 },
    )
    for (const path of filesUnder(spoolRoot)) expect(statSync(path).mode & 0o777, path).toBe(0o600)
    for (let n = 1; n < LOOK_AHEAD_EXCHANGES; n++) show(exchange('/v1/vault', {}, '{}'))
    // R2 is learned by the last exchange of the look-ahead, R3 by the one after it.
    show(intent(R2))
    expect(spool.backlog(), 'one segment being redacted holds nothing back').toBeUndefined()
    show(intent(R3))
    // No secret at the end: what is redacted was redacted when the exchanges set aside were.
    const entries = await entriesWritten(spool)
    expect(entries.map(resourceOf)).toEqual([
      'markets',
      'config',
      'config',
      ...Array<string>(LOOK_AHEAD_EXCHANGES - 1).fill('vault'),
      'intents',
      'intents',
    ])
    expect(valueOf(entries[0]!.request.headers, 'x-api-key'), 'the forgotten key, known when set aside').toBe(
      '$IPTS_API_KEY',
    )
    expect(valueOf(entries[1]!.response.headers, 'x-request-id'), 'learned within the look-ahead').toBe(
      '$IPTS_INTENT_RECEIPT',
    )
    expect(valueOf(entries[2]!.response.headers, 'x-request-id'), 'learned after it').toBe(R3)
    expect(entries.every((e) => !('_checks' in e))).toBe(true)
    expect(filesUnder(spoolRoot), 'the spool is removed once the HAR is written').toEqual([])
  })

  test('set aside again before the look-ahead ends: each segment redacted in turn, the traffic held back while two are behind', async () => {
    const learned = new LearnedSecrets()
    const spool = await HarSpool.create(learned)
    const show = shownTo(learned, spool)
    show(exchange('/v1/markets', { 'x-api-key': A }, '{}'))
    forget(learned)
    show(exchange('/v1/config', {}, '{}', false, { 'x-request-id': R2 }))
    forget(learned)
    show(exchange('/v1/vault', {}, '{}'))
    forget(learned)
    const behind = spool.backlog()
    expect(behind, 'two segments queued for redaction').toBeInstanceOf(Promise)
    await behind
    expect(spool.backlog(), 'caught up').toBeUndefined()
    show(intent(R2))
    const entries = await entriesWritten(spool)
    expect(entries.map(resourceOf)).toEqual(['markets', 'config', 'vault', 'intents'])
    expect(valueOf(entries[0]!.request.headers, 'x-api-key')).toBe('$IPTS_API_KEY')
    expect(valueOf(entries[1]!.response.headers, 'x-request-id'), 'not learned before its segment was redacted').toBe(
      R2,
    )
    expect(entries[3]!.request.url, 'the exchanges since, with the secrets given at the end (none)').toContain(R2)
  })

  test('a segment still waiting when the HAR is written is redacted with the secrets known then', async () => {
    const learned = new LearnedSecrets()
    const spool = await HarSpool.create(learned)
    const show = shownTo(learned, spool)
    show(exchange('/v1/markets', { 'x-api-key': A }, '{}'))
    forget(learned)
    show(exchange('/v1/config', {}, '{}'))
    const entries = await entriesWritten(spool)
    expect(entries.map((e) => new URL(e.request.url).pathname)).toEqual(['/v1/markets', '/v1/config'])
    expect(valueOf(entries[0]!.request.headers, 'x-api-key')).toBe('$IPTS_API_KEY')
  })

  test('the entries redacted before are redacted again with the secrets given when the HAR is written', async () => {
    const learned = new LearnedSecrets()
    const spool = await HarSpool.create(learned)
    shownTo(learned, spool)(exchange('/v1/config', {}, '{}', false, { 'x-request-id': R2 }))
    forget(learned)
    const har = harAt()
    await spool.writeTo(har, [{ value: R2, placeholder: '$IPTS_INTENT_RECEIPT' }])
    const [entry] = (JSON.parse(readFileSync(har, 'utf8')) as Har).log.entries
    expect(valueOf(entry!.response.headers, 'x-request-id')).toBe('$IPTS_INTENT_RECEIPT')
  })

  test('a segment that cannot be read back fails the HAR, and the spool is removed all the same', async () => {
    const spoolRoot = mkdtempSync(join(tmpdir(), 'ipts-spool-root-'))
    process.env.TMPDIR = spoolRoot
    const learned = new LearnedSecrets()
    const spool = await HarSpool.create(learned)
    shownTo(learned, spool)(exchange('/v1/markets', { 'x-api-key': A }, '{}'))
    forget(learned)
    const first = await vi.waitFor(
      () => filesUnder(spoolRoot).find((path) => path.endsWith('exchanges-0.jsonl.enc')) ?? expect.fail('not yet'),
      { timeout: 20_000, interval: 20 },
    )
    rmSync(first)
    await expect(spool.writeTo(harAt(), [])).rejects.toThrow(/ENOENT/)
    expect(filesUnder(spoolRoot)).toEqual([])
  })
})

test('the HAR written at once holds every exchange added, none left in a buffer', async () => {
  const spool = await HarSpool.create()
  const body = JSON.stringify({ data: 'x'.repeat(64 * 1024) })
  for (let i = 0; i < 40; i++) spool.add(exchange(`/v1/vault?n=${i}`, {}, body))
  const harPath = join(mkdtempSync(join(tmpdir(), 'ipts-spool-at-once-')), 'exchanges.har')
  await spool.writeTo(harPath, [])
  const entries = (JSON.parse(readFileSync(harPath, 'utf8')) as Har).log.entries
  expect(entries.map((e) => new URL(e.request.url).searchParams.get('n'))).toEqual(
    Array.from({ length: 40 }, (_, i) => String(i)),
  )
})

/** The files under dir this process holds open (Linux: the links of /proc/self/fd; a removed file still counts). */
function openUnder(dir: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(join('/proc/self/fd', fd))
      return target.startsWith(dir) ? [target] : []
    } catch {
      return []
    }
  })
}

test.runIf(existsSync('/proc/self/fd'))('writing the HAR closes every file of the spool', async () => {
  const spoolRoot = realpathSync(mkdtempSync(join(tmpdir(), 'ipts-spool-fds-')))
  process.env.TMPDIR = spoolRoot
  const learned = new LearnedSecrets()
  const spool = await HarSpool.create(learned)
  spool.add(exchange('/v1/markets', { 'x-api-key': KEY }, '{"data":[]}'))
  await vi.waitFor(() =>
    expect(openUnder(spoolRoot).length, 'the spool writes a file while it runs').toBeGreaterThan(0),
  )
  // Enough keys learned for the spool to set its first file aside and write a second, and entries redacted before.
  for (let n = 0; n <= SECRETS_REMEMBERED; n++) {
    learned.learn(exchange('/v1/markets', { 'x-api-key': `other-key-${n}-0123456789` }, '{}'))
    spool.add(exchange('/v1/markets', {}, '{}'))
  }
  for (let n = 0; n < LOOK_AHEAD_EXCHANGES; n++) spool.add(exchange('/v1/markets', {}, '{}'))
  await spool.writeTo(join(mkdtempSync(join(tmpdir(), 'ipts-spool-fds-har-')), 'exchanges.har'), [])
  expect(openUnder(spoolRoot)).toEqual([])
})

test('a spool behind again after it caught up waits on a new drain', async () => {
  const spool = await HarSpool.create()
  const body = JSON.stringify({ data: 'x'.repeat(64 * 1024) })
  for (let i = 0; i < 20; i++) spool.add(exchange('/v1/vault', {}, body))
  const first = spool.backlog()
  expect(first).toBeInstanceOf(Promise)
  await first
  for (let i = 0; i < 20; i++) spool.add(exchange('/v1/vault', {}, body))
  const second = spool.backlog()
  expect(second).toBeInstanceOf(Promise)
  expect(second, 'not the drain already past').not.toBe(first)
  await second
  await spool.writeTo(join(mkdtempSync(join(tmpdir(), 'ipts-spool-again-')), 'exchanges.har'), [])
})
