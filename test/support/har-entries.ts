import type { HarEntry } from '../../src/har/types.js'

type Headers = Record<string, string | string[]>

/** What a test says of one exchange of a HAR; the rest of the entry is what every recorder writes. */
export interface EntryOf {
  url: string
  method?: string
  /** The request's headers, a list for a repeated one. */
  sent?: Headers
  status?: number
  statusText?: string
  headers?: Headers
  /** The response's content; a text body is given as `body` instead. */
  content?: HarEntry['response']['content']
  /** A JSON text body, its size counted in bytes. */
  body?: string
  startedDateTime?: string
}

const pairs = (record: Headers) =>
  Object.entries(record).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => ({ name, value: v })),
  )

/** A HAR 1.2 entry of one exchange as a recorder writes it: no cookies, no sizes it did not measure, one timing. */
export function harEntry(of: EntryOf): HarEntry {
  const content = of.content ?? {
    size: of.body === undefined ? -1 : Buffer.byteLength(of.body),
    mimeType: 'application/json',
    ...(of.body === undefined ? {} : { text: of.body }),
  }
  return {
    startedDateTime: of.startedDateTime ?? new Date(0).toISOString(),
    time: 1,
    request: {
      method: of.method ?? 'GET',
      url: of.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(of.sent ?? {}),
      queryString: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: of.status ?? 200,
      statusText: of.statusText ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(of.headers ?? {}),
      content,
      redirectURL: '',
      headersSize: -1,
      bodySize: content.size,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  }
}

/** The text of a HAR file holding these entries. */
export const harText = (entries: readonly HarEntry[]): string =>
  JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } })
