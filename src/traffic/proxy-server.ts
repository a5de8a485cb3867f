import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { Transform } from 'node:stream'
import { Agent, request } from 'undici'
import type { Exchange } from '../http/exchange.js'
import { decodedResponse } from '../http/content-coding.js'
import { recordedRedirect } from '../http/redirects.js'
import { BodyCollector, decodeUtf8 } from '../http/response-body.js'
import { transportError } from '../http/transport-errors.js'
import { clientLeftError, drainedOrClosed, tunnelUpgrade, type Tunnel } from './upgrade-tunnel.js'

/** The parser's errors of a client that left: it reset the connection, or closed it before its request was whole. */
const CLIENT_LEFT = new Set(['ECONNRESET', 'HPE_INVALID_EOF_STATE'])
/** Headers of one connection, not of the message (RFC 9110 §7.6.1), and Host, which names the proxy: not forwarded. */
const PER_CONNECTION = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
])

export interface ProxyServerOptions {
  upstream: string
  host: string
  port: number
  /** Bound on the upstream's answer: its head, and each pause in its body. */
  requestTimeoutMs: number
  /** How much of each body is kept for judging; the rest is forwarded and not kept. */
  maxBodyBytes: number
  /** Told of every exchange once its response has been forwarded whole, the upstream failed, or the client left. */
  onExchange(exchange: Exchange, upstreamFailed: boolean): void
  /**
   * Told of a WebSocket channel once both sides have closed: its upgrade, answered 101, with its messages. An upgrade
   * the upstream refused is an exchange (onExchange).
   */
  onChannel(exchange: Exchange): void
  /** Told of a request that could not be parsed (answered 400 by the proxy, not forwarded). */
  onMalformedRequest(): void
  /**
   * A promise while what records the exchanges is behind (its spool not yet on disk): a response is ended only once it
   * resolves.
   */
  backlog?(): Promise<void> | undefined
}

export interface ProxyServer {
  url: string
  /**
   * Stops accepting requests, lets those in flight finish, closes the channels still open (each is recorded), and
   * closes the connections to the upstream.
   */
  close(): Promise<void>
}

function forwardedHeaders(
  headers: IncomingMessage['headers'] | Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  const forwarded: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !PER_CONNECTION.has(name.toLowerCase())) forwarded[name] = value
  return forwarded
}

/** The first value of each request header, as the judgements read a request. */
function requestHeaders(headers: Record<string, string | string[]>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name.toLowerCase(),
      Array.isArray(value) ? value.join(', ') : value,
    ]),
  )
}

/**
 * A reverse proxy that forwards every request and response unchanged but for the headers of the connection, streaming
 * both bodies, and hands each exchange (bodies kept up to a cap) to onExchange. An upstream that does not answer gets
 * the client a 502 with an error body. An upgrade (a WebSocket's handshake) is passed through as it was asked and
 * answered; a channel opened is tunnelled both ways and handed, with its messages, to onChannel once closed.
 */
