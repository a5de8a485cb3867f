import { valueAt } from '../core/json-pointer.js'

/** A message as the profile recognises it: the value at a JSON Pointer of its JSON text. */
export interface MessageShape {
  pointer: string
  value: string | number | boolean
}

/** The realtime channels a deployment offers, as its profile states them (specs/profile.schema.json, realtime). */
export interface RealtimeSection {
  /** The ticket-issuing operation: its body a template with {channel}, the ticket at a JSON Pointer of its answer. */
  ticket: { method: 'GET' | 'POST'; path: string; body?: string; ticket: string }
  /** The WebSocket URL: a path below the base URL or a ws(s):// URL, with {ticket} and {channel}. */
  url: string
  /** The text message that opens a channel: {channel}, {receipt} and {ticket}. */
  open: string
  opened: MessageShape
  refused: { closeCodes?: number[]; message?: MessageShape }
  channels: { intent?: string; action?: string }
  events?: { kind: string; kinds: string[]; terminal?: string[] }
}

/** The values a realtime template takes. */
export interface RealtimeValues {
  channel?: string
  receipt?: string
  ticket?: string
}

const PLACEHOLDER = /\{(channel|receipt|ticket|hash|id)\}/g

/** The placeholders a template holds, each once. */
export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1]!))]
}

function filled(template: string, values: Record<string, string | undefined>, encode: (value: string) => string) {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    values[name] === undefined ? whole : encode(values[name]),
  )
}

/** A JSON string's content, without its quotes: a value filled into a JSON template stays one string. */
const jsonEscaped = (value: string) => JSON.stringify(value).slice(1, -1)

/** The channel name of an intent (its hash) or an action (its status identifier). */
export function channelName(template: string, id: string): string {
  return filled(template, { hash: id, id }, (value) => value)
}

/** A message or body template with its values JSON-escaped. */
export function messageText(template: string, values: RealtimeValues): string {
  return filled(template, { ...values }, jsonEscaped)
}

/**
 * The WebSocket URL with its values percent-encoded: a path is below the base URL, in ws: or wss: as the base URL is
 * http: or https:.
 */
export function socketUrl(template: string, baseUrl: string, values: RealtimeValues): string {
  const url = filled(template, { ticket: values.ticket, channel: values.channel }, encodeURIComponent)
  if (!url.startsWith('/')) return url
  const base = new URL(baseUrl)
  const scheme = base.protocol === 'https:' ? 'wss:' : 'ws:'
  return `${scheme}//${base.host}${base.pathname.replace(/\/+$/, '')}${url}`
}

/** Whether a message's parsed JSON has the shape: the value at its pointer. */
export function hasShape(json: unknown, shape: MessageShape | undefined): boolean {
  return shape !== undefined && json !== undefined && valueAt(json, shape.pointer) === shape.value
}

/**
 * The rules of a realtime section a schema cannot state, each a problem naming its key: the URL takes no value but
 * {ticket} and {channel}, the opening message carries the receipt, the channel is named in the URL or the message, the
 * terminal kinds are kinds.
 */
export function realtimeProblems(section: RealtimeSection): string[] {
  const problems: string[] = []
  const key = 'profile.realtime'
  const inUrl = placeholdersOf(section.url)
  const foreign = inUrl.find((name) => name !== 'ticket' && name !== 'channel')
  if (foreign)
    problems.push(
      `${key}.url holds {${foreign}}: a WebSocket URL takes only {ticket} and {channel} (the receipt is never placed in a URL)`,
    )
  const inOpen = placeholdersOf(section.open)
  if (!inOpen.includes('receipt'))
    problems.push(`${key}.open holds no {receipt}: the receipt capability is what opens a protected channel`)
  if (!inOpen.includes('channel') && !inUrl.includes('channel'))
    problems.push(`${key}.open and ${key}.url hold no {channel}: one of them must name the channel opened`)
  const body = section.ticket.body === undefined ? [] : placeholdersOf(section.ticket.body)
  const bodyForeign = body.find((name) => name !== 'channel')
  if (bodyForeign) problems.push(`${key}.ticket.body holds {${bodyForeign}}: a ticket's body takes only {channel}`)
  if (section.ticket.body !== undefined && section.ticket.method === 'GET')
    problems.push(`${key}.ticket has a body but method GET: a body is sent with POST`)
  const stray = section.events?.terminal?.find((kind) => !section.events!.kinds.includes(kind))
  if (stray) problems.push(`${key}.events.terminal lists ${stray}, which is not one of events.kinds`)
  return problems
}
