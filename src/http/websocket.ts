import type { IncomingMessage } from 'node:http'
import WebSocket from 'ws'
import type { Exchange, ExchangeResponse, WebSocketMessage } from './exchange.js'

/** What a channel socket brought next: a message, its close, a failure, or nothing within the time given. */
export type SocketEvent =
  | { kind: 'message'; message: WebSocketMessage; text: string }
  | { kind: 'closed'; code: number; reason: string }
  | { kind: 'failed'; why: string }
  | { kind: 'timeout' }

export interface SocketBounds {
  /** Bound on the handshake, and the most one next() waits. */
  timeoutMs: number
  /** Messages received past this many close the socket (a flood): the rest are neither kept nor judged. */
  maxMessages: number
  /** A message larger than this closes the socket (ws refuses it with 1009). */
  maxMessageBytes: number
}

export const DEFAULT_SOCKET_BOUNDS: SocketBounds = { timeoutMs: 5000, maxMessages: 200, maxMessageBytes: 256 * 1024 }
/** The most of a refused handshake's body kept. */
const MAX_REFUSAL_BODY = 4096

export interface ChannelSocket {
  /** The upgrade request and its answer (101, or the refusal), with every message sent and received so far. */
  readonly exchange: Exchange
  /** Whether the handshake succeeded. */
  readonly upgraded: boolean
  send(text: string): void
  /** The next event, waiting at most the bound (or timeoutMs); every event after a close or failure is that one. */
  next(timeoutMs?: number): Promise<SocketEvent>
  close(): void
}

const nowSeconds = () => Date.now() / 1000

function responseOf(message: IncomingMessage, body = '', truncated = false): ExchangeResponse {
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(message.headers)) if (value !== undefined) headers[name] = value
  let json: unknown
  try {
    json = body === '' ? undefined : JSON.parse(body)
  } catch {
    json = undefined
  }
  return { status: message.statusCode ?? 0, headers, body, truncated, ...(json === undefined ? {} : { json }) }
}

/**
 * Opens a WebSocket (the `ws` client: Node's and undici's WebSocket set no request headers and hide the handshake's
 * answer) and records it as Chromium does in a HAR: the upgrade exchange, with its messages. Bounded: the handshake and
 * each wait for an event, the messages kept, and their size; a server that sends garbage or floods gets a failed or
 * closed socket, never a hang or a crash.
 */
export function openWebSocket(
  url: string,
  headers: Record<string, string>,
  bounds: SocketBounds = DEFAULT_SOCKET_BOUNDS,
  signal?: AbortSignal,
): Promise<ChannelSocket> {
  const started = performance.now()
  const messages: WebSocketMessage[] = []
  const exchange: Exchange = {
    request: { method: 'GET', url, headers: { ...headers } },
    startedAt: new Date().toISOString(),
    durationMs: 0,
    retries: [],
    webSocketMessages: messages,
  }
  const queue: SocketEvent[] = []
  let ended: SocketEvent | undefined
  let wake: (() => void) | undefined
  const push = (event: SocketEvent) => {
    if (ended) return
    if (event.kind !== 'message') ended = event
    else queue.push(event)
    wake?.()
  }

  return new Promise((resolve) => {
    let upgraded = false
    let settled = false
    const socket = new WebSocket(url, {
      headers,
      handshakeTimeout: bounds.timeoutMs,
      maxPayload: bounds.maxMessageBytes,
      followRedirects: false,
      perMessageDeflate: false,
    })
    const stop = () => socket.terminate()
    signal?.addEventListener('abort', stop, { once: true })
    const channel: ChannelSocket = {
      exchange,
      get upgraded() {
        return upgraded
      },
      send(text) {
        if (socket.readyState !== WebSocket.OPEN) return
        socket.send(text)
        messages.push({ type: 'send', time: nowSeconds(), opcode: 1, data: text })
      },
      async next(timeoutMs = bounds.timeoutMs) {
        if (queue.length === 0 && !ended) {
          let timer: NodeJS.Timeout | undefined
          await new Promise<void>((wakeUp) => {
            wake = wakeUp
            timer = setTimeout(wakeUp, timeoutMs)
          })
          clearTimeout(timer)
          wake = undefined
        }
        return queue.shift() ?? ended ?? { kind: 'timeout' }
      },
      close() {
        signal?.removeEventListener('abort', stop)
        if (socket.readyState === WebSocket.OPEN) socket.close(1000)
        else socket.terminate()
      },
    }
    const settle = () => {
      exchange.durationMs = Math.round(performance.now() - started)
      if (!settled) resolve(channel)
      settled = true
    }
    socket.on('upgrade', (response) => {
      exchange.response = responseOf(response)
    })
    socket.on('open', () => {
      upgraded = true
      settle()
    })
    socket.on('unexpected-response', (_request, response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        // One character past the bound is enough to know the body was cut there.
        if (body.length <= MAX_REFUSAL_BODY) body += chunk
      })
      const done = () => {
        exchange.response = responseOf(response, body.slice(0, MAX_REFUSAL_BODY), body.length > MAX_REFUSAL_BODY)
        push({ kind: 'failed', why: `the upgrade was answered ${response.statusCode}` })
        socket.terminate()
        settle()
      }
      response.on('end', done)
      response.on('error', done)
    })
    socket.on('message', (data: WebSocket.RawData, binary: boolean) => {
      if (messages.filter((m) => m.type === 'receive').length >= bounds.maxMessages) {
        push({ kind: 'failed', why: `more than ${bounds.maxMessages} messages: the suite closed the socket` })
        socket.terminate()
        return
      }
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer)
      const message: WebSocketMessage = binary
        ? { type: 'receive', time: nowSeconds(), opcode: 2, data: bytes.toString('base64') }
        : { type: 'receive', time: nowSeconds(), opcode: 1, data: bytes.toString('utf8') }
      messages.push(message)
      push({ kind: 'message', message, text: bytes.toString('utf8') })
    })
    socket.on('close', (code, reason) => {
      push({ kind: 'closed', code, reason: reason.toString('utf8') })
      settle()
    })
    socket.on('error', (error) => {
      if (!exchange.response && !upgraded) exchange.error = { code: 'WEBSOCKET_FAILED', message: error.message }
      push({ kind: 'failed', why: error.message })
      settle()
    })
  })
}
