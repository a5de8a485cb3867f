import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { WebSocketServer, type WebSocket } from 'ws'
import { DEFAULT_SOCKET_BOUNDS, openWebSocket, type SocketBounds } from '../../src/http/websocket.js'

/**
 * The client side of a WebSocket channel (src/http/websocket.ts) against servers on 127.0.0.1: what it records of the
 * handshake and the messages, and its bounds (the messages kept, their size, the wait for an event, the body of a
 * refusal), so that a server that floods, refuses or says nothing gets a closed or failed socket, never a hang.
 */

const servers: Server[] = []
/** The socket servers of the test: their channels are ended after it, even when it failed before closing them. */
const socketServers: WebSocketServer[] = []
afterEach(async () => {
  for (const sockets of socketServers.splice(0)) {
    for (const socket of sockets.clients) socket.terminate()
    sockets.close()
  }
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** The server listening on 127.0.0.1, closed after the test: the ws:// URL of `path` on it. */
async function listening(server: Server, path = '/'): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push(server)
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}${path}`
}

/** A WebSocket server that runs `onConnection` for each channel; its URL. */
function socketServer(onConnection: (socket: WebSocket) => void): Promise<string> {
  const server = createServer((_, res) => res.writeHead(404).end())
  socketServers.push(new WebSocketServer({ server }).on('connection', onConnection))
  return listening(server, '/v1/stream')
}

/** What `pending` settles to before any timer can fire, or 'still waiting'. */
const settledAtOnce = <T>(pending: Promise<T>) =>
  Promise.race([pending, new Promise<'still waiting'>((resolve) => setImmediate(() => resolve('still waiting')))])

const bounds = (more: Partial<SocketBounds> = {}): SocketBounds => ({
  ...DEFAULT_SOCKET_BOUNDS,
  timeoutMs: 2000,
  ...more,
})

describe('a WebSocket channel', () => {
  test('records the upgrade, the headers sent, and each message both ways in order: text as it is, binary in base64', async () => {
    const url = await socketServer((socket) => {
      socket.on('message', (data) => {
        socket.send(`echo ${String(data)}`)
        socket.send(Buffer.from([0, 1, 255]), { binary: true })
      })
    })
    const before = performance.now()
    const channel = await openWebSocket(url, { 'x-api-key': 'k' }, bounds())
    expect(channel.upgraded).toBe(true)
    expect(channel.exchange.request).toEqual({ method: 'GET', url, headers: { 'x-api-key': 'k' } })
    expect(channel.exchange.response?.status).toBe(101)
    expect(channel.exchange.response?.headers.upgrade).toBe('websocket')
    expect(channel.exchange.response?.body, 'a 101 has no body').toBe('')
    expect(channel.exchange.response?.truncated).toBe(false)
    expect('json' in channel.exchange.response!, 'nor any JSON').toBe(false)
    expect(channel.exchange.retries).toEqual([])
    channel.send('{"op":"subscribe"}')
    const text = await channel.next()
    expect(text).toMatchObject({ kind: 'message', text: 'echo {"op":"subscribe"}' })
    const binary = await channel.next()
    expect(binary).toMatchObject({ kind: 'message', message: { type: 'receive', opcode: 2, data: 'AAH/' } })
    expect(channel.exchange.webSocketMessages?.map(({ type, opcode, data }) => [type, opcode, data])).toEqual([
      ['send', 1, '{"op":"subscribe"}'],
      ['receive', 1, 'echo {"op":"subscribe"}'],
      ['receive', 2, 'AAH/'],
    ])
    const times = channel.exchange.webSocketMessages!.map((m) => m.time)
    expect(
      times.every((t) => Math.abs(t - Date.now() / 1000) < 60),
      'times in seconds since the epoch',
    ).toBe(true)
    channel.close()
    expect(await channel.next(), 'a close seen from this side').toMatchObject({ kind: 'closed', code: 1000 })
    expect(channel.exchange.durationMs, 'within the time the test took').toBeLessThanOrEqual(
      Math.ceil(performance.now() - before),
    )
  })

  test('by default keeps 200 messages received, each of up to 256 KiB', async () => {
    const url = await socketServer((socket) => {
      socket.send('x'.repeat(256 * 1024))
      for (let i = 1; i <= 200; i++) socket.send(`m${i}`)
    })
    const channel = await openWebSocket(url, {}, DEFAULT_SOCKET_BOUNDS)
    const events = []
    for (let i = 0; i <= 200; i++) events.push(await channel.next())
    expect(events.filter((e) => e.kind === 'message')).toHaveLength(200)
    expect(events[200]).toEqual({ kind: 'failed', why: 'more than 200 messages: the suite closed the socket' })
    const over = await socketServer((socket) => socket.send('y'.repeat(256 * 1024 + 1)))
    const refused = await openWebSocket(over, {}, DEFAULT_SOCKET_BOUNDS)
    expect((await refused.next()).kind).not.toBe('message')
    expect(refused.exchange.webSocketMessages).toEqual([])
  })

  test('waits for an event no longer than asked, then says nothing came', async () => {
    const url = await socketServer(() => undefined)
    const channel = await openWebSocket(url, {}, bounds({ timeoutMs: 5000 }))
    const started = performance.now()
    expect(await channel.next(100)).toEqual({ kind: 'timeout' })
    expect(performance.now() - started, 'the wait given, not the bound').toBeLessThan(4000)
    channel.close()
  })

  test("gives the server's close as the event, and the same event ever after", async () => {
    const url = await socketServer((socket) => socket.close(4001, 'bye'))
    const channel = await openWebSocket(url, {}, bounds())
    expect(await channel.next()).toEqual({ kind: 'closed', code: 4001, reason: 'bye' })
    expect(await settledAtOnce(channel.next(60_000)), 'at once: nothing more is waited for').toEqual({
      kind: 'closed',
      code: 4001,
      reason: 'bye',
    })
    channel.send('late')
    expect(channel.exchange.webSocketMessages, 'nothing is sent on a closed socket').toEqual([])
  })

  test('keeps the messages received up to the bound and closes the socket at the next one', async () => {
    const url = await socketServer((socket) => {
      for (let i = 0; i < 5; i++) socket.send(`m${i}`)
    })
    const channel = await openWebSocket(url, {}, bounds({ maxMessages: 3 }))
    const events = [await channel.next(), await channel.next(), await channel.next(), await channel.next()]
    expect(events.map((e) => (e.kind === 'message' ? e.text : e.kind))).toEqual(['m0', 'm1', 'm2', 'failed'])
    expect(events[3]).toEqual({ kind: 'failed', why: 'more than 3 messages: the suite closed the socket' })
    expect(channel.exchange.webSocketMessages?.map((m) => m.data)).toEqual(['m0', 'm1', 'm2'])
  })

  test('counts the messages received against the bound, not those sent', async () => {
    const url = await socketServer((socket) => {
      socket.on('message', () => {
        socket.send('m0')
        socket.send('m1')
      })
    })
    const channel = await openWebSocket(url, {}, bounds({ maxMessages: 2 }))
    channel.send('go')
    const events = [await channel.next(), await channel.next()]
    expect(events.map((e) => (e.kind === 'message' ? e.text : e.kind))).toEqual(['m0', 'm1'])
    channel.close()
  })

  test('offers no extension in its handshake, and does not follow a redirect of the upgrade', async () => {
    const seen: { url?: string; extensions?: string }[] = []
    const server = createServer((_, res) => res.writeHead(404).end())
    const sockets = new WebSocketServer({ noServer: true })
    socketServers.push(sockets)
    server.on('upgrade', (req, socket, head) => {
      seen.push({ url: req.url, extensions: req.headers['sec-websocket-extensions'] })
      if (req.url === '/moved') socket.end('HTTP/1.1 302 Found\r\nlocation: /v1/stream\r\ncontent-length: 0\r\n\r\n')
      else sockets.handleUpgrade(req, socket, head, () => undefined)
    })
    const url = await listening(server, '/moved')
    const moved = await openWebSocket(url, {}, bounds())
    expect(moved.upgraded).toBe(false)
    expect(moved.exchange.response?.status).toBe(302)
    const direct = await openWebSocket(url.replace('/moved', '/v1/stream'), {}, bounds())
    expect(direct.upgraded).toBe(true)
    direct.close()
    expect(seen).toEqual([{ url: '/moved' }, { url: '/v1/stream' }])
  })

  test('closes the socket on a message over the size bound, keeping none of it', async () => {
    const url = await socketServer((socket) => {
      socket.send('x'.repeat(64))
      socket.send('y'.repeat(65))
    })
    const channel = await openWebSocket(url, {}, bounds({ maxMessageBytes: 64 }))
    expect(await channel.next()).toMatchObject({ kind: 'message', text: 'x'.repeat(64) })
    const over = await channel.next()
    expect(over.kind === 'failed' || over.kind === 'closed', JSON.stringify(over)).toBe(true)
    expect(channel.exchange.webSocketMessages?.map((m) => m.data.length)).toEqual([64])
    expect(channel.exchange.error, 'the upgrade succeeded: the exchange has no error').toBeUndefined()
  })

  test('records a refused upgrade: its status and the start of its body, and fails the socket', async () => {
    const url = await listening(
      createServer((_, res) =>
        res.writeHead(401, { 'content-type': 'application/json' }).end(`{"error":"${'z'.repeat(10_000)}"}`),
      ),
    )
    const channel = await openWebSocket(url, {}, bounds())
    expect(channel.upgraded).toBe(false)
    expect(channel.exchange.response?.status).toBe(401)
    expect(channel.exchange.response?.body).toHaveLength(4096)
    expect(channel.exchange.response?.truncated, 'the body is marked cut').toBe(true)
    expect(channel.exchange.response?.body.startsWith('{"error":"zzz')).toBe(true)
    expect(channel.exchange.response?.json, 'a body cut short is no JSON').toBeUndefined()
    expect(await channel.next()).toEqual({ kind: 'failed', why: 'the upgrade was answered 401' })
    expect(await settledAtOnce(channel.next(60_000)), 'the same failure ever after, at once').toEqual({
      kind: 'failed',
      why: 'the upgrade was answered 401',
    })
    expect(channel.exchange.error, 'the refusal is the answer, not an error').toBeUndefined()
  })

  test('records a refusal whose body is cut off by the connection with what came of it', async () => {
    const url = await listening(
      createServer((_, res) => {
        res.writeHead(401, { 'content-length': '100' }).write('{"error":')
        setTimeout(() => res.socket?.destroy(), 50)
      }),
    )
    const channel = await openWebSocket(url, {}, bounds())
    expect(channel.exchange.response).toMatchObject({ status: 401, body: '{"error":' })
    expect(await channel.next()).toEqual({ kind: 'failed', why: 'the upgrade was answered 401' })
  })

  test('keeps a refusal body of exactly 4096 characters whole; one character more, sent later, marks it cut', async () => {
    const body = `{"error":"${'z'.repeat(4096 - 12)}"}`
    const url = await listening(
      createServer((req, res) => {
        res.writeHead(401, { 'content-type': 'application/json' }).write(body)
        if (req.url === '/more') setTimeout(() => res.end(' '), 50)
        else res.end()
      }),
    )
    const whole = await openWebSocket(url, {}, bounds())
    expect(whole.exchange.response).toMatchObject({
      status: 401,
      body,
      truncated: false,
      json: { error: expect.any(String) },
    })
    const cut = await openWebSocket(`${url}more`, {}, bounds())
    expect(cut.exchange.response).toMatchObject({ status: 401, body, truncated: true })
  })

  test('reads the JSON of a short refusal', async () => {
    const url = await listening(
      createServer((_, res) => res.writeHead(403, { 'content-type': 'application/json' }).end('{"error":"no"}')),
    )
    const channel = await openWebSocket(url, {}, bounds())
    expect(channel.exchange.response).toMatchObject({ status: 403, body: '{"error":"no"}', json: { error: 'no' } })
  })

  test('names a connection that failed before any answer as the exchange error', async () => {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    await new Promise((resolve) => server.close(resolve))
    const channel = await openWebSocket(`ws://127.0.0.1:${port}/`, {}, bounds())
    expect(channel.upgraded).toBe(false)
    expect(channel.exchange.response).toBeUndefined()
    expect(channel.exchange.error?.code).toBe('WEBSOCKET_FAILED')
    expect(channel.exchange.error?.message).toMatch(/ECONNREFUSED/)
    expect(await channel.next()).toMatchObject({ kind: 'failed' })
  })

  test('ends the channel when its check ends (the signal aborts)', async () => {
    const url = await socketServer(() => undefined)
    const ended = new AbortController()
    const channel = await openWebSocket(url, {}, bounds(), ended.signal)
    ended.abort()
    expect(await channel.next()).toMatchObject({ kind: 'closed' })
  })
})
