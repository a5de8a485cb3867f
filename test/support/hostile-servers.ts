import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http'
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { request } from 'undici'
import { WebSocketServer, type WebSocket } from 'ws'
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js'
import type { RunSettings } from '../../src/core/settings.js'

/** A misbehaving target on 127.0.0.1; `requestsElsewhere` counts requests that reached a second server it points to. */
export interface HostileTarget {
  baseUrl: string
  /** Keys and fixtures the target knows, when it is the reference server behind a rewriting proxy. */
  inputs?: Partial<RunSettings>
  requestsElsewhere?: () => number
  /**
   * For a target streaming a large body: the most bytes of one body it got to write before the client stopped reading.
   */
  mostBodyBytesWritten?: () => number
  close(): Promise<void>
}

export interface HostileCase {
  name: string
  /**
   * What the failures' evidence shows of this misbehaviour (what the client or the server wrote, not a check's
   * wording).
   */
  shows: RegExp
  /**
   * Every request to it ends only by a timeout: the run is kept short by --max-duration, so its evidence may name
   * either.
   */
  hangs?: boolean
  start(): Promise<HostileTarget>
}

const REQUEST_ID = 'hostile-0001'
const JSON_HEADERS = { 'content-type': 'application/json', 'x-request-id': REQUEST_ID }
const MIB = 1024 * 1024
export const LARGE_BODY_BYTES = 50 * MIB

async function listen(server: HttpServer | NetServer): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

function closeHttp(server: HttpServer): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}

/**
 * An async request handler of a test's server whose failure ends its response, not the test run: unawaited, a rejected
 * handler would be an unhandled rejection that vitest blames on whichever test is running. The error is printed and
 * answered as a 500 (or the connection cut, when the head has gone), which the test then sees.
 */
export function answering(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(`test server: ${req.method} ${req.url} failed: ${String(error)}\n`)
      if (res.headersSent) res.destroy()
      else res.writeHead(500, { 'content-type': 'text/plain' }).end('the test server failed')
    })
  }
}

export async function httpTarget(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<HostileTarget> {
  const server = createHttpServer(handle)
  return { baseUrl: await listen(server), close: () => closeHttp(server) }
}

/**
 * A realtime endpoint that misbehaves behind a ticket operation that works as the reference's profile says (a ticket
 * at /data/ticket for any key, 401 without one): every WebSocket upgrade is accepted, and `misbehave` is handed the
 * socket and its raw stream.
 */
export async function realtimeTarget(misbehave: (socket: WebSocket, raw: Duplex) => void): Promise<HostileTarget> {
  const sockets = new WebSocketServer({ noServer: true })
  const server = createHttpServer((req, res) => {
    const keyed = req.headers['x-api-key'] !== undefined
    res.writeHead(keyed ? 201 : 401, JSON_HEADERS)
    res.end(JSON.stringify(keyed ? { data: { ticket: 'ticket-1' } } : { error: 'no key', code: 'unauthorized' }))
  })
  server.on('upgrade', (req: IncomingMessage, raw: Duplex, head: Buffer) => {
    raw.on('error', () => raw.destroy())
    sockets.handleUpgrade(req, raw, head, (socket) => {
      socket.on('error', () => socket.terminate())
      misbehave(socket, raw)
    })
  })
  const baseUrl = await listen(server)
  return {
    baseUrl,
    close: async () => {
      for (const socket of sockets.clients) socket.terminate()
      sockets.close()
      await closeHttp(server)
    },
  }
}

/**
 * A TCP server that answers each request head with `respond`, for misbehaviour below HTTP: the socket is its to write
 * and end.
 */
export async function rawTarget(respond: (socket: Socket) => void): Promise<HostileTarget> {
  const sockets = new Set<Socket>()
  const server = createNetServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    let head = ''
    socket.on('data', (chunk) => {
      if (head.includes('\r\n\r\n')) return
      head += chunk.toString('latin1')
      if (head.includes('\r\n\r\n')) respond(socket)
    })
  })
  const baseUrl = await listen(server)
  return {
    baseUrl,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** Writes `chunk` every `intervalMs` until the peer goes away. */
export function drip(socket: Socket | ServerResponse, chunks: () => string | undefined, intervalMs: number): void {
  const timer = setInterval(() => {
    const next = chunks()
    if (next === undefined || socket.destroyed) return clearInterval(timer)
    socket.write(next)
  }, intervalMs)
  socket.on('close', () => clearInterval(timer))
}

/**
 * Streams `total` bytes of JSON-ish filler, respecting back-pressure, until done or the client stops reading; tells
 * `written` each chunk's size.
 */
function streamBody(res: ServerResponse, total: number, written: (bytes: number) => void): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20)
  let sent = 0
  const pump = () => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length
      written(sent)
      if (!res.write(chunk)) return void res.once('drain', pump)
    }
    res.end()
  }
  res.on('error', () => res.destroy())
  pump()
}

/** The reference server with every response body, success or error, replaced by one JSON value of another shape. */
async function referenceAnsweringEveryBodyWith(body: unknown): Promise<HostileTarget> {
  const reference = await startReferenceServer({
    behaviours: [
      {
        name: 'every-body-replaced',
        description: `Every body is ${JSON.stringify(body)}.`,
        onResponse: (response) => void (response.body = body),
      },
    ],
  })
  return { baseUrl: reference.baseUrl, inputs: referenceInputs(reference), close: () => reference.close() }
}

