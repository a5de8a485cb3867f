import { EventEmitter, once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net'
import { networkInterfaces } from 'node:os'
import { gzipSync } from 'node:zlib'
import { Agent, request } from 'undici'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { WebSocket, WebSocketServer, type RawData } from 'ws'
import type { Exchange } from '../../src/http/exchange.js'
import { startProxyServer, type ProxyServer, type ProxyServerOptions } from '../../src/traffic/proxy-server.js'
import { drainedOrClosed, tunnelUpgrade } from '../../src/traffic/upgrade-tunnel.js'

const hasIpv6Loopback = Object.values(networkInterfaces())
  .flat()
  .some((address) => address?.internal && address.family === 'IPv6')

/** What the upstream saw of one request. */
interface Seen {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

const GIVE_UP_MS = 10_000

const UPGRADE_REQUEST =
  'GET /v1/realtime HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
  'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n'

const closers: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

/** An HTTP server on 127.0.0.1 that records each request and answers it with handle. */
async function upstreamServer(handle: (seen: Seen, res: ServerResponse) => void) {
  const seen: Seen[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const one = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() }
      seen.push(one)
      handle(one, res)
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  closers.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))))
  return { server, seen, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

interface Recorded {
  exchanges: { exchange: Exchange; upstreamFailed: boolean }[]
  channels: Exchange[]
  malformed: number
  proxy: ProxyServer
}

async function proxyTo(upstream: string, options: Partial<ProxyServerOptions> = {}): Promise<Recorded> {
  const recorded: Omit<Recorded, 'proxy'> = { exchanges: [], channels: [], malformed: 0 }
  const proxy = await startProxyServer({
    upstream,
    host: '127.0.0.1',
    port: 0,
    requestTimeoutMs: 5_000,
    maxBodyBytes: 1_000,
    onExchange: (exchange, upstreamFailed) => recorded.exchanges.push({ exchange, upstreamFailed }),
    onChannel: (exchange) => recorded.channels.push(exchange),
    onMalformedRequest: () => recorded.malformed++,
    ...options,
  })
  let closed = false
  closers.push(() => (closed ? Promise.resolve() : proxy.close()))
  return Object.assign(recorded, {
    proxy: { url: proxy.url, close: () => ((closed = true), proxy.close()) },
  })
}

/** A request on a connection of its own. */
async function fresh(url: string, options: Parameters<typeof request>[1] = {}) {
  // A bound far beyond a local answer: a proxy that never ends a response fails the test instead of holding it.
  const dispatcher = new Agent({ pipelining: 0, headersTimeout: GIVE_UP_MS, bodyTimeout: GIVE_UP_MS })
  try {
    const answer = await request(url, { ...options, dispatcher })
    const body = Buffer.from(await answer.body.arrayBuffer())
    return { status: answer.statusCode, headers: answer.headers, body }
  } finally {
    await dispatcher.close()
  }
}

/** A socket connected to the proxy at `url`, for a test that writes and reads on it as it goes. */
async function connected(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url)
  const socket = connect(Number(port), hostname)
  await once(socket, 'connect')
  return socket
}

/** Sends raw bytes on a socket of its own and reads until the proxy closes it. */
async function raw(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url)
  const socket: Socket = connect(Number(port), hostname).setTimeout(GIVE_UP_MS, () => socket.destroy())
  await once(socket, 'connect')
  socket.write(bytes)
  const chunks: Buffer[] = []
  socket.on('data', (chunk: Buffer) => chunks.push(chunk))
  await once(socket, 'close')
  return Buffer.concat(chunks).toString()
}

/** Until the proxy has told of count exchanges (it does once the response has ended and been decoded). */
async function told(recorded: Recorded, count: number, what: 'exchanges' | 'channels' = 'exchanges'): Promise<void> {
  await vi.waitFor(() => expect(recorded[what].length).toBeGreaterThanOrEqual(count), {
    timeout: GIVE_UP_MS,
    interval: 5,
  })
}

async function closedPort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/**
 * An HTTP server on 127.0.0.1 that answers status with a body it writes as fast as its reader takes it, up to total:
 * how much it wrote, whether its last write waits for the reader, whether it ended, and whether its connection closed.
 */
