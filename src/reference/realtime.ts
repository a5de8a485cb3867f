import { randomBytes } from 'node:crypto'
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import type { IntentRecord, ReferenceData } from './data.js'
import type { Behaviour, ChannelOutput, ChannelSubscription, RefRequest, RefResponse } from './types.js'

/** The reference's ticket operation and WebSocket endpoint (its profile's realtime section says so). */
export const TICKET_PATH = '/v1/realtime/tickets'
export const SOCKET_PATH = '/v1/realtime'
/** The close code of a refused channel. */
export const REFUSED_CLOSE_CODE = 4403
/** How long a ticket may wait for its connection; each is used once. */
const TICKET_TTL_MS = 60_000
/** The most of a message the reference reads. */
const MAX_MESSAGE_BYTES = 16 * 1024
const INTENT_CHANNEL = /^intent:(0x[0-9a-fA-F]{64})$/

/** Tickets not yet used, and the listeners of each intent's channel (by hash), per reference server. */
interface RealtimeState {
  tickets: Map<string, number>
  listeners: Map<string, Set<(intent: IntentRecord) => void>>
}

const states = new WeakMap<ReferenceData, RealtimeState>()

function stateOf(data: ReferenceData): RealtimeState {
  let state = states.get(data)
  if (!state) states.set(data, (state = { tickets: new Map(), listeners: new Map() }))
  return state
}

/** How a client reaches the reference's channels, as `reference` prints them (its profile states the same). */
export function realtimeFacts() {
  return {
    ticket: `POST ${TICKET_PATH} with X-API-Key; the ticket at /data/ticket`,
    websocket: `${SOCKET_PATH}?ticket={ticket} below the URL, in ws:`,
    open: '{"type":"subscribe","channel":"{channel}","receipt":"{receipt}"}',
    channels: ['intent:{hash}'],
  }
}

export const isTicketRequest = (request: RefRequest) => request.method === 'POST' && request.path === TICKET_PATH

/** A ticket for one connection, to a request whose key was accepted. */
export function issueTicket(data: ReferenceData): RefResponse {
  const ticket = `tkt_${randomBytes(16).toString('hex')}`
  registerTicket(data, ticket)
  return { status: 201, headers: {}, body: { data: { ticket, expiresInSeconds: TICKET_TTL_MS / 1000 } } }
}

/** Makes a ticket valid for one connection (a behaviour that issues tickets of its own registers them). */
export function registerTicket(data: ReferenceData, ticket: string): void {
  stateOf(data).tickets.set(ticket, Date.now() + TICKET_TTL_MS)
}

/** Tells the listeners of an intent's channel that its state changed. */
export function publishState(data: ReferenceData, intent: IntentRecord): void {
  for (const listener of stateOf(data).listeners.get(intent.hash) ?? []) listener(intent)
}

/** The intent a channel name addresses, if any. */
export function channelIntent(data: ReferenceData, channel: string): IntentRecord | undefined {
  const hash = INTENT_CHANNEL.exec(channel)?.[1]?.toLowerCase()
  return data.intents.find((intent) => intent.hash === hash)
}

const stateEvent = (channel: string, intent: IntentRecord, snapshot: boolean) => ({
  type: 'event',
  channel,
  kind: intent.status.state,
  state: intent.status.state,
  updatedAt: intent.status.updatedAt,
  ...(snapshot ? { snapshot: true } : {}),
})

function refuseUpgrade(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: message, code })
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Not Found'}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  )
}

/**
 * Serves the WebSocket endpoint on the reference's HTTP server: a connection needs a ticket (in the URL, used once);
 * a channel is opened by a subscribe message with the intent's receipt, refused without it (an error message, then
 * close 4403), and sends the intent's state on opening and each change after.
 */
export function serveRealtime(
  server: Server,
  data: ReferenceData,
  behaviours: readonly Behaviour[],
): { close(): void } {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES })
  const state = stateOf(data)

  const output = (socket: WebSocket, out: ChannelOutput) => {
    for (const behaviour of behaviours) behaviour.onChannelOutput?.(out, data)
    if (socket.readyState !== socket.OPEN) return
    if (out.ping) socket.ping()
    if (out.message) socket.send(JSON.stringify(out.message))
    if (out.close) socket.close(out.close.code, out.close.reason)
  }

  const subscribe = (socket: WebSocket, subscription: ChannelSubscription, unsubscribe: (() => void)[]) => {
    for (const behaviour of behaviours) behaviour.onSubscribe?.(subscription, data)
    const { channel, receipt } = subscription
    const intent = channelIntent(data, channel)
    if (!intent || !receipt || intent.receipt !== receipt) {
      const [code, error] = receipt
        ? ['receipt_mismatch', 'no intent matches this channel and receipt']
        : ['receipt_required', 'a protected channel is opened with its receipt']
      output(socket, {
        message: { type: 'error', channel, code, error },
        close: { code: REFUSED_CLOSE_CODE, reason: 'channel refused' },
      })
      return
    }
    output(socket, { message: { type: 'subscribed', channel } })
    output(socket, { message: stateEvent(channel, intent, true) })
    const listener = (changed: IntentRecord) => output(socket, { message: stateEvent(channel, changed, false) })
    const listeners = state.listeners.get(intent.hash) ?? new Set()
    state.listeners.set(intent.hash, listeners.add(listener))
    unsubscribe.push(() => listeners.delete(listener))
  }

  const connected = (socket: WebSocket) => {
    const unsubscribe: (() => void)[] = []
    socket.on('message', (raw: RawData, binary: boolean) => {
      let message: unknown
      try {
        message = binary ? undefined : JSON.parse(String(raw))
      } catch {
        message = undefined
      }
      const fields = (message ?? {}) as Record<string, unknown>
      if (fields.type !== 'subscribe' || typeof fields.channel !== 'string') {
        output(socket, { message: { type: 'error', code: 'invalid_message', error: 'expected a subscribe message' } })
        return
      }
      const receipt = typeof fields.receipt === 'string' && fields.receipt !== '' ? fields.receipt : undefined
      subscribe(socket, { channel: fields.channel, receipt }, unsubscribe)
    })
    socket.on('error', () => socket.terminate())
    socket.on('close', () => {
      for (const stop of unsubscribe) stop()
    })
  }

  server.on('upgrade', (incoming: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    const url = new URL(incoming.url ?? '/', 'http://reference.invalid')
    if (url.pathname !== SOCKET_PATH) return refuseUpgrade(socket, 404, 'not_found', 'no such route')
    const ticket = url.searchParams.get('ticket') ?? ''
    const expires = state.tickets.get(ticket)
    state.tickets.delete(ticket)
    if (expires === undefined || expires < Date.now())
      return refuseUpgrade(socket, 401, 'invalid_ticket', 'a realtime connection needs a ticket, each used once')
    sockets.handleUpgrade(incoming, socket, head, connected)
  })

  return {
    close() {
      for (const client of sockets.clients) client.terminate()
      sockets.close()
    },
  }
}
