import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { EventEmitter } from 'node:events'
import type { Duplex } from 'node:stream'
import { decodedResponse } from '../http/content-coding.js'
import type { Exchange } from '../http/exchange.js'
import { BodyCollector } from '../http/response-body.js'
import { transportError } from '../http/transport-errors.js'
import { WebSocketMessages } from './websocket-messages.js'

export interface UpgradeOptions {
  /** The upstream URL the request asked for, and the headers to send it (the connection's own left out). */
  url: string
  headers: Record<string, string | string[]>
  /** The exchange so far: the request as recorded, its start and connection. */
  exchange: Exchange
  requestTimeoutMs: number
  maxBodyBytes: number
  /** Told of an upgrade refused (forwarded whole), or one the upstream did not answer. */
  onExchange(exchange: Exchange, upstreamFailed: boolean): void
  /** Told of a channel (its 101, with its messages) once both sides have closed. */
  onChannel(exchange: Exchange): void
}

export interface Tunnel {
  /** Resolves once the upgrade has been recorded: its channel closed, or its refusal forwarded. */
  done: Promise<void>
  /** Closes both sides (the proxy stopping). */
  close(): void
}

/**
 * An upgrade (a WebSocket's opening handshake) passed through to the upstream: its answer goes back to the client as
 * the upstream gave it. A 101 turns the two connections into a tunnel, bytes passed on both ways as they come, with
 * backpressure, the frames read on the way (src/traffic/websocket-messages.ts); either side closing closes the other.
 * Anything else (a refusal) is forwarded as an ordinary response and the connection closed.
 */
export function tunnelUpgrade(client: Duplex, head: Buffer, options: UpgradeOptions): Tunnel {
  const { exchange } = options
  const started = performance.now()
  const url = new URL(options.url)
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  // A connection of its own: once upgraded (or refused and closed) it is never another request's.
  const outgoing = send(url, { method: exchange.request.method, headers: options.headers, agent: false })
  let recorded!: () => void
  const done = new Promise<void>((resolve) => (recorded = resolve))
  let finished = false
  let answered = false
  const finish = (outcome: 'channel' | 'answered' | 'unanswered') => {
    if (finished) return
    finished = true
    exchange.durationMs = performance.now() - started
    if (outcome === 'channel') options.onChannel(exchange)
    else options.onExchange(exchange, outcome === 'unanswered')
    recorded()
  }
  client.on('error', () => client.destroy())
  client.on('close', () => outgoing.destroy())

  outgoing.setTimeout(options.requestTimeoutMs, () =>
    outgoing.destroy(Object.assign(new Error('no answer in time'), { code: 'UND_ERR_HEADERS_TIMEOUT' })),
  )
  outgoing.on('error', (error) => {
    // Once answered, the request's end is the tunnel's or the refusal's, each recorded as such.
    if (answered) return
    const { code, message } = transportError(error, options.requestTimeoutMs)
    exchange.error = { code, message: `the upstream did not answer: ${message}` }
    if (client.destroyed) {
      exchange.error.message = 'the client closed its connection before the upstream answered the upgrade'
      return finish('answered')
    }
    if (client.writable) {
      const body = JSON.stringify({
        error: `ipts-conformance proxy: ${exchange.error.message}`,
        code: 'upstream_unreachable',
      })
      client.end(
        `HTTP/1.1 502 Bad Gateway\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      )
    }
    finish('unanswered')
  })
  outgoing.on('response', (answer) => {
    answered = true
    void refused(client, answer, exchange, options, started).then(() => finish('answered'))
  })
  outgoing.on('upgrade', (answer, upstream, upstreamHead) => {
    answered = true
    outgoing.setTimeout(0)
    upstream.setTimeout(0)
    const headersAt = performance.now()
    exchange.response = { status: answer.statusCode ?? 101, headers: headersOf(answer), body: '', truncated: false }
    exchange.timings = { waitMs: headersAt - started, receiveMs: 0 }
    const messages = new WebSocketMessages(
      String(answer.headers['sec-websocket-extensions'] ?? '') || undefined,
      options.maxBodyBytes,
    )
    client.write(headOf(answer))
    const fromClient = messages.tap('send')
    const fromServer = messages.tap('receive')
    // Bytes that came with each head belong to the channel.
    if (head.length > 0) fromClient.write(head)
    client.pipe(fromClient).pipe(upstream)
    if (upstreamHead.length > 0) fromServer.write(upstreamHead)
    upstream.pipe(fromServer).pipe(client)
    let open = 2
    const side = () => {
      if (--open > 0) return
      messages.release()
      exchange.webSocketMessages = messages.messages()
      const comment = messages.comment()
      if (comment) exchange.webSocketComment = comment
      finish('channel')
    }
    upstream.on('error', () => upstream.destroy())
    upstream.on('close', () => (client.destroy(), side()))
    client.on('close', () => (upstream.destroy(), side()))
  })
  outgoing.end()
  return { done, close: () => client.destroy() }
}

/** What an exchange records of a client that closed its connection before its response was forwarded whole. */
export function clientLeftError(): { code: string; message: string } {
  return { code: 'CLIENT_CLOSED', message: 'the client closed its connection before the response was forwarded whole' }
}

/** Until a stream written past its buffer drains, or closes (its reader gone): what a writer waits for. */
export function drainedOrClosed(stream: EventEmitter): Promise<void> {
  return new Promise((resolve) => {
    const done = () => (stream.off('drain', done), stream.off('close', done), resolve())
    stream.on('drain', done).on('close', done)
  })
}

function headersOf(answer: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined) headers[name] = value
  return headers
}

/** The answer's head as the upstream sent it (names and order kept): a 101's headers are all the handshake's. */
function headOf(answer: IncomingMessage, drop: readonly string[] = []): string {
  const lines = [`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage ?? ''}`]
  for (let i = 0; i < answer.rawHeaders.length; i += 2)
    if (!drop.includes(answer.rawHeaders[i]!.toLowerCase()))
      lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`)
  return `${lines.join('\r\n')}\r\n\r\n`
}

/**
 * An upgrade the upstream answered without upgrading (a 401, a 400, a 426): forwarded as it came, its body delimited
 * by the connection's close, and recorded as any exchange.
 */
async function refused(
  client: Duplex,
  answer: IncomingMessage,
  exchange: Exchange,
  options: UpgradeOptions,
  started: number,
): Promise<void> {
  const headersAt = performance.now()
  client.on('close', () => answer.destroy())
  client.write(
    headOf(answer, ['connection', 'keep-alive', 'transfer-encoding']).replace(/\r\n$/, 'connection: close\r\n\r\n'),
  )
  const kept = new BodyCollector(options.maxBodyBytes)
  let clientLeft = false
  try {
    for await (const chunk of answer as AsyncIterable<Buffer>) {
      kept.add(chunk)
      if (!client.write(chunk)) await drainedOrClosed(client)
    }
    client.end()
  } catch (error) {
    // The client closing destroys the answer: what came is recorded cut, the upstream not blamed.
    clientLeft = client.destroyed
    const { code, message } = transportError(error, options.requestTimeoutMs)
    exchange.error = clientLeft ? clientLeftError() : { code, message: `the upstream's body broke off: ${message}` }
    client.destroy()
  }
  exchange.response = await decodedResponse(
    answer.statusCode ?? 0,
    answer.headers,
    kept.bytes(),
    kept.truncated || clientLeft,
    options.maxBodyBytes,
  )
  exchange.timings = { waitMs: headersAt - started, receiveMs: performance.now() - headersAt }
}
