import type { Exchange, ExchangeResponse } from '../../src/http/exchange.js'

/** What a hand-made exchange was sent as: the operation, method, URL and headers of its request. */
export interface Sent {
  operation?: string
  method?: string
  url?: string
  headers?: Record<string, string>
}

/** A response made by hand: a status, headers and a JSON body (none when json is undefined). */
export function responseOf(
  status: number,
  headers: Readonly<Record<string, string | readonly string[]>> = {},
  json?: unknown,
): ExchangeResponse {
  return {
    status,
    headers: headers as ExchangeResponse['headers'],
    body: json === undefined ? '' : JSON.stringify(json),
    truncated: false,
    ...(json === undefined ? { jsonError: 'empty' } : { json }),
  }
}

/** The headers of a request that accepts JSON. */
export const ACCEPTED = { accept: 'application/json' }

/** An exchange made by hand: the response to a GET of /v1/markets unless sent says otherwise. */
export function exchangeOf(response: ExchangeResponse | undefined, sent: Sent = {}): Exchange {
  const { url = 'http://127.0.0.1:9/v1/markets', headers = ACCEPTED, method = 'GET' } = sent
  const operation = 'operation' in sent ? sent.operation : 'listMarkets'
  return { operation, request: { method, url, headers }, response, retries: [] } as unknown as Exchange
}
