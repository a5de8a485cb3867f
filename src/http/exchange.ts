import type { SampleConnection } from '../core/report.js'
/** One request and what came back, as the suite saw it. Holds real secrets: redact before it leaves the worker. */
export interface Exchange {
  /** The contract operation the request addressed; undefined for paths outside the contract. */
  operation?: string
  request: ExchangeRequest
  response?: ExchangeResponse
  /** Set when no complete response arrived: a transport failure, a timeout, or a body over the size cap. */
  error?: { code: string; message: string }
  /** When the request was sent (ISO 8601); undefined for a request that was never sent. */
  startedAt?: string
  /** The connection that carried its response, where the client can tell (one connection at a time). */
  connection?: SampleConnection
  durationMs: number
  timings?: ExchangeTimings
  /**
   * Earlier attempts of the same request that were retried (429, 500, 502, 503, 504), oldest first, with the wait
   * before the next attempt.
   */
  retries: RetriedAttempt[]
  /** The redirects followed before the response, oldest first; the response answered the last one's Location. */
  redirects?: RedirectHop[]
  /** For a WebSocket upgrade (a 101): the channel's messages in the order they went, as Chromium's HAR records them. */
  webSocketMessages?: WebSocketMessage[]
  /** What the recording of the channel's messages left out, and why. */
  webSocketComment?: string
}

/**
 * One message of a WebSocket channel as Chromium's HAR records it (`_webSocketMessages`): send from the client, receive
 * from the server; time in seconds since the epoch; opcode 1 text, 2 binary (data in base64), 8 close (data: the code,
 * then the reason).
 */
export interface WebSocketMessage {
  type: 'send' | 'receive'
  time: number
  opcode: number
  data: string
}

/** Where an attempt's time went, as the client measured it: waiting for the response head, then reading the body. */
export interface ExchangeTimings {
  waitMs: number
  receiveMs: number
}

export interface RetriedAttempt extends Pick<Exchange, 'startedAt' | 'timings' | 'error'> {
  /**
   * The attempt's status; 0 for a write whose attempt got no response (an ambiguous transport failure, sent again as it
   * was).
   */
  status: number
  waitedMs: number
  response?: ExchangeResponse
  durationMs?: number
}

export interface ExchangeRequest {
  method: string
  url: string
  headers: Record<string, string>
  /** The body sent, for a write: every attempt of the exchange sent exactly these bytes. */
  body?: string
}

export interface ExchangeResponse {
  status: number
  headers: Record<string, string | string[]>
  body: string
  /** Set when the body was cut at the size cap. */
  truncated: boolean
  json?: unknown
  /** Why the body is not JSON, when it is not. */
  jsonError?: string
  /**
   * Why the response is not judged at all: a body in a content coding the suite cannot decode, a redirect not followed.
   */
  notJudged?: string
  /** The body's size as sent, when it came in a content coding (body is then the decoded text). */
  encodedBytes?: number
  /**
   * A recorded response (check-har) some of whose values the recording kept as stand-ins (src/http/listed-material.ts):
   * a finding about one of them is set aside, its rule not applied to it.
   */
  standIns?: true
}

/**
 * A redirect the client followed (same origin, a GET): the URL it asked and the 3xx it got; the next hop asked its
 * Location.
 */
export interface RedirectHop {
  url: string
  response: ExchangeResponse
}

export function headerValues(response: ExchangeResponse, name: string): string[] {
  const value = response.headers[name.toLowerCase()]
  if (value === undefined) return []
  return Array.isArray(value) ? value : [value]
}

/**
 * A header as a message names it: `x-request-id "abc"`, or `no single x-request-id` where it is missing or repeated
 * (never "undefined").
 */
export function headerShown(response: ExchangeResponse, name: string): string {
  const value = headerValue(response, name)
  return value === undefined ? `no single ${name}` : `${name} ${JSON.stringify(value)}`
}

/** The single value of a header, or undefined when it is missing or repeated. */
export function headerValue(response: ExchangeResponse, name: string): string | undefined {
  const values = headerValues(response, name)
  return values.length === 1 ? values[0] : undefined
}
