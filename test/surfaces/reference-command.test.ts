import { request } from 'undici'
import WebSocket from 'ws'
import { afterEach, describe, expect, test } from 'vitest'
import { exitOf, firstLine, spawnBin } from '../support/bin.js'
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import type { Ready } from '../support/reference-ready.js'

const started: ChildProcessWithoutNullStreams[] = []

function serve(args: string[]): { child: ChildProcessWithoutNullStreams; ready: Promise<Ready> } {
  const child = spawnBin(['reference', ...args])
  started.push(child)
  return { child, ready: firstLine(child).then((line) => JSON.parse(line) as Ready) }
}

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

describe('ipts-conformance reference', () => {
  test('prints one JSON line with the URL, keys, trader and intents, serves them, and stops on SIGTERM with exit 0', async () => {
    const { child, ready } = serve(['--seed', '5'])
    const line = await ready
    expect(Object.keys(line)).toEqual(['url', 'apiKey', 'restrictedApiKey', 'trader', 'intents', 'realtime'])
    expect(line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const [intent] = line.intents
    const response = await request(`${line.url}/v1/intents/${intent!.hash}?receipt=${intent!.receipt}`, {
      headers: { 'x-api-key': line.apiKey, accept: 'application/json' },
    })
    const body = (await response.body.json()) as { orderHash: string }
    expect(response.statusCode).toBe(200)
    expect(body.orderHash).toBe(intent!.hash)
    const refused = await request(`${line.url}/v1/vault`, { headers: { 'x-api-key': 'not-a-key' } })
    await refused.body.dump()
    expect(refused.statusCode).toBe(401)
    child.kill('SIGTERM')
    expect(await exitOf(child)).toBe(0)
  })

  test("serves realtime channels: a ticket for the key, then an intent channel opened with its receipt in a message, refused with another intent's", async () => {
    const { ready } = serve(['--seed', '6'])
    const line = await ready
    expect(line.realtime.websocket).toMatch(/^\/v1\/realtime\?ticket=\{ticket\}/)
    const ticketOf = async () => {
      const answer = await request(`${line.url}/v1/realtime/tickets`, {
        method: 'POST',
        headers: { 'x-api-key': line.apiKey, 'content-type': 'application/json' },
        body: '{}',
      })
      expect(answer.statusCode).toBe(201)
      return ((await answer.body.json()) as { data: { ticket: string } }).data.ticket
    }
    const [own, other] = line.intents
    const answersTo = async (receipt: string) => {
      const socket = new WebSocket(`${line.url.replace('http', 'ws')}/v1/realtime?ticket=${await ticketOf()}`)
      const received: unknown[] = []
      await new Promise<void>((resolve) => {
        socket.on('open', () =>
          socket.send(JSON.stringify({ type: 'subscribe', channel: `intent:${own!.hash}`, receipt })),
        )
        socket.on('message', (data) => received.push(JSON.parse(String(data))) >= 2 && socket.close())
        socket.on('close', (code) => (received.push(code), resolve()))
      })
      return received
    }
    expect(await answersTo(own!.receipt)).toEqual([
      { type: 'subscribed', channel: `intent:${own!.hash}` },
      expect.objectContaining({ type: 'event', kind: 'failed', snapshot: true }),
      1005,
    ])
    expect(await answersTo(other!.receipt)).toEqual([
      expect.objectContaining({ type: 'error', code: 'receipt_mismatch' }),
      4403,
    ])
    const refused = await request(`${line.url}/v1/realtime/tickets`, { method: 'POST', body: '{}' })
    await refused.body.dump()
    expect(refused.statusCode).toBe(401)
  })

  test('the same --seed gives the same keys and receipts, another seed others', async () => {
    const [a, b, c] = [serve(['--seed', '9']), serve(['--seed', '9']), serve(['--seed', '10'])]
    const [first, second, third] = await Promise.all([a.ready, b.ready, c.ready])
    const { url: _a, ...sameA } = first
    const { url: _b, ...sameB } = second
    expect(sameA).toEqual(sameB)
    expect(third.apiKey).not.toBe(first.apiKey)
    expect(third.intents[0]!.receipt).not.toBe(first.intents[0]!.receipt)
    for (const { child } of [a, b, c]) child.kill('SIGINT')
    expect(await Promise.all([a, b, c].map(({ child }) => exitOf(child)))).toEqual([0, 0, 0])
  })

  test('serves a named fault: the fault shows in the response', async () => {
    const { ready } = serve(['--fault', 'market-paused-as-string'])
    const line = await ready
    const response = await request(`${line.url}/v1/markets`, { headers: { 'x-api-key': line.apiKey } })
    const body = (await response.body.json()) as { data: { paused: unknown }[] }
    expect(typeof body.data[0]!.paused).toBe('string')
  })

  test('--list names every fault and allowance', async () => {
    const child = spawnBin(['reference', '--list'])
    let out = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    expect(await exitOf(child)).toBe(0)
    const { faults } = await import('../../src/reference/faults/index.js')
    const { allowances } = await import('../../src/reference/allowances/index.js')
    for (const behaviour of [...faults, ...allowances]) expect(out, behaviour.name).toContain(`  ${behaviour.name} `)
  })

  test.each([
    [['--port', '70000'], /--port/],
    [['--fault', 'no-such-fault'], /unknown reference fault no-such-fault/],
    [['--quota-window-ms', '10'], /--quota-window-ms needs --quota/],
    [['extra'], /unexpected argument "extra"/],
  ])('%j exits 2 with one line', async (args, pattern) => {
    const child = spawnBin(['reference', ...args])
    let err = ''
    child.stderr.on('data', (chunk) => (err += chunk))
    expect(await exitOf(child)).toBe(2)
    expect(err.trimEnd().split('\n')).toHaveLength(1)
    expect(err).toMatch(pattern)
  })
})