async function endlessUpstream(status: number, total = 256 * 1024 * 1024) {
  const state = { written: 0, waiting: false, ended: false, closed: false }
  const chunk = Buffer.alloc(64 * 1024, 'x')
  const server = createServer((_, res) => {
    res.writeHead(status, { 'content-type': 'text/plain' })
    res.on('close', () => (state.closed = true))
    const more = () => {
      state.waiting = false
      while (!state.closed) {
        if (state.written >= total) return void ((state.ended = true), res.end())
        state.written += chunk.length
        if (!res.write(chunk)) return void ((state.waiting = true), res.once('drain', more))
      }
    }
    more()
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  closers.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))))
  return { state, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

/** Until the endless upstream has stopped writing: held back by a reader that does not read, or at its end. */
async function stalled(state: Awaited<ReturnType<typeof endlessUpstream>>['state']): Promise<void> {
  let last = -1
  let still = 0
  await vi.waitFor(
    () => {
      still = state.waiting && state.written === last ? still + 1 : 0
      last = state.written
      expect(still >= 5 || state.ended).toBe(true)
    },
    { timeout: GIVE_UP_MS, interval: 20 },
  )
}

describe('the proxy server forwards', () => {
  test('a GET under the upstream base path, with its query and the headers of the message, and records it', async () => {
    const began = performance.now()
    const upstream = await upstreamServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-trace': 't-1', 'proxy-connection': 'keep-alive' })
      res.end('{"data":[1,2]}')
    })
    const recorded = await proxyTo(`${upstream.origin}/base//`)
    expect(recorded.proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const answer = await fresh(`${recorded.proxy.url}/v1/markets?limit=2`, {
      headers: {
        'x-api-key': 'k-1',
        'x-custom': ['a', 'b'],
        'proxy-connection': 'keep-alive',
        te: 'trailers',
        trailer: 'x-after',
      },
    })
    expect(answer.status).toBe(200)
    expect(answer.body.toString()).toBe('{"data":[1,2]}')
    expect(answer.headers['x-trace']).toBe('t-1')
    expect(answer.headers['content-type']).toBe('application/json')
    expect(answer.headers['proxy-connection'], 'a per-connection header of the response is not forwarded').toBe(
      undefined,
    )
    await told(recorded, 1)
    expect(upstream.seen).toHaveLength(1)
    const [seen] = upstream.seen
    expect(seen!.method).toBe('GET')
    expect(seen!.url).toBe('/base/v1/markets?limit=2')
    expect(seen!.headers['x-api-key']).toBe('k-1')
    expect(seen!.headers['x-custom']).toBe('a, b')
    expect(seen!.headers.host, "the upstream's host, not the proxy's").toBe(new URL(upstream.origin).host)
    for (const name of ['proxy-connection', 'te', 'trailer', 'upgrade'])
      expect(seen!.headers[name], `${name} is the connection's`).toBeUndefined()

    expect(recorded.exchanges).toHaveLength(1)
    const [{ exchange, upstreamFailed }] = recorded.exchanges as [Recorded['exchanges'][0]]
    expect(upstreamFailed).toBe(false)
    expect(exchange.request.method).toBe('GET')
    expect(exchange.request.url).toBe(`${upstream.origin}/base/v1/markets?limit=2`)
    expect(exchange.request.headers['x-api-key']).toBe('k-1')
    expect(exchange.request.headers['x-custom']).toBe('a, b')
    expect(Object.keys(exchange.request.headers).filter((name) => ['host', 'te', 'trailer'].includes(name))).toEqual([])
    expect('body' in exchange.request, 'a GET has no body recorded').toBe(false)
    expect(exchange.error).toBeUndefined()
    expect(exchange.response?.status).toBe(200)
    expect(exchange.response?.body).toBe('{"data":[1,2]}')
    expect(exchange.response?.json).toEqual({ data: [1, 2] })
    expect(exchange.response?.truncated).toBe(false)
    expect(exchange.response?.headers['x-trace']).toBe('t-1')
    expect(exchange.retries).toEqual([])
    expect(Date.parse(exchange.startedAt!)).toBeGreaterThan(Date.now() - 60_000)
    expect(Date.parse(exchange.startedAt!)).toBeLessThanOrEqual(Date.now())
    const { waitMs, receiveMs } = exchange.timings!
    expect(waitMs).toBeGreaterThanOrEqual(0)
    expect(receiveMs).toBeGreaterThanOrEqual(0)
    expect(exchange.durationMs).toBeGreaterThanOrEqual(waitMs + receiveMs)
    expect(exchange.durationMs).toBeLessThanOrEqual(performance.now() - began)
  })

  test('times the wait for the head apart from the receiving of the body', async () => {
    const BODY_LATE_MS = 150
    const upstream = await upstreamServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).flushHeaders()
      setTimeout(() => res.end('{}'), BODY_LATE_MS)
    })
    const recorded = await proxyTo(upstream.origin)
    expect((await fresh(`${recorded.proxy.url}/v1/config`)).status).toBe(200)
    await told(recorded, 1)
    const { exchange } = recorded.exchanges[0]!
    // The timer's delay is a lower bound however loaded the machine; a few ms of slack for its clock.
    expect(exchange.timings!.receiveMs).toBeGreaterThanOrEqual(BODY_LATE_MS - 10)
    expect(exchange.durationMs).toBeGreaterThanOrEqual(exchange.timings!.waitMs + exchange.timings!.receiveMs)
  })

  test('an upstream without a base path: the request path as it came', async () => {
    const upstream = await upstreamServer((_, res) => res.end('ok'))
    const recorded = await proxyTo(upstream.origin)
    await fresh(`${recorded.proxy.url}/v1/x`)
    await told(recorded, 1)
    expect(upstream.seen.map(({ url }) => url)).toEqual(['/v1/x'])
    expect(recorded.exchanges[0]!.exchange.request.url).toBe(`${upstream.origin}/v1/x`)
  })

  test("a write's body to the upstream unchanged and recorded whole under the cap, not at all over it", async () => {
    const upstream = await upstreamServer((seen, res) => {
      res.writeHead(201, { 'content-type': 'text/plain' })
      res.end(`got ${seen.body.length}`)
    })
    const recorded = await proxyTo(upstream.origin, { maxBodyBytes: 10 })
    const small = await fresh(`${recorded.proxy.url}/v1/intents`, { method: 'POST', body: '{"a":1}' })
    expect(small.status).toBe(201)
    expect(small.body.toString()).toBe('got 7')
    const exact = await fresh(`${recorded.proxy.url}/v1/intents`, { method: 'PUT', body: '0123456789' })
    expect(exact.body.toString()).toBe('got 10')
    const large = await fresh(`${recorded.proxy.url}/v1/intents`, { method: 'POST', body: '0123456789A' })
    expect(large.body.toString()).toBe('got 11')
    expect(upstream.seen.map(({ method, body }) => `${method} ${body}`)).toEqual([
      'POST {"a":1}',
      'PUT 0123456789',
      'POST 0123456789A',
    ])
    await told(recorded, 3)
    const exchanges = recorded.exchanges.map(({ exchange }) => exchange)
    expect(exchanges.map(({ request }) => request.body)).toEqual(['{"a":1}', '0123456789', undefined])
    expect(exchanges.map(({ request }) => request.method)).toEqual(['POST', 'PUT', 'POST'])
    expect(exchanges.map(({ response }) => response?.status)).toEqual([201, 201, 201])
  })

  test('a HEAD without a body, and a body over the cap to the client whole but kept cut', async () => {
    const long = 'x'.repeat(50)
    const upstream = await upstreamServer((seen, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(long.length) })
      res.end(seen.method === 'HEAD' ? undefined : long)
    })
    const recorded = await proxyTo(upstream.origin, { maxBodyBytes: 20 })
    const head = await fresh(`${recorded.proxy.url}/h`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    await told(recorded, 1)
    expect('body' in recorded.exchanges[0]!.exchange.request).toBe(false)
    const whole = await fresh(`${recorded.proxy.url}/g`)
    expect(whole.body.toString()).toBe(long)
    await told(recorded, 2)
    const { response } = recorded.exchanges[1]!.exchange
    expect(response?.truncated, 'over the cap: its start kept, marked cut').toBe(true)
    expect(response?.body).toBe(long)
  })

  test('a gzip body to the client as it came, and recorded decoded', async () => {
    const text = '{"data":"zipped"}'
    const zipped = gzipSync(text)
    const upstream = await upstreamServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
      res.end(zipped)
    })
    const recorded = await proxyTo(upstream.origin)
    const answer = await fresh(`${recorded.proxy.url}/z`)
    expect(answer.headers['content-encoding']).toBe('gzip')
    expect(answer.body.equals(zipped)).toBe(true)
    await told(recorded, 1)
    const { response } = recorded.exchanges[0]!.exchange
    expect(response?.body).toBe(text)
    expect(response?.encodedBytes).toBe(zipped.length)
  })

  test('numbers each client connection in the order it was accepted; requests on one connection share it', async () => {
    const upstream = await upstreamServer((_, res) => res.end('ok'))
    const recorded = await proxyTo(upstream.origin)
    const first = await raw(
      recorded.proxy.url,
      'GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    )
    expect(first.match(/HTTP\/1\.1 200/g)).toHaveLength(2)
    await fresh(`${recorded.proxy.url}/3`)
    await told(recorded, 3)
    const connections = recorded.exchanges.map(({ exchange }) => exchange.connection!)
    expect(connections.map(({ number }) => number)).toEqual([1, 1, 2])
    expect(connections[0]!.port).toBe(connections[1]!.port)
    expect(connections[2]!.port).not.toBe(connections[0]!.port)
    expect(connections.every(({ port }) => typeof port === 'number' && port > 0)).toBe(true)
  })

  test('waits for the backlog before it ends a response', async () => {
    // Chunked: the client sees the body's end only when the proxy ends the response.
    const upstream = await upstreamServer((_, res) => (res.write('ok'), res.end()))
    let release!: () => void
    let released = false
    const calls: number[] = []
    const recorded = await proxyTo(upstream.origin, {
      backlog: () => {
        calls.push(recorded.exchanges.length)
        return new Promise<void>((resolve) => (release = resolve))
      },
    })
    const answered = fresh(`${recorded.proxy.url}/b`).then((answer) => ({ answer, released }))
    await new Promise<void>((resolve) => {
      const poll = () => (calls.length > 0 ? resolve() : setTimeout(poll, 5))
      poll()
    })
    expect(calls, 'asked once, before the exchange is recorded').toEqual([0])
    released = true
    release()
    const { answer, released: when } = await answered
    expect(answer.body.toString()).toBe('ok')
    expect(when, 'the response ended only once the backlog resolved').toBe(true)
    await told(recorded, 1)
    expect(recorded.exchanges).toHaveLength(1)
  })
})

