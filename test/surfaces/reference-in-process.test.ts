import { request } from 'undici'
import { describe, expect, test } from 'vitest'
import { parseReferenceArgs, reference } from '../../src/cli/reference.js'
import { referenceSign } from '../../src/cli/reference-sign.js'
import { UsageError } from '../../src/core/errors.js'
import { allowances } from '../../src/reference/allowances/index.js'
import { faults } from '../../src/reference/faults/index.js'
import { rawTarget } from '../support/hostile-servers.js'
import { captureOutput } from '../support/output.js'
import type { Ready } from '../support/reference-ready.js'

/**
 * `ipts-conformance reference` in this process (test/surfaces/reference-command.test.ts runs it through the bin): its
 * ready line, and a stop that does what the signal does, through the listener the command added for it.
 */
async function serve(args: string[]): Promise<{ ready: Ready; stop(signal: 'SIGINT' | 'SIGTERM'): Promise<number> }> {
  const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') }
  const { out, restore } = captureOutput()
  const served = reference(parseReferenceArgs(args))
  try {
    await expect.poll(() => out.length, { timeout: 20_000, interval: 20 }).toBe(1)
  } finally {
    restore()
  }
  expect(out[0]).toMatch(/^\{.*\}\n$/)
  return {
    ready: JSON.parse(out[0]!) as Ready,
    async stop(signal) {
      const added = process.listeners(signal).filter((listener) => !before[signal].includes(listener))
      expect(added, `one ${signal} listener added`).toHaveLength(1)
      added[0]!(signal)
      const code = await served
      expect(process.listeners('SIGINT'), 'the SIGINT listener removed').toEqual(before.SIGINT)
      expect(process.listeners('SIGTERM'), 'the SIGTERM listener removed').toEqual(before.SIGTERM)
      return code
    },
  }
}

const get = async (url: string, key: string) => {
  const response = await request(url, { headers: { 'x-api-key': key, accept: 'application/json' } })
  return { status: response.statusCode, body: (await response.body.json()) as Record<string, unknown> }
}

