import type { Exchange } from '../http/exchange.js'
import { decodeUtf8, parsedResponse } from '../http/response-body.js'
import type { HarEntry, HarNameValue } from './types.js'

/** A recorded exchange as the suite's judgements read it, and whether the recording kept the response body. */
export interface RecordedExchange {
  exchange: Exchange
  bodyRecorded: boolean
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

/** One HAR entry as an exchange. A status of 0 is a request that got no response (Chromium and Playwright record them so). */
export function exchangeOf(entry: HarEntry): RecordedExchange {
  const requestHeaders: Record<string, string> = {}
  for (const [name, value] of Object.entries(headerRecord(entry.request.headers))) requestHeaders[name] = Array.isArray(value) ? value.join(', ') : value
  const exchange: Exchange = {
    request: { method: entry.request.method, url: entry.request.url, headers: requestHeaders, ...(entry.request.postData?.text === undefined ? {} : { body: entry.request.postData.text }) },
    startedAt: entry.startedDateTime,
    durationMs: entry.time,
    retries: [],
  }
  const { response } = entry
  if (response.status === 0) {
    exchange.error = { code: 'NO_RESPONSE', message: response._error ?? entry._error ?? 'no response was recorded' }
    return { exchange, bodyRecorded: false }
  }
  const { content } = response
  const bodyRecorded = typeof content.text === 'string' || content.size === 0
  const body = content.text === undefined ? '' : content.encoding === 'base64' ? decodeUtf8(Buffer.from(content.text, 'base64')) : content.text
  exchange.response = parsedResponse(response.status, headerRecord(response.headers), body, false)
  return { exchange, bodyRecorded }
}