describe('the proxy server and the headers of the connection', () => {
  test('none of them is forwarded or recorded, a request header Node keeps as a list is recorded joined', async () => {
    const upstream = await upstreamServer((_, res) => res.end('ok'))
    const recorded = await proxyTo(upstream.origin)
    const hop =
      'Host: x\r\nConnection: close\r\nKeep-Alive: timeout=5\r\nProxy-Connection: keep-alive\r\n' +
      'TE: trailers\r\nTrailer: x-after\r\nUpgrade: h2c\r\n'
    await raw(recorded.proxy.url, `GET /a HTTP/1.1\r\n${hop}X-Kept: 1\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\n`)
    await raw(
      recorded.proxy.url,
      `POST /b HTTP/1.1\r\n${hop}Transfer-Encoding: chunked\r\nX-Kept: 2\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
    )
    await told(recorded, 2)
    const [get, post] = recorded.exchanges.map(({ exchange }) => exchange) as [Exchange, Exchange]
    expect(get.request.headers).toEqual({ 'x-kept': '1', 'set-cookie': 'a=1, b=2' })
    expect(post.request.headers).toEqual({ 'x-kept': '2' })
    expect(post.request.body).toBe('hello')
    expect(recorded.exchanges.map(({ upstreamFailed }) => upstreamFailed)).toEqual([false, false])
    expect(upstream.seen.map(({ method, body }) => `${method} ${body}`)).toEqual(['GET ', 'POST hello'])
    for (const seen of upstream.seen) {
      expect(seen.headers.host).toBe(new URL(upstream.origin).host)
      for (const name of ['keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade'])
        expect(seen.headers[name], `${name} is the connection's`).toBeUndefined()
    }
  })

  test("those of the upstream's answer are not forwarded to the client", async () => {
    const upstream = await rawUpstream(
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nKeep-Alive: timeout=99\r\nTrailer: x-after\r\n' +
        'Proxy-Connection: keep-alive\r\nX-Kept: 1\r\n\r\nok',
    )
    const recorded = await proxyTo(upstream.origin)
    const answer = await raw(recorded.proxy.url, 'GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    const head = answer.split('\r\n\r\n')[0]!.toLowerCase()
    expect(head).toContain('\r\nx-kept: 1')
    for (const gone of ['timeout=99', 'trailer:', 'proxy-connection:']) expect(head).not.toContain(gone)
  })

  // 127.0.0.1 written as IPv6 (a loopback all the same), on a host whose sockets speak IPv6.
  test.skipIf(!hasIpv6Loopback)("the proxy's URL names an IPv6 address in brackets", async () => {
    const upstream = await upstreamServer((_, res) => res.end('ok'))
    const recorded = await proxyTo(upstream.origin, { host: '::ffff:127.0.0.1' })
    expect(recorded.proxy.url).toMatch(/^http:\/\/\[::ffff:127\.0\.0\.1\]:\d+$/)
    expect((await fresh(`${recorded.proxy.url}/v1/x`)).body.toString()).toBe('ok')
  })
})

describe('the proxy server and a client that does not read', () => {
  test.each([
    ['a response', 200, 'GET /v1/markets HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a refused upgrade', 401, UPGRADE_REQUEST],
  ])(
    '%s: holds the upstream back; when the client leaves, the exchange is recorded cut, the upstream not blamed',
    async (_, status, asked) => {
      const upstream = await endlessUpstream(status)
      const recorded = await proxyTo(upstream.origin, { requestTimeoutMs: 60_000 })
      const client = await connected(recorded.proxy.url)
      client.write(asked)
      await once(client, 'data')
      client.pause()
      await stalled(upstream.state)
      expect(upstream.state.ended, 'the upstream waits for the client').toBe(false)
      client.destroy()
      await told(recorded, 1)
      await vi.waitFor(() => expect(upstream.state.closed).toBe(true), { timeout: GIVE_UP_MS })
      const [{ exchange, upstreamFailed }] = recorded.exchanges as [Recorded['exchanges'][0]]
      expect(upstreamFailed).toBe(false)
      expect(exchange.error).toEqual({
        code: 'CLIENT_CLOSED',
        message: 'the client closed its connection before the response was forwarded whole',
      })
      expect(exchange.response?.status).toBe(status)
      expect(exchange.response?.truncated).toBe(true)
      expect(recorded.channels).toEqual([])
    },
  )

  test.each([
    ['a response', 200, 'GET /v1/markets HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a refused upgrade', 401, UPGRADE_REQUEST],
  ])(
    '%s to a client that leaves while the upstream is slow: recorded cut (under the cap), the upstream closed',
    async (_, status, asked) => {
      let upstreamClosed = false
      const upstream = await upstreamServer((__, res) => {
        res.writeHead(status, { 'content-type': 'text/plain' })
        const trickle = setInterval(() => res.write('x'), 10)
        res.on('close', () => (clearInterval(trickle), (upstreamClosed = true)))
      })
      const recorded = await proxyTo(upstream.origin, { requestTimeoutMs: 60_000 })
      const client = await connected(recorded.proxy.url)
      client.write(asked)
      await once(client, 'data')
      client.destroy()
      await told(recorded, 1)
      await vi.waitFor(() => expect(upstreamClosed).toBe(true), { timeout: GIVE_UP_MS })
      const [{ exchange, upstreamFailed }] = recorded.exchanges as [Recorded['exchanges'][0]]
      expect(upstreamFailed).toBe(false)
      expect(exchange.error?.code).toBe('CLIENT_CLOSED')
      expect(exchange.response?.status).toBe(status)
      expect(exchange.response?.body.length, 'under the cap of 1,000 bytes').toBeLessThan(1_000)
      expect(exchange.response?.truncated).toBe(true)
    },
  )

  test.each([
    ['a response', 200, 'GET /v1/markets HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a refused upgrade', 401, UPGRADE_REQUEST],
  ])('%s to a client that stops reading, then reads on: whole once it drains', async (_, status, asked) => {
    const total = 64 * 1024 * 1024
    const upstream = await endlessUpstream(status, total)
    const recorded = await proxyTo(upstream.origin, { requestTimeoutMs: 60_000 })
    const client = await connected(recorded.proxy.url)
    let got = 0
    client.on('data', (chunk: Buffer) => (got += chunk.length))
    client.write(asked)
    await vi.waitFor(() => expect(got).toBeGreaterThan(0), { timeout: GIVE_UP_MS })
    client.pause()
    await stalled(upstream.state)
    client.resume()
    // 64 MiB through the proxy: on a loaded two-core machine that took over 10 s (a guard, not a measure).
    await vi.waitFor(() => expect(upstream.state.ended).toBe(true), { timeout: 6 * GIVE_UP_MS })
    await vi.waitFor(() => expect(got, 'the head and the whole body').toBeGreaterThan(total), {
      timeout: 6 * GIVE_UP_MS,
    })
    await told(recorded, 1)
    expect(recorded.exchanges[0]!.exchange.error).toBeUndefined()
  })
})

describe('the proxy server, when the upstream fails', () => {
  test('answers 502 with an error body where the upstream refuses the connection, and records the failure', async () => {
    const began = performance.now()
    const origin = `http://127.0.0.1:${await closedPort()}`
    const recorded = await proxyTo(origin)
    const answer = await fresh(`${recorded.proxy.url}/v1/markets`, { method: 'POST', body: 'b' })
    expect(answer.status).toBe(502)
    expect(answer.headers['content-type']).toBe('application/json')
    await told(recorded, 1)
    const body = JSON.parse(answer.body.toString()) as { error: string; code: string }
    expect(body.code).toBe('upstream_unreachable')
    expect(body.error).toMatch(/^ipts-conformance proxy: the upstream did not answer: \S/)
    expect(recorded.exchanges).toHaveLength(1)
    const [{ exchange, upstreamFailed }] = recorded.exchanges as [Recorded['exchanges'][0]]
    expect(upstreamFailed).toBe(true)
    expect(exchange.error?.code).toBe('ECONNREFUSED')
    expect(`ipts-conformance proxy: ${exchange.error?.message}`).toBe(body.error)
    expect(exchange.response).toBeUndefined()
    expect(exchange.request.url).toBe(`${origin}/v1/markets`)
    expect(exchange.durationMs).toBeGreaterThan(0)
    expect(exchange.durationMs).toBeLessThanOrEqual(performance.now() - began)
  })

  test('answers 502 where the upstream sends no head in time', async () => {
    const upstream = await upstreamServer(() => undefined)
    const recorded = await proxyTo(upstream.origin, { requestTimeoutMs: 150 })
    const answer = await fresh(`${recorded.proxy.url}/slow`)
    expect(answer.status).toBe(502)
    expect(JSON.parse(answer.body.toString()).code).toBe('upstream_unreachable')
    await told(recorded, 1)
    const [{ exchange, upstreamFailed }] = recorded.exchanges as [Recorded['exchanges'][0]]
    expect(upstreamFailed).toBe(true)
    expect(exchange.error?.code).toBe('TIMEOUT')
    expect(exchange.error?.message).toMatch(/^the upstream did not answer: /)
  })

  test("cuts the client's response where the upstream's body breaks off, and records what came", async () => {
    const upstream = await upstreamServer((_, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' })
      res.write('part', () => setTimeout(() => res.socket?.destroy(), 20))
    })
    const recorded = await proxyTo(upstream.origin)
    await expect(fresh(`${recorded.proxy.url}/cut`)).rejects.toThrow()
    await told(recorded, 1)
    const [{ exchange, upstreamFailed }] = recorded.exchanges as [Recorded['exchanges'][0]]
    expect(upstreamFailed).toBe(true)
    expect(exchange.error?.message).toMatch(/^the upstream's body broke off: /)
    expect(exchange.response?.status).toBe(200)
    expect(exchange.response?.body).toBe('part')
  })
})

describe('the proxy server and bad requests', () => {
  test('answers an unparsable request 400 and closes, and counts it', async () => {
    const upstream = await upstreamServer((_, res) => res.end('ok'))
    const recorded = await proxyTo(upstream.origin)
    const answer = await raw(recorded.proxy.url, 'NOT A REQUEST\r\n\r\n')
    expect(answer).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    expect(recorded.malformed).toBe(1)
    expect(upstream.seen).toEqual([])
    expect(recorded.exchanges).toEqual([])
  })

  test('a client that resets its connection is not a malformed request', async () => {
    const upstream = await upstreamServer((_, res) => res.end('ok'))
    const recorded = await proxyTo(upstream.origin)
    const client = await connected(recorded.proxy.url)
    client.resetAndDestroy()
    // Closing waits for every connection to close, so the proxy has handled the reset.
    await recorded.proxy.close()
    expect(recorded.malformed).toBe(0)
    expect(upstream.seen).toEqual([])
  })

  test.each([
    ['half its headers', 'GET /v1/markets HTTP/1.1\r\nHost: x\r\n'],
    ['half its request line', 'GET /v1/mar'],
  ])('a client that closes after %s left: no malformed request, and no 400 written after it', async (_, bytes) => {
    const upstream = await upstreamServer((_, res) => res.end('ok'))
    const recorded = await proxyTo(upstream.origin)
    const client = await connected(recorded.proxy.url)
    const chunks: Buffer[] = []
    client.on('data', (chunk: Buffer) => chunks.push(chunk))
    client.end(bytes)
    await once(client, 'close')
    await recorded.proxy.close()
    expect(recorded.malformed).toBe(0)
    expect(Buffer.concat(chunks).toString()).toBe('')
    expect(upstream.seen).toEqual([])
  })
})

/** A ws server on 127.0.0.1 that answers each message with `echo:` and it. */
async function echoServer(): Promise<{ origin: string; urls: string[]; headers: IncomingMessage['headers'][] }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await once(server, 'listening')
  const urls: string[] = []
  const headers: IncomingMessage['headers'][] = []
  server.on('connection', (socket, req) => {
    urls.push(req.url!)
    headers.push(req.headers)
    socket.on('message', (data: RawData) => socket.send(`echo:${String(data)}`))
  })
  closers.push(
    () =>
      new Promise((resolve) => {
        for (const client of server.clients) client.terminate()
        server.close(resolve)
      }),
  )
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, urls, headers }
}