/** The keys and fixtures a reference server knows, as run settings, for a run that reaches it by its URL. */
export function referenceInputs(reference: ReferenceServer): Partial<RunSettings> {
  const [first, second] = reference.data.intents
  return {
    apiKey: reference.data.apiKey,
    restrictedApiKey: reference.data.restrictedApiKey,
    trader: reference.data.trader,
    intent: { hash: first!.hash, receipt: first!.receipt },
    secondIntent: { hash: second!.hash, receipt: second!.receipt },
  }
}

/** Told when the proxy starts forwarding a request and when it has answered it. */
export interface ProxyWatch {
  enter(): void
  leave(): void
}

/** The reference server (with the given latency) behind a proxy that rewrites each response's headers. */
export async function proxiedReference(
  rewrite: (headers: Record<string, string | string[]>) => void,
  latencyMs = 0,
  watch?: ProxyWatch,
): Promise<HostileTarget> {
  const reference = await startReferenceServer({ latencyMs })
  const inputs = referenceInputs(reference)
  const proxy = await httpTarget(
    answering(async (req, res) => {
      watch?.enter()
      res.on('close', () => watch?.leave())
      const answer = await request(`${reference.baseUrl}${req.url}`, { headers: req.headers as Record<string, string> })
      const body = Buffer.from(await answer.body.arrayBuffer())
      const headers: Record<string, string | string[]> = {}
      for (const [name, value] of Object.entries(answer.headers))
        if (value !== undefined && name !== 'transfer-encoding' && name !== 'connection') headers[name] = value
      rewrite(headers)
      res.writeHead(answer.statusCode, headers)
      res.end(body)
    }),
  )
  return { baseUrl: proxy.baseUrl, inputs, close: async () => (await proxy.close(), await reference.close()) }
}

export const hostileCases: readonly HostileCase[] = [
  {
    name: 'a body that is not JSON under a JSON content type',
    shows: /Service temporarily moved/,
    start: () =>
      httpTarget(
        (_, res) => (res.writeHead(200, JSON_HEADERS), res.end('<html><body>Service temporarily moved</body></html>')),
      ),
  },
  {
    name: 'a body that is not valid UTF-8',
    shows: /invalid UTF-8/,
    start: () =>
      httpTarget(
        (_, res) => (
          res.writeHead(200, JSON_HEADERS),
          res.end(Buffer.from([0x7b, 0x22, 0x64, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]))
        ),
      ),
  },
  {
    name: 'a 50 MB body',
    shows: /BODY_TOO_LARGE/,
    async start() {
      let most = 0
      const target = await httpTarget(
        (_, res) => (
          res.writeHead(200, { ...JSON_HEADERS, 'content-length': LARGE_BODY_BYTES }),
          streamBody(res, LARGE_BODY_BYTES, (bytes) => (most = Math.max(most, bytes)))
        ),
      )
      return { ...target, mostBodyBytesWritten: () => most }
    },
  },
  {
    name: 'a body that never ends',
    shows: /TIMEOUT|RUN_TIME_BOUND/,
    hangs: true,
    start: () =>
      httpTarget((_, res) => (res.writeHead(200, JSON_HEADERS), res.write('{"data":['), drip(res, () => ' ', 50))),
  },
  {
    name: 'a connection reset in the middle of the body',
    shows: /ECONNRESET|UND_ERR_SOCKET/,
    start: () =>
      rawTarget((socket) => {
        socket.write(
          `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Request-ID: ${REQUEST_ID}\r\nContent-Length: 1000\r\n\r\n{"data":[{"symbol":"ETH-`,
        )
        setTimeout(() => socket.resetAndDestroy(), 20)
      }),
  },
  {
    name: 'JSON nested 100,000 deep',
    shows: /\[\[\[\[\[/,
    start: () =>
      httpTarget(
        (_, res) => (
          res.writeHead(200, JSON_HEADERS),
          res.end(`{"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)
        ),
      ),
  },
  {
    name: 'duplicated x-request-id headers',
    shows: /duplicate-0002/,
    start: () =>
      proxiedReference(
        (headers) => void (headers['x-request-id'] = [String(headers['x-request-id']), 'duplicate-0002']),
      ),
  },
  {
    name: 'a redirect to another host',
    shows: /"status":302/,
    async start() {
      let reached = 0
      const elsewhere = await httpTarget(
        (_, res) => (reached++, res.writeHead(200, JSON_HEADERS), res.end('{"data":{}}')),
      )
      const target = await httpTarget(
        (req, res) => (
          res.writeHead(302, { ...JSON_HEADERS, location: `${elsewhere.baseUrl}${req.url}` }),
          res.end('{"error":"moved"}')
        ),
      )
      return {
        baseUrl: target.baseUrl,
        requestsElsewhere: () => reached,
        close: async () => (await target.close(), await elsewhere.close()),
      }
    },
  },
  ...[
    { shape: 'a JSON array', body: [], shows: /"bodyExcerpt":"\[\]"/ },
    { shape: 'a JSON string', body: 'not an object', shows: /"bodyExcerpt":"\\"not an object\\""/ },
    { shape: 'JSON null', body: null, shows: /"bodyExcerpt":"null"/ },
  ].map(({ shape, body, shows }) => ({
    name: `every body, success or error, ${shape}`,
    shows,
    start: () => referenceAnsweringEveryBodyWith(body),
  })),
  {
    name: 'HTTP/1.0 without a content length',
    shows: /read until close/,
    start: () =>
      rawTarget((socket) =>
        socket.end(
          `HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nX-Request-ID: ${REQUEST_ID}\r\n\r\n{"data":{"note":"read until close"}}`,
        ),
      ),
  },
]