describe('ipts-conformance reference, in this process', () => {
  test('prints its ready line, serves its intents to its key, and on SIGTERM closes, ends 0 and leaves no listener', async () => {
    const { ready, stop } = await serve(['--seed', '5'])
    expect(Object.keys(ready)).toEqual(['url', 'apiKey', 'restrictedApiKey', 'trader', 'intents', 'realtime'])
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(ready.intents.length).toBeGreaterThan(0)
    for (const intent of ready.intents) expect(Object.keys(intent)).toEqual(['hash', 'receipt'])
    expect(ready.realtime.websocket).toMatch(/^\/v1\/realtime\?ticket=\{ticket\}/)
    const [intent] = ready.intents
    const served = await get(`${ready.url}/v1/intents/${intent!.hash}?receipt=${intent!.receipt}`, ready.apiKey)
    expect(served.status).toBe(200)
    expect(served.body.orderHash).toBe(intent!.hash)
    expect((await get(`${ready.url}/v1/vault`, 'not-a-key')).status).toBe(401)
    expect(await stop('SIGTERM')).toBe(0)
    await expect(request(`${ready.url}/v1/vault`), 'the server closed').rejects.toThrow()
  })

  test('stops on SIGINT too; the same --seed gives the same keys and receipts, no --seed a new one each time', async () => {
    const firsts: Ready[] = []
    for (const args of [['--seed', '9'], ['--seed', '9'], [], []]) {
      const { ready, stop } = await serve(args)
      firsts.push(ready)
      expect(await stop('SIGINT')).toBe(0)
    }
    const [a, b, c, d] = firsts.map(({ url: _url, ...rest }) => rest)
    expect(a).toEqual(b)
    expect(c!.apiKey).not.toBe(a!.apiKey)
    expect(d!.apiKey, 'two runs without --seed').not.toBe(c!.apiKey)
    expect(d!.intents[0]!.receipt).not.toBe(c!.intents[0]!.receipt)
  })

  test('serves its --fault, its --quota over --quota-window-ms, and its --latency-ms', async () => {
    const { ready, stop } = await serve([
      '--fault',
      'market-paused-as-string',
      '--quota',
      '3',
      '--quota-window-ms',
      '60000',
      '--latency-ms',
      '300',
    ])
    const started = Date.now()
    const markets = await get(`${ready.url}/v1/markets`, ready.apiKey)
    expect(Date.now() - started, 'the latency before the response').toBeGreaterThanOrEqual(290)
    expect(typeof (markets.body.data as { paused: unknown }[])[0]!.paused).toBe('string')
    const statuses = [] as number[]
    for (let i = 0; i < 3; i++) statuses.push((await get(`${ready.url}/v1/markets`, ready.apiKey)).status)
    expect(statuses, 'three allowed in the window, then a 429').toEqual([200, 200, 429])
    expect(await stop('SIGTERM')).toBe(0)
  })

  test('--list names every fault with the checks it breaks and every allowance with what permits it, aligned', async () => {
    const { out, restore } = captureOutput()
    let code: number
    try {
      code = await reference(parseReferenceArgs(['--list']))
    } finally {
      restore()
    }
    expect(code).toBe(0)
    const lines = out.join('').split('\n')
    const width = Math.max(...[...faults, ...allowances].map((b) => b.name.length))
    expect(lines).toEqual([
      'Faults (each breaks exactly the checks it names):',
      ...faults.map((f) => `  ${f.name.padEnd(width)}  ${f.description} (breaks ${f.breaks.join(', ')})`),
      '',
      'Allowances (behaviour the contract permits):',
      ...allowances.map((a) => `  ${a.name.padEnd(width)}  ${a.description} (permitted by ${a.permittedBy})`),
      '',
    ])
    expect(
      faults.some((f) => f.breaks.length > 1),
      'a fault that breaks two checks',
    ).toBe(true)
  })

  test('a port taken is a usage error naming the port, the host and the cause', async () => {
    const taken = await rawTarget(() => undefined)
    const { port } = new URL(taken.baseUrl)
    try {
      await expect(reference(parseReferenceArgs(['--port', port]))).rejects.toMatchObject({
        name: 'UsageError',
        message: `--port ${port} on --host 127.0.0.1: cannot listen (EADDRINUSE)`,
      })
    } finally {
      await taken.close()
    }
  })
})

describe('ipts-conformance reference sign, in this process', () => {
  const HASH = `0x${'ab'.repeat(32)}`
  const ONE_KIND =
    'reference sign needs one kind of body: intent or cancellation (a cancellation then the hash of the intent it cancels, if any)'
  const signed = (argv: string[]) => {
    const out: string[] = []
    try {
      return { code: referenceSign(argv, { write: (text: string) => out.push(text) } as never), out: out.join('') }
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError)
      return { refused: (error as Error).message }
    }
  }

  test('refuses anything but one kind of body', () => {
    for (const argv of [[], ['order'], ['intent', HASH, 'more'], ['cancellation', HASH, HASH]])
      expect(signed(argv), argv.join(' ')).toEqual({ refused: ONE_KIND })
  })

  test('refuses an intent after anything but a cancellation, and one that is no hash', () => {
    const onlyCancellation = (given: string) =>
      `reference sign: only a cancellation names an intent, by its hash (0x and 64 hex digits), got ${JSON.stringify(given)}`
    expect(signed(['intent', HASH])).toEqual({ refused: onlyCancellation(HASH) })
    expect(signed(['cancellation', HASH.slice(0, -1)])).toEqual({ refused: onlyCancellation(HASH.slice(0, -1)) })
    expect(signed(['cancellation', `${HASH}0`])).toEqual({ refused: onlyCancellation(`${HASH}0`) })
  })

  test('prints one body of each kind, and a cancellation of the intent it names', () => {
    for (const argv of [['intent'], ['cancellation'], ['cancellation', HASH]]) {
      const { code, out } = signed(argv)
      expect(code, argv.join(' ')).toBe(0)
      expect(out).toMatch(/^\{.*\}\n$/)
    }
    expect(signed(['cancellation', HASH]).out).toContain(HASH)
    expect(signed(['cancellation']).out).not.toContain(HASH)
  })
})
