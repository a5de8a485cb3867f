import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test, vi } from 'vitest'
import type { Exchange } from '../../src/http/exchange.js'
import type { Har } from '../../src/har/types.js'
import { HarSpool } from '../../src/traffic/har-spool.js'

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