describe('the proxy server and WebSocket upgrades', () => {
  test('tunnels a channel both ways and records it, with its messages, once both sides closed', async () => {
    const began = performance.now()
    const upstream = await echoServer()
    const recorded = await proxyTo(`${upstream.origin}/base`)
    const client = new WebSocket(`${recorded.proxy.url.replace(/^http/, 'ws')}/v1/stream?x=1`, {
      headers: { 'x-api-key': 'k-2' },
    })
    await once(client, 'open')
    client.send('hello')
    const [data] = (await once(client, 'message')) as [RawData]
    expect(String(data)).toBe('echo:hello')
    client.close(1000, 'bye')
    await once(client, 'close')
    await told(recorded, 1, 'channels')
    expect(upstream.urls).toEqual(['/base/v1/stream?x=1'])
    expect(upstream.headers[0]!['x-api-key']).toBe('k-2')
    expect(upstream.headers[0]!.host).toBe(new URL(upstream.origin).host)
    expect(recorded.exchanges).toEqual([])
    expect(recorded.channels).toHaveLength(1)
    const [channel] = recorded.channels as [Exchange]
    expect(channel.request.method).toBe('GET')
    expect(channel.request.url).toBe(`${upstream.origin}/base/v1/stream?x=1`)
    expect(channel.request.headers.connection).toBe('Upgrade')
    expect(channel.request.headers.upgrade).toBe('websocket')
    expect(channel.request.headers['x-api-key']).toBe('k-2')
    expect(channel.request.headers.host).toBeUndefined()
    expect(channel.connection?.number).toBe(1)
    expect(channel.response?.status).toBe(101)
    expect(channel.response?.headers.upgrade).toBe('websocket')
    expect(channel.webSocketMessages?.map(({ type, opcode, data }) => `${type} ${opcode} ${data}`)).toEqual([
      'send 1 hello',
      'receive 1 echo:hello',
      'send 8 1000 bye',
      'receive 8 1000 bye',
    ])
    expect('webSocketComment' in channel, 'nothing left out, no comment').toBe(false)
    expect(channel.retries).toEqual([])
    expect(channel.durationMs).toBeGreaterThan(0)
    expect(channel.durationMs).toBeLessThanOrEqual(performance.now() - began)
    expect(channel.timings!.waitMs).toBeGreaterThanOrEqual(0)
    expect(channel.timings!.waitMs).toBeLessThanOrEqual(channel.durationMs)
  })

  test('close() closes the channels still open, each recorded', async () => {
    const upstream = await echoServer()
    const recorded = await proxyTo(upstream.origin)
    const client = new WebSocket(`${recorded.proxy.url.replace(/^http/, 'ws')}/open`)
    await once(client, 'open')
    client.send('one')
    await once(client, 'message')
    const clientClosed = once(client, 'close')
    await recorded.proxy.close()
    expect(recorded.channels).toHaveLength(1)
    expect(recorded.channels[0]!.webSocketMessages?.map(({ data }) => data)).toEqual(['one', 'echo:one'])
    await clientClosed
  })

  test('forwards a refused upgrade as the upstream answered it, and records it as an exchange', async () => {
    const began = performance.now()
    const upstream = await upstreamServer((_, res) => {
      // Chunked: the client gets the body delimited by the connection's close instead.
      res.writeHead(401, { 'content-type': 'application/json', 'x-why': 'no-key', 'keep-alive': 'timeout=99' })
      res.write('{"error":')
      res.end('"no key"}')
    })
    const recorded = await proxyTo(upstream.origin)
    const answer = await raw(
      recorded.proxy.url,
      'GET /v1/realtime HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    )
    const [head, body] = answer.split('\r\n\r\n')
    expect(head!.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized')
    expect(head).toMatch(/\r\nx-why: no-key(\r\n|$)/i)
    expect(
      head!
        .toLowerCase()
        .split('\r\n')
        .filter((line) => line.startsWith('connection:')),
    ).toEqual(['connection: close'])
    expect(head!.toLowerCase()).not.toContain('transfer-encoding')
    expect(head!.toLowerCase()).not.toContain('keep-alive')
    expect(body).toBe('{"error":"no key"}')
    await told(recorded, 1)
    expect(upstream.seen.map(({ url, headers }) => `${url} ${headers.upgrade}`)).toEqual(['/v1/realtime websocket'])
    const [{ exchange, upstreamFailed }] = recorded.exchanges as [Recorded['exchanges'][0]]
    expect(upstreamFailed).toBe(false)
    expect(exchange.response?.status).toBe(401)
    expect(exchange.response?.json).toEqual({ error: 'no key' })
    expect(exchange.error).toBeUndefined()
    const { waitMs, receiveMs } = exchange.timings!
    expect(waitMs).toBeGreaterThanOrEqual(0)
    expect(receiveMs).toBeGreaterThanOrEqual(0)
    expect(waitMs + receiveMs).toBeLessThanOrEqual(exchange.durationMs)
    expect(exchange.durationMs).toBeLessThanOrEqual(performance.now() - began)
    expect(recorded.channels).toEqual([])
  })

  test('an upgrade asked with another method than GET goes on, and is recorded, with that method', async () => {
    const upstream = await upstreamServer((_, res) => res.writeHead(426, { 'content-length': '0' }).end())
    const recorded = await proxyTo(upstream.origin)
    const answer = await raw(
      recorded.proxy.url,
      'POST /v1/realtime HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nContent-Length: 0\r\n\r\n',
    )
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 426 Upgrade Required')
    await told(recorded, 1)
    expect(upstream.seen.map(({ method, headers }) => `${method} ${headers.upgrade}`)).toEqual(['POST websocket'])
    expect(recorded.exchanges[0]!.exchange.request.method).toBe('POST')
  })

  test('each upgrade goes to the upstream on a connection of its own, a refused one too', async () => {
    const upstream = await upstreamServer((_, res) => res.writeHead(426, { 'content-length': '0' }).end())
    let connections = 0
    upstream.server.on('connection', () => connections++)
    const recorded = await proxyTo(upstream.origin)
    for (let i = 0; i < 2; i++)
      expect((await raw(recorded.proxy.url, UPGRADE_REQUEST)).split('\r\n')[0]).toContain(' 426 ')
    await told(recorded, 2)
    expect(connections).toBe(2)
  })

  test('answers an upgrade the upstream does not take 502, and records the failure', async () => {
    const origin = `http://127.0.0.1:${await closedPort()}`
    const recorded = await proxyTo(origin)
    const answer = await raw(
      recorded.proxy.url,
      'GET /v1/realtime HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
    )
    const [head, body] = answer.split('\r\n\r\n')
    expect(head!.split('\r\n')[0]).toBe('HTTP/1.1 502 Bad Gateway')
    expect(head).toContain(`\r\ncontent-length: ${Buffer.byteLength(body!)}\r\n`)
    expect(head).toContain('\r\ncontent-type: application/json')
    const parsed = JSON.parse(body!) as { error: string; code: string }
    expect(parsed.code).toBe('upstream_unreachable')
    expect(parsed.error).toMatch(/^ipts-conformance proxy: the upstream did not answer: \S/)
    await told(recorded, 1)
    const [{ exchange, upstreamFailed }] = recorded.exchanges as [Recorded['exchanges'][0]]
    expect(upstreamFailed).toBe(true)
    expect(exchange.error?.code).toBe('ECONNREFUSED')
    expect(exchange.response).toBeUndefined()
  })
})

/**
 * A TCP server on 127.0.0.1 that answers each connection's first bytes with answer (or never, when undefined): the
 * first bytes of each connection, the bytes after them, and how many connections have closed.
 */
async function rawUpstream(answer: string | Buffer | undefined) {
  const received: Buffer[] = []
  const firsts: Buffer[] = []
  const sockets = new Set<Socket>()
  let asked = 0
  let closed = 0
  const server = createNetServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => closed++)
    socket.once('data', (first: Buffer) => {
      asked++
      firsts.push(first)
      if (answer !== undefined) socket.write(answer)
      socket.on('data', (chunk: Buffer) => received.push(chunk))
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  closers.push(
    () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(resolve)
      }),
  )
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    firsts,
    get asked() {
      return asked
    },
    sockets,
    get closed() {
      return closed
    },
  }
}

