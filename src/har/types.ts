import type { WebSocketMessage } from '../http/exchange.js'

/** The parts of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) the suite writes and reads; tool-specific fields start with _. */
export interface Har {
  log: {
    version: string
    creator: { name: string; version: string }
    pages?: unknown[]
    entries: HarEntry[]
  }
}

export interface HarNameValue {
  name: string
  value: string
}

export interface HarEntry {
  startedDateTime: string
  time: number
  request: {
    method: string
    url: string
    httpVersion: string
    cookies: unknown[]
    headers: HarNameValue[]
    queryString: HarNameValue[]
    postData?: { mimeType: string; text?: string }
    headersSize: number
    bodySize: number
  }
  response: {
    status: number
    statusText: string
    httpVersion: string
    cookies: unknown[]
    headers: HarNameValue[]
    content: {
      size: number
      compression?: number
      mimeType: string
      text?: string
      encoding?: string
      comment?: string
    }
    redirectURL: string
    headersSize: number
    bodySize: number
    /** Chromium's and Playwright's field for a request that got no response. */
    _error?: string
  }
  cache: Record<string, never>
  timings: {
    blocked?: number
    dns?: number
    connect?: number
    ssl?: number
    send: number
    wait: number
    receive: number
  }
  /**
   * HAR 1.2: the ID of the TCP connection that carried it; a run writes the client's local port where it can tell
   * (src/core/report.ts, SampleConnection).
   */
  connection?: string
  /** The IDs of the checks whose requests made this exchange. */
  _checks?: string[]
  /** Why no response arrived (a transport failure, a timeout, an upstream that did not answer). */
  _error?: string
  /** Chromium's: 'websocket' on an upgrade entry. */
  _resourceType?: string
  /** Chromium's field for the messages of a WebSocket channel, on its upgrade's entry (a 101). */
  _webSocketMessages?: WebSocketMessage[]
  /** HAR 1.2: what the recording of the entry left out. */
  comment?: string
}