export async function startProxyServer(options: ProxyServerOptions): Promise<ProxyServer> {
  const upstream = new URL(options.upstream)
  const basePath = upstream.pathname.replace(/\/+$/, '')
  const dispatcher = new Agent({
    headersTimeout: options.requestTimeoutMs,
    bodyTimeout: options.requestTimeoutMs,
    connect: { timeout: options.requestTimeoutMs },
  })

  // Each client connection by the order the proxy accepted it, from 1: where a finding's first response came.
  const connections = new WeakMap<object, number>()
  let accepted = 0

  async function forward(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const url = `${upstream.origin}${basePath}${incoming.url ?? '/'}`
    const headers = forwardedHeaders(incoming.headers)
    const method = incoming.method ?? 'GET'
    const started = performance.now()
    const exchange: Exchange = {
      request: { method, url, headers: requestHeaders(headers) },
      startedAt: new Date().toISOString(),
      durationMs: 0,
      retries: [],
      connection: { number: connections.get(incoming.socket) ?? 0, port: incoming.socket.remotePort },
    }
    const hasBody = method !== 'GET' && method !== 'HEAD'
    // A write's body is kept as it streams through (up to the cap), for the judgement of recorded writes.
    const sentBody = new BodyCollector(options.maxBodyBytes)
    const body = hasBody
      ? incoming.pipe(
          new Transform({ transform: (chunk: Buffer, _, done) => (sentBody.add(chunk), done(null, chunk)) }),
        )
      : undefined
    let answer: Awaited<ReturnType<typeof request>>
    try {
      answer = await request(url, { method, headers, body, dispatcher })
    } catch (error) {
      const { code, message } = transportError(error, options.requestTimeoutMs)
      exchange.error = { code, message: `the upstream did not answer: ${message}` }
      exchange.durationMs = performance.now() - started
      if (!outgoing.headersSent) {
        outgoing.writeHead(502, { 'content-type': 'application/json' })
        outgoing.end(
          JSON.stringify({ error: `ipts-conformance proxy: ${exchange.error.message}`, code: 'upstream_unreachable' }),
        )
      }
      options.onExchange(exchange, true)
      return
    }
    const headersAt = performance.now()
    const responseHeaders = forwardedHeaders(answer.headers)
    outgoing.writeHead(answer.statusCode, responseHeaders)
    const kept = new BodyCollector(options.maxBodyBytes)
    // A client that leaves mid-body: the rest is not read, and what came is recorded cut, the upstream not blamed.
    let clientLeft = false
    try {
      for await (const chunk of answer.body as AsyncIterable<Buffer>) {
        kept.add(chunk)
        if (!outgoing.write(chunk) && !outgoing.destroyed) await drainedOrClosed(outgoing)
        if (outgoing.destroyed) {
          clientLeft = true
          break
        }
      }
      // The client's next request on this connection waits for the recording to catch up: memory stays bounded however
      // fast it sends.
      await options.backlog?.()
      outgoing.end()
    } catch (error) {
      const { code, message } = transportError(error, options.requestTimeoutMs)
      exchange.error = { code, message: `the upstream's body broke off: ${message}` }
      outgoing.destroy()
      answer.body.destroy()
    }
    // The client got the bytes as sent; the judgement reads the body decoded.
    const cut = kept.truncated || clientLeft
    exchange.response = recordedRedirect(
      await decodedResponse(answer.statusCode, answer.headers, kept.bytes(), cut, options.maxBodyBytes),
    )
    if (clientLeft) exchange.error = clientLeftError()
    // The answer has ended, so the request's body has been read; one cut at the cap is not kept.
    if (hasBody && !sentBody.truncated) exchange.request.body = decodeUtf8(sentBody.bytes())
    exchange.timings = { waitMs: headersAt - started, receiveMs: performance.now() - headersAt }
    exchange.durationMs = performance.now() - started
    options.onExchange(exchange, exchange.error !== undefined && !clientLeft)
  }

  const server: Server = createServer((incoming, outgoing) => {
    forward(incoming, outgoing).catch((error: unknown) => {
      outgoing.destroy(error as Error)
    })
  })
  const tunnels = new Set<Tunnel>()
  server.on('upgrade', (incoming: IncomingMessage, socket, head: Buffer) => {
    const headers = forwardedHeaders(incoming.headers)
    // Connection and Upgrade belong to the connection, and they are also what asks the upstream to upgrade: sent as
    // asked.
    const upgrade = { connection: 'Upgrade', upgrade: String(incoming.headers.upgrade) }
    const tunnel = tunnelUpgrade(socket, head, {
      url: `${upstream.origin}${basePath}${incoming.url ?? '/'}`,
      headers: { ...headers, ...upgrade },
      exchange: {
        request: {
          method: incoming.method ?? 'GET',
          url: `${upstream.origin}${basePath}${incoming.url ?? '/'}`,
          headers: requestHeaders({ ...headers, ...upgrade }),
        },
        startedAt: new Date().toISOString(),
        durationMs: 0,
        retries: [],
        connection: { number: connections.get(socket) ?? 0, port: (socket as Socket).remotePort },
      },
      requestTimeoutMs: options.requestTimeoutMs,
      maxBodyBytes: options.maxBodyBytes,
      onExchange: options.onExchange,
      onChannel: options.onChannel,
    })
    tunnels.add(tunnel)
    void tunnel.done.then(() => tunnels.delete(tunnel))
  })
  server.on('connection', (socket) => connections.set(socket, ++accepted))
  // Node answers an unparsable request with a bare 400 and closes; the proxy does the same, and the report counts it.
  // A client that left (reset, or closed before its request was whole) sent nothing malformed: its socket is let go.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (CLIENT_LEFT.has(error.code ?? '')) return void socket.destroy()
    options.onMalformedRequest()
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    else socket.destroy()
  })
  server.listen(options.port, options.host)
  await once(server, 'listening')
  const { address, port } = server.address() as AddressInfo
  const host = address.includes(':') ? `[${address}]` : address
  return {
    url: `http://${host}:${port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      const open = [...tunnels]
      for (const tunnel of open) tunnel.close()
      await Promise.all(open.map((tunnel) => tunnel.done))
      await closed
      await dispatcher.close()
    },
  }
}
