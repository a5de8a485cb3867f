import { valueAt } from '../core/json-pointer.js'
import { headerValues, type Exchange, type WebSocketMessage } from '../http/exchange.js'
import { mentionsSecret } from '../http/secrets.js'
import { hasShape, type RealtimeSection } from '../profile/realtime.js'
import type { JudgedSettings, RecordedJudgement } from './exchange-judge.js'

/**
 * How the profile reads a message a channel sent: the opening, a refusal, an event, or a message that is not as it
 * states (the problem said).
 */
export type MessageReading =
  { role: 'opened' | 'refused' | 'event'; json: unknown } | { role: 'invalid'; problem: string }

/** The text of a message: a binary one's bytes read as UTF-8. */
export const messageTextOf = (message: WebSocketMessage) =>
  message.opcode === 2 ? Buffer.from(message.data, 'base64').toString('utf8') : message.data

/** A message's beginning, for a finding (the evidence is redacted with the rest). */
export const messageExcerpt = (message: WebSocketMessage) => {
  const text = messageTextOf(message)
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text)
}

export function readMessage(realtime: RealtimeSection, message: WebSocketMessage): MessageReading {
  let json: unknown
  try {
    json = JSON.parse(messageTextOf(message))
  } catch {
    return { role: 'invalid', problem: 'is not JSON text, though the profile reads messages at JSON Pointers' }
  }
  if (hasShape(json, realtime.refused.message)) return { role: 'refused', json }
  if (hasShape(json, realtime.opened)) return { role: 'opened', json }
  const { events } = realtime
  if (events) {
    const kind = valueAt(json, events.kind)
    if (typeof kind !== 'string' || !events.kinds.includes(kind))
      return {
        role: 'invalid',
        problem: `is an event of kind ${JSON.stringify(kind ?? null)} at ${events.kind}, not one of the kinds the profile states (${events.kinds.join(', ')})`,
      }
  }
  return { role: 'event', json }
}

/** The opcodes of a message that carries data: text and binary. */
const DATA_OPCODES = [1, 2]

/** A message received that is not as the profile states: its place among the messages, and why. */
export interface MessageFinding {
  index: number
  message: WebSocketMessage
  problem: string
}

/**
 * Judges the messages of a WebSocket (Chromium's HAR format, sent and received) against the profile's realtime
 * section: each one received must be JSON text, and an event (neither the opening nor a refusal) one of the kinds the
 * profile states, where it states them. A close frame (opcode 8, as the proxy records it) is no message: its data is a
 * code and a reason. The suite's channels, check-har and the proxy call it alike.
 */
export function judgeChannelMessages(
  realtime: RealtimeSection,
  messages: readonly WebSocketMessage[],
): MessageFinding[] {
  return messages.flatMap((message, index) => {
    if (message.type !== 'receive' || !DATA_OPCODES.includes(message.opcode)) return []
    const reading = readMessage(realtime, message)
    return reading.role === 'invalid' ? [{ index, message, problem: reading.problem }] : []
  })
}

/** Headers through which an answer hands out a URL. */
export const URL_HEADERS = ['location', 'content-location', 'link']

/**
 * The first URL of a flow that carries one of the receipts: a request's URL (a WebSocket's among them), or a
 * Location, Content-Location or Link of an answer. A header or a body is not a URL: the receipt may travel there.
 */
export function receiptInUrl(
  exchanges: readonly Exchange[],
  receipts: readonly string[],
): { exchange: Exchange; where: string } | undefined {
  for (const exchange of exchanges) {
    if (mentionsSecret(exchange.request.url, receipts))
      return { exchange, where: `URL of ${exchange.request.method} ${new URL(exchange.request.url).pathname}` }
    const { response } = exchange
    const header =
      response && URL_HEADERS.find((name) => headerValues(response, name).some((url) => mentionsSecret(url, receipts)))
    if (header)
      return { exchange, where: `${header} header of the answer to ${new URL(exchange.request.url).pathname}` }
  }
  return undefined
}

/**
 * The receipts a WebSocket's own messages sent to open channels, read with the profile's opening template: what a
 * recorded channel's URL must not carry.
 */
export function receiptsSent(realtime: RealtimeSection, messages: readonly WebSocketMessage[]): string[] {
  const source = realtime.open
    .split(/(\{(?:channel|receipt|ticket)\})/)
    .map((part) =>
      part === '{receipt}'
        ? '(.*?)'
        : ['{channel}', '{ticket}'].includes(part)
          ? '.*?'
          : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('')
  const opening = new RegExp(`^${source}$`, 's')
  return messages.flatMap((message) => {
    const captured = message.type === 'send' ? opening.exec(messageTextOf(message))?.[1] : undefined
    if (!captured) return []
    try {
      return [JSON.parse(`"${captured}"`) as string]
    } catch {
      return [captured]
    }
  })
}

const realtimeOf = (settings: JudgedSettings) => settings.profile?.values.realtime

/** A recorded WebSocket (check-har, the proxy): the upgrade exchange of the profile's realtime section. */
const recordedSocket = (exchange: Exchange, settings: JudgedSettings) =>
  exchange.webSocketMessages !== undefined && realtimeOf(settings) !== undefined

/** How a recorded WebSocket decides realtime/messages-as-stated: every message it received as the profile states. */
export const recordedMessagesAsStated: RecordedJudgement = {
  notApplicable: "no recorded WebSocket (Chromium's _webSocketMessages) of a profile that states realtime",
  applies: (_, exchange, settings) => recordedSocket(exchange, settings),
  violation(_, exchange, settings) {
    const [finding] = judgeChannelMessages(realtimeOf(settings)!, exchange.webSocketMessages!)
    return (
      finding && `message ${finding.index + 1} of the WebSocket, ${messageExcerpt(finding.message)}, ${finding.problem}`
    )
  },
}

/**
 * How a recorded WebSocket decides realtime/receipt-in-no-url: its URL, and the URL headers of its answer, carry no
 * receipt its own messages opened a channel with.
 */
export const recordedReceiptInNoUrl: RecordedJudgement = {
  notApplicable:
    "no recorded WebSocket (Chromium's _webSocketMessages) of a profile that states realtime whose messages opened a channel with a receipt",
  applies: (_, exchange, settings) =>
    recordedSocket(exchange, settings) && receiptsSent(realtimeOf(settings)!, exchange.webSocketMessages!).length > 0,
  violation(_, exchange, settings) {
    const found = receiptInUrl([exchange], receiptsSent(realtimeOf(settings)!, exchange.webSocketMessages!))
    return found && `the ${found.where} carries the receipt its channel was opened with, in some encoding`
  },
}