/** A text frame from the server (unmasked), or from a client (masked with a fixed key). */
function textFrame(data: string, masked = false): Buffer {
  const payload = Buffer.from(data)
  const mask = Buffer.from([1, 2, 3, 4])
  return Buffer.concat([
    Buffer.from([0x81, (masked ? 0x80 : 0) | payload.length]),
    ...(masked ? [mask, Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!))] : [payload]),
  ])
}

describe('the proxy server and upgrades, byte by byte', () => {
  test("the 101's head as the upstream wrote it; the bytes after each head belong to the channel", async () => {
    const head = 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX-Extra: 1\r\n\r\n'
    const upstream = await rawUpstream(Buffer.concat([Buffer.from(head), textFrame('hi')]))
    const recorded = await proxyTo(upstream.origin)
    const client = await connected(recorded.proxy.url)
    const got: Buffer[] = []
    client.on('data', (chunk: Buffer) => got.push(chunk))
    client.write(Buffer.concat([Buffer.from(UPGRADE_REQUEST), textFrame('yo', true)]))
    const expected = Buffer.concat([Buffer.from(head), textFrame('hi')])
    await vi.waitFor(() => expect(Buffer.concat(got).equals(expected)).toBe(true), { timeout: GIVE_UP_MS })
    await vi.waitFor(() => expect(Buffer.concat(upstream.received).equals(textFrame('yo', true))).toBe(true), {
      timeout: GIVE_UP_MS,
    })
    client.destroy()
    await told(recorded, 1, 'channels')
    const [channel] = recorded.channels as [Exchange]
    expect(channel.response).toEqual({
      status: 101,
      headers: { upgrade: 'websocket', connection: 'Upgrade', 'x-extra': '1' },
      body: '',
      truncated: false,
    })
    expect(channel.timings?.receiveMs).toBe(0)
    expect(channel.webSocketMessages?.map(({ type, data }) => `${type} ${data}`)).toEqual(['send yo', 'receive hi'])
  })

  test('a single byte after each head belongs to the channel too, passed on as it came', async () => {
    const head = 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'
    const upstream = await rawUpstream(Buffer.concat([Buffer.from(head), textFrame('hi').subarray(0, 1)]))
    const recorded = await proxyTo(upstream.origin)
    const client = await connected(recorded.proxy.url)
    const got: Buffer[] = []
    client.on('data', (chunk: Buffer) => got.push(chunk))
    client.write(Buffer.concat([Buffer.from(UPGRADE_REQUEST), textFrame('yo', true).subarray(0, 1)]))
    const expected = Buffer.concat([Buffer.from(head), textFrame('hi').subarray(0, 1)])
    await vi.waitFor(() => expect(Buffer.concat(got).equals(expected)).toBe(true), { timeout: GIVE_UP_MS })
    await vi.waitFor(
      () => expect(Buffer.concat(upstream.received).equals(textFrame('yo', true).subarray(0, 1))).toBe(true),
      { timeout: GIVE_UP_MS },
    )
    client.destroy()
    await told(recorded, 1, 'channels')
  })

  test('extensions the upstream negotiated that the proxy cannot read: the channel names each', async () => {
    const head =
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      'Sec-WebSocket-Extensions: x-unknown-ext, x-other-ext\r\n\r\n'
    const upstream = await rawUpstream(head)
    const recorded = await proxyTo(upstream.origin)
    const client = await connected(recorded.proxy.url)
    client.write(UPGRADE_REQUEST)
    await once(client, 'data')
    client.destroy()
    await told(recorded, 1, 'channels')
    expect(recorded.channels[0]!.webSocketMessages).toEqual([])
    expect(recorded.channels[0]!.webSocketComment).toMatch(/^the frames were not read: .*x-unknown-ext, x-other-ext$/)
  })

  test('an upgrade the upstream does not answer in time is answered 502, a timeout', async () => {
    const upstream = await rawUpstream(undefined)
    const recorded = await proxyTo(upstream.origin, { requestTimeoutMs: 150 })
    const answer = await raw(recorded.proxy.url, UPGRADE_REQUEST)
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 502 Bad Gateway')
    await told(recorded, 1)
    expect(recorded.exchanges[0]!.upstreamFailed).toBe(true)
    expect(recorded.exchanges[0]!.exchange.error?.code).toBe('TIMEOUT')
  })

  test('a client that leaves before the upstream answers its upgrade: the upstream connection closed at once, recorded as such, not as a failure', async () => {
    const upstream = await rawUpstream(undefined)
    // A bound far past the test's: the connection is closed because the client left, not by the timeout.
    const recorded = await proxyTo(upstream.origin, { requestTimeoutMs: 60_000 })
    const client = await connected(recorded.proxy.url)
    client.write(UPGRADE_REQUEST)
    await vi.waitFor(() => expect(upstream.asked).toBe(1), { timeout: GIVE_UP_MS })
    client.resetAndDestroy()
    await vi.waitFor(() => expect(upstream.closed).toBe(1), { timeout: GIVE_UP_MS })
    await told(recorded, 1)
    const [{ exchange, upstreamFailed }] = recorded.exchanges as [Recorded['exchanges'][0]]
    expect(upstreamFailed).toBe(false)
    expect(exchange.error?.message).toBe('the client closed its connection before the upstream answered the upgrade')
  })

  test('an open channel outlives the request timeout', async () => {
    const upstream = await echoServer()
    const recorded = await proxyTo(upstream.origin, { requestTimeoutMs: 100 })
    const client = new WebSocket(`${recorded.proxy.url.replace(/^http/, 'ws')}/quiet`)
    await once(client, 'open')
    await new Promise((resolve) => setTimeout(resolve, 400))
    client.send('still here')
    const [data] = (await once(client, 'message')) as [RawData]
    expect(String(data)).toBe('echo:still here')
    client.close(1000)
    await once(client, 'close')
  })

  test('a refused upgrade whose body stalls past the timeout: forwarded as far as it came, recorded as cut off, no 502', async () => {
    const upstream = await rawUpstream(
      'HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\npart',
    )
    const recorded = await proxyTo(upstream.origin, { requestTimeoutMs: 150 })
    const answer = await raw(recorded.proxy.url, UPGRADE_REQUEST)
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized')
    expect(answer.endsWith('\r\n\r\npart'), 'the body as far as it came, then the connection closed').toBe(true)
    await told(recorded, 1)
    await vi.waitFor(() => expect(upstream.closed).toBe(1), { timeout: GIVE_UP_MS })
    expect(recorded.exchanges).toHaveLength(1)
    const [{ exchange, upstreamFailed }] = recorded.exchanges as [Recorded['exchanges'][0]]
    expect(upstreamFailed, 'the upstream answered').toBe(false)
    expect(exchange.error?.message).toMatch(/^the upstream's body broke off: \S/)
    expect(exchange.response?.status).toBe(401)
    expect(exchange.response?.body).toBe('part')
  })

  test('an upstream that resets an open channel: the client is closed and the channel recorded', async () => {
    const head = 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'
    const upstream = await rawUpstream(head)
    const recorded = await proxyTo(upstream.origin)
    const client = await connected(recorded.proxy.url)
    client.write(UPGRADE_REQUEST)
    await once(client, 'data')
    const clientClosed = once(client, 'close')
    for (const socket of upstream.sockets) socket.resetAndDestroy()
    await clientClosed
    await told(recorded, 1, 'channels')
    expect(recorded.channels[0]!.response?.status).toBe(101)
    expect(recorded.exchanges).toEqual([])
  })

  test('an https:// upstream is spoken to in TLS, for a request and for an upgrade', async () => {
    const upstream = await rawUpstream(undefined)
    const recorded = await proxyTo(upstream.origin.replace(/^http:/, 'https:'), { requestTimeoutMs: 150 })
    expect((await fresh(`${recorded.proxy.url}/v1/markets`)).status).toBe(502)
    expect((await raw(recorded.proxy.url, UPGRADE_REQUEST)).split('\r\n')[0]).toBe('HTTP/1.1 502 Bad Gateway')
    expect(upstream.firsts, 'two connections, each opening with a TLS handshake record').toHaveLength(2)
    for (const first of upstream.firsts) expect(first[0]).toBe(0x16)
  })
})

describe('tunnelUpgrade', () => {
  test('tells of a channel only once both sides have closed', async () => {
    const head = 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'
    const upstream = await rawUpstream(head)
    // The client's connection as the proxy holds it: the accepting end of a connection made here.
    const accepting = createNetServer()
    accepting.listen(0, '127.0.0.1')
    await once(accepting, 'listening')
    closers.push(() => new Promise((resolve) => accepting.close(resolve)))
    const dialled = connect((accepting.address() as AddressInfo).port, '127.0.0.1')
    const [client] = (await once(accepting, 'connection')) as [Socket]
    closers.push(async () => void dialled.destroy())
    // Heard before the tunnel's own listeners: whether the client's side had closed when the channel was told of.
    let clientClosed = false
    client.on('close', () => (clientClosed = true))
    const told: { clientClosed: boolean }[] = []
    const url = `${upstream.origin}/v1/realtime`
    const tunnel = tunnelUpgrade(client, Buffer.alloc(0), {
      url,
      headers: { connection: 'Upgrade', upgrade: 'websocket' },
      exchange: { request: { method: 'GET', url, headers: {} }, durationMs: 0, retries: [] },
      requestTimeoutMs: 5_000,
      maxBodyBytes: 1_000,
      onExchange: () => expect.unreachable('an upgrade answered 101 is a channel'),
      onChannel: () => told.push({ clientClosed }),
    })
    await once(dialled, 'data')
    // The upstream closes first: the client's side closes after it.
    for (const socket of upstream.sockets) socket.destroy()
    await tunnel.done
    expect(told).toEqual([{ clientClosed: true }])
  })
})

describe('drainedOrClosed', () => {
  test.each(['drain', 'close'])('resolves on %s and leaves no listener of either behind', async (event) => {
    const stream = new EventEmitter()
    const waited = drainedOrClosed(stream)
    expect([stream.listenerCount('drain'), stream.listenerCount('close')]).toEqual([1, 1])
    stream.emit(event)
    await waited
    // A writer waits on one response many times: a listener left each time would pile up on its stream.
    expect([stream.listenerCount('drain'), stream.listenerCount('close')]).toEqual([0, 0])
  })
})
