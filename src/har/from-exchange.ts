import { unknownCodingOf } from '../http/content-coding.js'
import type { Exchange, ExchangeResponse, ExchangeTimings } from '../http/exchange.js'
import { listedResponse } from '../http/listed-material.js'
import { redactDeep, withoutSecretTail, type Secret } from '../http/secrets.js'
import type { HarEntry, HarNameValue } from './types.js'

const HTTP_VERSION = 'HTTP/1.1'

function nameValues(headers: Record<string, string | string[]>): HarNameValue[] {
  return Object.entries(headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => ({ name, value: v })),
  )
}

function harTimings(
  durationMs: number,
  timings: ExchangeTimings | undefined,
): { time: number; timings: HarEntry['timings'] } {
  const round = (ms: number) => Math.round(ms * 1000) / 1000
  const wait = round(timings?.waitMs ?? durationMs)
  const receive = round(timings?.receiveMs ?? 0)
  // The client measures from sending to the response head (wait) and on to the body's end (receive); the rest is
  // unknown (-1).
  return {
    time: round(wait + receive),
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait, receive },
  }
}

function harResponse(
  received: ExchangeResponse | undefined,
  error: Exchange['error'],
  secrets: readonly Secret[],
  shared: (response: ExchangeResponse) => ExchangeResponse,
): HarEntry['response'] {
  if (!received) {
    return {
      status: 0,
      statusText: '',
      httpVersion: '',
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: 'x-unknown' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      _error: error?.message,
    }
  }
  const bytes = Buffer.byteLength(received.body)
  const response = shared(received)
  const contentType = response.headers['content-type']
  const location = response.headers.location
  // A body cut at the cap ends where the cap fell: the beginning of a secret there is all of it that is left, which
  // redaction cannot recognise.
  const text = response.truncated ? withoutSecretTail(response.body, secrets) : response.body
  const content: HarEntry['response']['content'] = {
    size: bytes,
    mimeType: (Array.isArray(contentType) ? contentType[0] : contentType) ?? 'x-unknown',
    text,
  }
  if (response.truncated) content.comment = `body truncated at the size cap: the first ${bytes} bytes`
  if (unknownCodingOf(response.headers['content-encoding']) !== undefined && response.encodedBytes !== undefined) {
    // A body the suite could not decode is not recorded: what it holds cannot be redacted.
    Object.assign(content, {
      size: response.encodedBytes,
      comment: response.notJudged ?? 'a body in an unknown content coding: not recorded',
    })
    delete content.text
  } else if (response.encodedBytes !== undefined && !response.truncated) {
    // The body is recorded decoded, beside the headers as sent (Content-Encoding among them), as HAR 1.2 records it.
    content.compression = bytes - response.encodedBytes
  }
  return {
    status: response.status,
    statusText: '',
    httpVersion: HTTP_VERSION,
    cookies: [],
    headers: nameValues(response.headers),
    content,
    redirectURL: (Array.isArray(location) ? location[0] : location) ?? '',
    headersSize: -1,
    bodySize: response.encodedBytes ?? bytes,
  }
}

interface Attempt {
  startedAt?: string
  durationMs?: number
  timings?: ExchangeTimings
  response?: ExchangeResponse
  error?: Exchange['error']
}

function harEntry(
  exchange: Exchange,
  attempt: Attempt,
  checks: readonly string[],
  secrets: readonly Secret[],
  raw: boolean,
): HarEntry {
  const url = new URL(exchange.request.url)
  const entry: HarEntry = {
    startedDateTime: attempt.startedAt ?? new Date().toISOString(),
    ...harTimings(attempt.durationMs ?? 0, attempt.timings),
    request: {
      method: exchange.request.method,
      url: exchange.request.url,
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: nameValues(exchange.request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      headersSize: -1,
      bodySize: exchange.request.body === undefined ? 0 : Buffer.byteLength(exchange.request.body),
      ...(exchange.request.body === undefined
        ? {}
        : {
            postData: {
              mimeType: exchange.request.headers['content-type'] ?? 'application/json',
              text: exchange.request.body,
            },
          }),
    },
    response: harResponse(
      attempt.response,
      attempt.error,
      secrets,
      raw ? (response) => response : (response) => listedResponse(response, exchange.operation),
    ),
    cache: {},
  }
  if (checks.length > 0) entry._checks = [...checks]
  if (attempt.error) entry._error = `${attempt.error.code}: ${attempt.error.message}`
  return entry
}

/**
 * The requests of a followed redirect: each hop asked the URL before it, the last response answered the last Location.
 */
function redirectEntries(
  exchange: Exchange,
  checks: readonly string[],
  secrets: readonly Secret[],
  raw: boolean,
): HarEntry[] {
  const hops = exchange.redirects ?? []
  const last = hops.at(-1)
  const answered = last ? new URL(String(last.response.headers.location), last.url).href : exchange.request.url
  const asked = (url: string): Exchange => ({ ...exchange, request: { ...exchange.request, url } })
  return [
    ...hops.map((hop) =>
      harEntry(asked(hop.url), { ...exchange, response: hop.response, error: undefined }, checks, secrets, raw),
    ),
    harEntry(asked(answered), exchange, checks, secrets, raw),
  ]
}

/**
 * The HAR entries of an exchange: each retried attempt its own entry, oldest first, then the last (after the redirects
 * it followed, each its own entry); secrets as the reports' placeholders, and (unless `raw`) the response's unlisted
 * headers and unknown members as stand-ins.
 */
export function harEntries(
  exchange: Exchange,
  checks: readonly string[],
  secrets: readonly Secret[],
  raw = false,
): HarEntry[] {
  const entries = [
    ...exchange.retries.map((retry) => harEntry(exchange, retry, checks, secrets, raw)),
    ...redirectEntries(exchange, checks, secrets, raw),
  ]
  // Only the response the exchange ends with is known to have come on its connection: a retried attempt may not have.
  const last = entries.at(-1)
  if (last && exchange.connection) last.connection = String(exchange.connection.port ?? exchange.connection.number)
  // A channel's messages went after its upgrade was answered: on the entry of that answer.
  if (last && exchange.webSocketMessages)
    Object.assign(last, { _resourceType: 'websocket', _webSocketMessages: exchange.webSocketMessages })
  if (last && exchange.webSocketComment) last.comment = exchange.webSocketComment
  return redactDeep(entries, secrets)
}
