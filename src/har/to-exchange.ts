import { isUtf8 } from 'node:buffer'
import { settingDefaults } from '../core/defaults.js'
import { decodeBody, decodedResponse } from '../http/content-coding.js'
import type { Exchange, ExchangeResponse, WebSocketMessage } from '../http/exchange.js'
import { holdsStandIn, standInHeaders } from '../http/listed-material.js'
import { recordedRedirect } from '../http/redirects.js'
import { parsedResponse } from '../http/response-body.js'
import type { HarEntry, HarNameValue } from './types.js'

/**
 * A recorded exchange as the suite's judgements read it, whether the recording kept the response body, and what the
 * HAR names as its senders (`_checks`: a run's check IDs, its last sweep, a soak's round).
 */
export interface RecordedExchange {
  exchange: Exchange
  bodyRecorded: boolean
  senders?: string[]
}

function headerRecord(headers: readonly HarNameValue[]): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {}
  for (const { name, value } of headers) {
    const key = name.toLowerCase()
    const known = record[key]
    record[key] = known === undefined ? value : [...(Array.isArray(known) ? known : [known]), value]
  }
  return record
}

/**
 * A body recorded as base64. HAR 1.2 records bodies decoded, but some recorders keep the bytes as received, with their
 * Content-Encoding: those are decoded (each decoded body capped as a run caps it). Bytes that are not in the coding
 * their header names, yet are UTF-8 text, are the recorder's decoded body, as HAR 1.2 says.
 */
async function recordedBytes(
  status: number,
  headers: Record<string, string | string[]>,
  bytes: Buffer,
  maxBodyBytes: number,
): Promise<ExchangeResponse> {
  const decoded = await decodeBody(bytes, headers['content-encoding'], maxBodyBytes)
  const alreadyDecoded = !('bytes' in decoded) && isUtf8(bytes)
  return alreadyDecoded
    ? parsedResponse(status, headers, bytes.toString('utf8'), false)
    : decodedResponse(status, headers, bytes, false, maxBodyBytes)
}

/** An upgrade entry's WebSocket messages as Chromium records them, those of another shape left out. */
function webSocketMessagesOf(entry: HarEntry): WebSocketMessage[] | undefined {
  const recorded: unknown = entry._webSocketMessages
  if (!Array.isArray(recorded)) return undefined
  return recorded.filter(
    (message): message is WebSocketMessage =>
      typeof message === 'object' &&
      message !== null &&
      ['send', 'receive'].includes((message as WebSocketMessage).type) &&
      [1, 2].includes((message as WebSocketMessage).opcode) &&
      typeof (message as WebSocketMessage).data === 'string',
  )
}

/**
 * One HAR entry as an exchange. A status of 0 is a request that got no response (Chromium and Playwright record them
 * so).
 */
export async function exchangeOf(
  entry: HarEntry,
  maxBodyBytes: number = settingDefaults.maxBodyBytes,
): Promise<RecordedExchange> {
  const requestHeaders: Record<string, string> = {}
  for (const [name, value] of Object.entries(headerRecord(entry.request.headers)))
    requestHeaders[name] = Array.isArray(value) ? value.join(', ') : value
  const exchange: Exchange = {
    request: {
      method: entry.request.method,
      url: entry.request.url,
      headers: requestHeaders,
      ...(entry.request.postData?.text === undefined ? {} : { body: entry.request.postData.text }),
    },
    startedAt: entry.startedDateTime,
    durationMs: entry.time,
    retries: [],
    ...(typeof entry.connection === 'string' && entry.connection !== ''
      ? { connection: { id: entry.connection } }
      : {}),
  }
  const messages = webSocketMessagesOf(entry)
  if (messages) exchange.webSocketMessages = messages
  const senders = Array.isArray(entry._checks) ? { senders: entry._checks.filter((s) => typeof s === 'string') } : {}
  const { response } = entry
  if (response.status === 0) {
    exchange.error = { code: 'NO_RESPONSE', message: response._error ?? entry._error ?? 'no response was recorded' }
    return { exchange, bodyRecorded: false, ...senders }
  }
  const { content } = response
  const bodyRecorded = typeof content.text === 'string' || content.size === 0
  const headers = headerRecord(response.headers)
  exchange.response = recordedRedirect(
    content.text !== undefined && content.encoding === 'base64'
      ? await recordedBytes(response.status, headers, Buffer.from(content.text, 'base64'), maxBodyBytes)
      : parsedResponse(response.status, headers, content.text ?? '', false),
  )
  if (standInHeaders(headers).length > 0 || holdsStandIn(exchange.response.body)) exchange.response.standIns = true
  return { exchange, bodyRecorded, ...senders }
}
