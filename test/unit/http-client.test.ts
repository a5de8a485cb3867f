import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { HttpClient, type ClientOptions } from '../../src/http/client.js'
import { defaultRetryPolicy } from '../../src/http/retry.js'
import { createSharedState } from '../../src/http/shared-state.js'
import { operations } from '../../src/contract/operations.js'
import { unansweredAs } from '../../src/http/transport-errors.js'

/**
 * A server answering each request with the next scripted status (then 200), recording when each request arrived (its
 * clock, in ms).
 */
async function scriptedServer(statuses: number[], headers: Record<string, string> = {}) {
  const arrivals: number[] = []
  const script = [...statuses]
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    arrivals.push(Date.now())
    if (req.url?.startsWith('/hang')) return
    const status = script.shift() ?? 200
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-request-id': 'test-request-1',
      ...(status === 200 ? {} : headers),
    })
    res.end(status === 200 ? '{"data":{}}' : '{"error":"scripted"}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push(server)
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals }
}

const servers: Server[] = []
const clients: HttpClient[] = []

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

function clientFor(baseUrl: string, options: Partial<ClientOptions> = {}): HttpClient {
  const client = new HttpClient({
    baseUrl,
    concurrency: 4,
    connectTimeoutMs: 1000,
    requestTimeoutMs: 2000,
    maxBodyBytes: 1024 * 1024,
    retryPolicy: { ...defaultRetryPolicy, backoffBaseMs: 20, backoffCapMs: 100 },
    ...options,
  })
  clients.push(client)
  return client
}

const withKey = { path: '/v1/vault', headers: { 'x-api-key': 'k' } }

/** Aborts `controller` once the server has seen `count` requests, and `afterMs` more have passed. */
function abortOnArrival(controller: AbortController, arrivals: readonly number[], count = 1, afterMs = 0): void {
  const poll = setInterval(() => {
    if (arrivals.length < count) return
    clearInterval(poll)
    setTimeout(() => controller.abort(), afterMs)
  }, 5)
}

describe('the HTTP client', () => {
  test('retries a 429 after its Retry-After and sends nothing with that key before then', async () => {
    const target = await scriptedServer([429], { 'retry-after': '1' })
    const client = clientFor(target.baseUrl)
    const first = await client.get(withKey)
    const second = await client.get(withKey)
    expect(first.response?.status).toBe(200)
    expect(first.retries.map((r) => r.status)).toEqual([429])
    expect(second.retries).toEqual([])
    expect(target.arrivals, 'the 429, its retry and the next request').toHaveLength(3)
    expect(
      target.arrivals[1]! - target.arrivals[0]!,
      'the retry came before Retry-After had passed (measured at the server)',
    ).toBeGreaterThanOrEqual(1000)
  })

  test('holds every request with a key while a 429 on that key is in force', async () => {
    const target = await scriptedServer([429], { 'retry-after': '1' })
    const client = clientFor(target.baseUrl)
    await client.get({ ...withKey, retry: false })
    const other = await client.get(withKey)
    expect(other.response?.status).toBe(200)
    expect(other.retries, 'the other request was held, not sent and retried').toEqual([])
    expect(
      target.arrivals[1]! - target.arrivals[0]!,
      'the other request came before Retry-After had passed (measured at the server)',
    ).toBeGreaterThanOrEqual(1000)
  })

  test('waits a bounded default after a 429 without Retry-After', async () => {
    const target = await scriptedServer([429])
    const exchange = await clientFor(target.baseUrl, {
      retryPolicy: { ...defaultRetryPolicy, defaultRateLimitWaitMs: 300 },
    }).get(withKey)
    expect(exchange.response?.status).toBe(200)
    expect(
      target.arrivals[1]! - target.arrivals[0]!,
      'the retry came before the default wait had passed (measured at the server)',
    ).toBeGreaterThanOrEqual(300)
  })

  test('retries 502 and 503 with backoff and returns the last answer after the bounded number of attempts', async () => {
    const target = await scriptedServer([502, 503, 502, 503, 502, 503, 502, 503])
    const exchange = await clientFor(target.baseUrl).get(withKey)
    expect(exchange.response?.status).toBe(503)
    expect(exchange.retries.map((r) => r.status)).toEqual([502, 503, 502, 503, 502])
    expect(target.arrivals).toHaveLength(defaultRetryPolicy.maxAttempts)
  })

  test('retries a 504 as it retries a 502: the three statuses of a dependency are transient', async () => {
    const target = await scriptedServer([504, 504, 502])
    const exchange = await clientFor(target.baseUrl).get(withKey)
    expect(exchange.response?.status).toBe(200)
    expect(exchange.retries.map((r) => r.status)).toEqual([504, 504, 502])
  })

  test('sends a read answered 500 once more, and returns the second 500 without a third attempt', async () => {
    const target = await scriptedServer([500, 500, 500])
    const exchange = await clientFor(target.baseUrl).get(withKey)
    expect(exchange.response?.status).toBe(500)
    expect(
      exchange.retries.map((r) => r.status),
      'the first 500 is kept for the evidence',
    ).toEqual([500])
    expect(target.arrivals, 'a 500 is sent again once, not as a transient status is').toHaveLength(2)
  })

  test('returns the answer that follows a single 500, with the 500 among the retried attempts', async () => {
    const target = await scriptedServer([500, 502])
    const exchange = await clientFor(target.baseUrl).get(withKey)
    expect(exchange.response?.status).toBe(200)
    expect(exchange.retries.map((r) => r.status)).toEqual([500, 502])
  })

  test('sends a write of any method answered 500, 502 or 504 once only: it is no safe read', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      for (const status of [500, 502, 504]) {
        const target = await scriptedServer([status])
        const exchange = await clientFor(target.baseUrl).request({ ...withKey, method, body: '{}' })
        expect(exchange.response?.status, `a ${method} answered ${status}`).toBe(status)
        expect(target.arrivals, `a ${method} answered ${status} was sent again`).toHaveLength(1)
      }
  })

  test('sends a request without a method as a GET: a 500 is sent once more', async () => {
    const target = await scriptedServer([500])
    const exchange = await clientFor(target.baseUrl).request({ path: '/v1/vault' })
    expect(exchange.request.method).toBe('GET')
    expect(exchange.response?.status).toBe(200)
    expect(exchange.retries.map((r) => r.status)).toEqual([500])
    expect(target.arrivals).toHaveLength(2)
  })

  test('retries the 5xx of a request that asks for no retry: only its 429 comes back as it is', async () => {
    const target = await scriptedServer([504, 500])
    const exchange = await clientFor(target.baseUrl).get({ ...withKey, retry: false })
    expect(exchange.response?.status).toBe(200)
    expect(exchange.retries.map((r) => r.status)).toEqual([504, 500])
  })

  test("returns a 503 whose Retry-After is longer than the client's bound without waiting", async () => {
    const target = await scriptedServer([503], { 'retry-after': '86400' })
    const exchange = await clientFor(target.baseUrl).get(withKey)
    expect(exchange.response?.status).toBe(503)
    expect(exchange.retries, 'the 503 was waited out and retried').toEqual([])
    expect(target.arrivals, 'the server saw a retry').toHaveLength(1)
  })

  test('returns a 429 as it is when the request asks for no retry', async () => {
    const target = await scriptedServer([429], { 'retry-after': '1' })
    const exchange = await clientFor(target.baseUrl).get({ ...withKey, retry: false })
    expect(exchange.response?.status).toBe(429)
    expect(exchange.retries).toEqual([])
  })

  test('cuts off a request in flight at the run time bound and sends none after it', async () => {
    const target = await scriptedServer([])
    const client = clientFor(target.baseUrl, { requestTimeoutMs: 60_000, deadlineAt: Date.now() + 300 })
    const hanging = await client.get({ path: '/hang' })
    expect(hanging.error).toEqual({
      code: 'RUN_TIME_BOUND',
      message: "cut off: the run's time bound (--max-duration) had passed",
    })
    const later = await client.get(withKey)
    expect(later.error).toEqual({
      code: 'RUN_TIME_BOUND',
      message: "not sent: the run's time bound (--max-duration) had passed",
    })
    expect(target.arrivals).toHaveLength(1)
  })

  test('refuses a header value HTTP does not allow before sending it, and the requests queued with it all settle', async () => {
    const target = await scriptedServer([])
    const client = clientFor(target.baseUrl, { concurrency: 2 })
    const keys = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? 'good-key' : 'bad-key\r'))
    const exchanges = await Promise.all(
      keys.map((key) => client.get({ path: '/v1/vault', headers: { 'x-api-key': key } })),
    )
    expect(exchanges.map((e) => e.response?.status ?? e.error?.code)).toEqual(
      keys.map((key) => (key === 'good-key' ? 200 : 'HEADER_NOT_SENDABLE')),
    )
    expect(exchanges[1]!.error!.message).toBe(
      'not sent: the x-api-key header holds the character U+000D, which HTTP does not allow in a header value',
    )
    expect(target.arrivals, 'only the sendable requests reached the server').toHaveLength(6)
  })

  test.each([
    ['a tab', 'key\twith-tab', undefined],
    ['a space and a tilde', 'key with ~', undefined],
    ['an obs-text byte', 'key-\xe9', undefined],
    ['U+001F', 'key\x1f', 'U+001F'],
    ['U+007F', 'key\x7f', 'U+007F'],
    ['U+0100', 'key\u0100', 'U+0100'],
  ])('a header value holding %s is sent only where HTTP allows it', async (_, key, refused) => {
    const target = await scriptedServer([])
    const exchange = await clientFor(target.baseUrl).get({ path: '/v1/vault', headers: { 'x-api-key': key } })
    if (refused === undefined) expect(exchange.response?.status).toBe(200)
    else expect(exchange.error?.message).toMatch(`holds the character ${refused}`)
    expect(target.arrivals).toHaveLength(refused === undefined ? 1 : 0)
  })

  test("names a transport failure in words, never a library's internal text", async () => {
    const target = await scriptedServer([])
    const tls = await clientFor(target.baseUrl.replace('http:', 'https:')).get(withKey)
    expect(tls.error).toEqual({
      code: 'ERR_SSL_WRONG_VERSION_NUMBER',
      message:
        'the TLS handshake failed: the port does not speak TLS (an http:// port?) (ERR_SSL_WRONG_VERSION_NUMBER)',
    })
    const closing = createServer((req) => req.socket.destroy())
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve))
    servers.push(closing)
    const closed = await clientFor(`http://127.0.0.1:${(closing.address() as AddressInfo).port}`).get(withKey)
    expect(closed.error).toEqual({
      code: 'UND_ERR_SOCKET',
      message: 'the connection was closed before the response was complete',
    })
  })
})

/** A server answering each path by its handler, recording every request it saw (path and headers). */
async function routedServer(routes: Record<string, (res: ServerResponse, req: IncomingMessage) => void>) {
  const seen: { url: string; headers: IncomingMessage['headers'] }[] = []
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers })
    const route = routes[(req.url ?? '').replace(/\?.*$/, '')]
    if (route) route(res, req)
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push(server)
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

const JSON_BODY = '{"data":{"symbol":"ETH-USD"}}'
const encoded = (coding: string, bytes: Buffer) => (res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding }).end(bytes)

describe('the HTTP client reads responses as clients meet them', () => {
  test('states the codings it decodes, and decodes each coding a server may choose, chains included, before anything reads the body', async () => {
    const body = Buffer.from(JSON_BODY)
    const target = await routedServer({
      '/gzip': encoded('gzip', gzipSync(body)),
      '/x-gzip': encoded('x-gzip', gzipSync(body)),
      '/deflate': encoded('deflate', deflateSync(body)),
      '/raw-deflate': encoded('deflate', deflateRawSync(body)),
      '/br': encoded('br', brotliCompressSync(body)),
      '/chain': encoded('gzip, br', brotliCompressSync(gzipSync(body))),
      '/identity': encoded('identity', body),
    })
    const client = clientFor(target.baseUrl)
    for (const path of ['/gzip', '/x-gzip', '/deflate', '/raw-deflate', '/br', '/chain', '/identity']) {
      const exchange = await client.get({ path })
      expect(exchange.error, path).toBeUndefined()
      expect(exchange.response?.json, path).toEqual({ data: { symbol: 'ETH-USD' } })
      expect(exchange.response?.notJudged, path).toBeUndefined()
    }
    expect(target.seen.map((request) => request.headers['accept-encoding'])).toEqual(Array(7).fill('gzip, deflate, br'))
  })

  test('leaves a body in a coding it cannot decode not judged, naming the coding; a body not in its declared coding is kept as served, not JSON', async () => {
    const target = await routedServer({
      '/zstd': encoded('zstd', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0])),
      '/lie': encoded('gzip', Buffer.from(JSON_BODY)),
    })
    const client = clientFor(target.baseUrl)
    const unknown = await client.get({ path: '/zstd' })
    expect(unknown.response?.status).toBe(200)
    expect(unknown.response?.notJudged).toBe('a body in an unknown content coding zstd: not judged')
    expect(unknown.response?.json).toBeUndefined()
    const lie = await client.get({ path: '/lie' })
    expect(lie.response?.notJudged).toBeUndefined()
    expect(lie.response?.json).toBeUndefined()
    expect(lie.response?.body).toBe(JSON_BODY)
    expect(lie.response?.jsonError).toBe(
      'not readable: content-encoding gzip, but the body is not in that coding (incorrect header check)',
    )
  })

  test('keeps a decompression bomb to the cap on its decoded size, and says so', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20))
    const target = await routedServer({ '/bomb': encoded('gzip', bomb) })
    const exchange = await clientFor(target.baseUrl, { maxBodyBytes: 1024 * 1024 }).get({ path: '/bomb' })
    expect(bomb.length, 'the bomb fits under the cap as sent').toBeLessThan(1024 * 1024)
    expect(exchange.response?.truncated).toBe(true)
    expect(
      Buffer.byteLength(exchange.response!.body),
      'only the start of the decoded body is kept',
    ).toBeLessThanOrEqual(64 * 1024)
    expect(exchange.error).toEqual({
      code: 'BODY_TOO_LARGE',
      message: 'response body decoded larger than 1048576 bytes; read stopped there',
    })
  })

  test('names a response head over the header limit as such, not as no response', async () => {
    const target = await routedServer({
      '/huge-head': (res) =>
        res.writeHead(200, { 'content-type': 'application/json', 'x-padding': 'a'.repeat(20 * 1024) }).end('{}'),
    })
    const exchange = await clientFor(target.baseUrl).get({ path: '/huge-head' })
    expect(exchange.response).toBeUndefined()
    expect(exchange.error).toEqual({
      code: 'UND_ERR_HEADERS_OVERFLOW',
      message: "the response's header section is over 16 KiB: not readable",
    })
    expect(unansweredAs(exchange.error), 'as a report names it in place of a status').toBe(
      "a response whose head is not readable (the response's header section is over 16 KiB: not readable)",
    )
  })

  test('names a refused connection in words, with its code', async () => {
    const target = await routedServer({})
    const port = Number(new URL(target.baseUrl).port)
    await new Promise((resolve) => servers.pop()!.close(resolve))
    const exchange = await clientFor(`http://127.0.0.1:${port}`).get({ path: '/v1/vault' })
    expect(exchange.error).toEqual({ code: 'ECONNREFUSED', message: 'the connection was refused (ECONNREFUSED)' })
  })

  test('follows a redirect of its own origin for a GET, the same headers sent, and records each hop', async () => {
    const target = await routedServer({
      '/v1/markets': (res) => res.writeHead(308, { location: '/v1/markets/?page=1' }).end(),
      '/v1/markets/': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON_BODY),
    })
    const exchange = await clientFor(target.baseUrl).get({ path: '/v1/markets', headers: { 'x-api-key': 'k' } })
    expect(exchange.response?.status).toBe(200)
    expect(exchange.response?.json).toEqual({ data: { symbol: 'ETH-USD' } })
    expect(exchange.redirects?.map((hop) => [hop.url, hop.response.status])).toEqual([
      [`${target.baseUrl}/v1/markets`, 308],
    ])
    expect(target.seen.map((request) => [request.url, request.headers['x-api-key']])).toEqual([
      ['/v1/markets', 'k'],
      ['/v1/markets/?page=1', 'k'],
    ])
  })

  test('never follows a redirect to another origin: the API key and the query stay home, and the response is not judged', async () => {
    const collector = await routedServer({})
    const target = await routedServer({
      '/v1/intents/x': (res) => res.writeHead(302, { location: `${collector.baseUrl}/collect` }).end(),
    })
    const exchange = await clientFor(target.baseUrl).get({
      path: '/v1/intents/x?receipt=secret-receipt',
      headers: { 'x-api-key': 'secret-key' },
    })
    expect(exchange.response?.status).toBe(302)
    expect(exchange.response?.notJudged).toBe(
      `a 302 redirect to another origin (${collector.baseUrl}): not followed, so that the API key and the request's query are not sent there; not judged`,
    )
    expect(collector.seen, 'the other origin got a request').toEqual([])
  })

  test('follows a redirect loop of its own origin at most 5 times, then leaves it not judged', async () => {
    const target = await routedServer({ '/loop': (res) => res.writeHead(307, { location: '/loop' }).end() })
    const exchange = await clientFor(target.baseUrl).get({ path: '/loop' })
    expect(target.seen).toHaveLength(6)
    expect(exchange.redirects).toHaveLength(5)
    expect(exchange.response?.notJudged).toBe('redirected more than 5 times: not followed further, not judged')
  })

  test.each(['POST', 'PUT', 'PATCH', 'DELETE'])(
    'does not follow a redirect of a %s, and sends the write once',
    async (method) => {
      const target = await routedServer({
        '/v1/orders': (res) => res.writeHead(307, { location: '/v1/orders/elsewhere' }).end(),
      })
      const exchange = await clientFor(target.baseUrl).request({
        method,
        path: '/v1/orders',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      })
      expect(exchange.response?.notJudged).toBe(
        `a 307 redirect of a ${method}: not followed (a write is sent only where the suite addressed it); not judged`,
      )
      expect(target.seen.map((request) => request.url)).toEqual(['/v1/orders'])
    },
  )

  test('never follows a redirect to the same host and port under another scheme: that is another origin', async () => {
    let sameHostOverTls = ''
    const target = await routedServer({
      '/v1/markets': (res) => res.writeHead(301, { location: `${sameHostOverTls}/v1/markets` }).end(),
    })
    sameHostOverTls = target.baseUrl.replace('http:', 'https:')
    const exchange = await clientFor(target.baseUrl).get({ path: '/v1/markets' })
    expect(exchange.response?.status).toBe(301)
    expect(exchange.response?.notJudged).toMatch(`a 301 redirect to another origin (${sameHostOverTls})`)
  })
})

describe('the HTTP client at the bounds of a run', () => {
  test('refuses, unsent, a request whose quota a 429 closed for longer than the client waits; waits out one it may', async () => {
    const target = await scriptedServer([429, 429], { 'retry-after': '2', 'x-ratelimit-scope': 'ip' })
    const client = clientFor(target.baseUrl, { retryPolicy: { ...defaultRetryPolicy, maxWaitMs: 1500 } })
    const limited = await client.get({ ...withKey, retry: false })
    expect(limited.response?.status).toBe(429)
    const later = await client.get({ path: '/v1/other', headers: { 'x-api-key': 'another' } })
    expect(later.error).toEqual({
      code: 'RATE_LIMITED',
      message: 'not sent: a 429 closed the quota of this request for 2 s more, longer than the 1.5 s the client waits',
    })
    expect(later.durationMs).toBe(0)
    expect(target.arrivals, 'the refused request was sent').toHaveLength(1)

    const short = await scriptedServer([429], { 'retry-after': '1' })
    const patient = clientFor(short.baseUrl, { retryPolicy: { ...defaultRetryPolicy, maxWaitMs: 1000 } })
    await patient.get({ ...withKey, retry: false })
    const waited = await patient.get(withKey)
    expect(waited.response?.status, 'a closing as long as the bound is waited out').toBe(200)
  })

  test("a 429 of the key's quota holds that key alone; a 429 of another quota holds every key", async () => {
    for (const scope of ['api-key', 'ip']) {
      let answered = 0
      const target = await routedServer({
        '/v1/vault': (res) =>
          answered++ === 0
            ? res.writeHead(429, { 'retry-after': '1', 'x-ratelimit-scope': scope }).end()
            : res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
      })
      const client = clientFor(target.baseUrl)
      const started = Date.now()
      await client.get({ path: '/v1/vault', headers: { 'x-api-key': 'a' }, retry: false })
      const [other] = await Promise.all([
        client
          .get({ path: '/v1/vault', headers: { 'x-api-key': 'b' } })
          .then((exchange) => ({ exchange, at: Date.now() })),
        client.get({ path: '/v1/vault', headers: { 'x-api-key': 'a' } }),
      ])
      expect(
        target.seen.map((request) => request.headers['x-api-key']),
        scope,
      ).toEqual(scope === 'api-key' ? ['a', 'b', 'a'] : ['a', expect.any(String), expect.any(String)])
      if (scope === 'ip')
        expect(other.at - started, 'the other key waited out Retry-After').toBeGreaterThanOrEqual(1000)
      expect(other.exchange.response?.status).toBe(200)
    }
  })

  test('sends nothing whose wait for its quota outlasts the run, and returns a response whose retry would', async () => {
    const target = await scriptedServer([429, 503], { 'retry-after': '2' })
    const client = clientFor(target.baseUrl, { deadlineAt: Date.now() + 1500 })
    const limited = await client.get({ ...withKey, retry: false })
    expect(limited.response?.status).toBe(429)
    // Refused at once: had it waited for the quota, the check's end would have come first.
    const held = await client.get({ ...withKey, signal: AbortSignal.timeout(500) })
    expect(held.error).toEqual({
      code: 'RUN_TIME_BOUND',
      message: "not sent: the run's time bound (--max-duration) had passed",
    })
    const other = await scriptedServer([503], { 'retry-after': '2' })
    const unavailable = await clientFor(other.baseUrl, { deadlineAt: Date.now() + 1500 }).get(withKey)
    expect(unavailable.response?.status, 'a 503 whose Retry-After outlasts the run is the answer').toBe(503)
    expect(unavailable.retries).toEqual([])
    expect(other.arrivals).toHaveLength(1)
  })

  test('cuts off a request at its time bound, names the bound, and does not send a read again after it', async () => {
    const target = await scriptedServer([])
    const exchange = await clientFor(target.baseUrl, { requestTimeoutMs: 300 }).get({ path: '/hang' })
    expect(exchange.error).toEqual({ code: 'TIMEOUT', message: 'no complete response within 300 ms' })
    expect(exchange.response).toBeUndefined()
    expect(exchange.retries, 'a read is not sent again after a timeout').toEqual([])
    expect(target.arrivals.length).toBeLessThanOrEqual(1)
  })

  test('closes an operation that stopped answering at max(3, concurrency) unanswered requests in a row', async () => {
    for (const [concurrency, threshold] of [
      [1, 3],
      [4, 4],
    ] as const) {
      const target = await scriptedServer([])
      const client = clientFor(target.baseUrl, { concurrency, requestTimeoutMs: 150 })
      const ends: (string | undefined)[] = []
      for (let i = 0; i <= threshold; i++)
        ends.push((await client.get({ path: '/hang', operation: 'getVault' })).error?.code)
      expect(ends, `concurrency ${concurrency}`).toEqual([...Array(threshold).fill('TIMEOUT'), 'TARGET_NOT_ANSWERING'])
      expect(target.arrivals.length, `concurrency ${concurrency}: sent`).toBeLessThanOrEqual(threshold)
      const others = operations()
        .map((op) => op.id)
        .filter((id) => id !== 'getVault')
      for (const operation of others) {
        const other = await client.get({ path: '/v1/markets', operation })
        expect(other.response?.status, `${operation}, another operation, is still sent`).toBe(200)
      }
    }
  })

  test('sends nothing once the run is interrupted, and names the interruption', async () => {
    const target = await scriptedServer([])
    const stop = new AbortController()
    stop.abort()
    const exchange = await clientFor(target.baseUrl, { stop: stop.signal }).get(withKey)
    expect(exchange.error?.code).toBe('RUN_INTERRUPTED')
    expect(exchange.error?.message).toMatch(/\(not sent\)$/)
    expect(target.arrivals).toHaveLength(0)
  })

  test('a request waiting for its quota is not sent when its check ends, nor when the run is interrupted, in the wait', async () => {
    const target = await scriptedServer([429], { 'retry-after': '5' })
    const stop = new AbortController()
    const client = clientFor(target.baseUrl, { stop: stop.signal })
    expect((await client.get({ ...withKey, retry: false })).response?.status).toBe(429)
    const ended = new AbortController()
    setTimeout(() => ended.abort(), 100)
    expect((await client.get({ ...withKey, signal: ended.signal })).error).toEqual({
      code: 'CHECK_ENDED',
      message: 'not sent: the check that made the request had ended',
    })
    setTimeout(() => stop.abort(), 100)
    const interrupted = await client.get(withKey)
    expect(interrupted.error?.code).toBe('RUN_INTERRUPTED')
    expect(interrupted.error?.message).toMatch(/\(not sent\)$/)
    expect(target.arrivals).toHaveLength(1)
  })

  test('cuts off a request in flight when the run is interrupted, and does not send it again', async () => {
    const target = await scriptedServer([])
    const stop = new AbortController()
    const client = clientFor(target.baseUrl, { stop: stop.signal, requestTimeoutMs: 60_000 })
    abortOnArrival(stop, target.arrivals)
    const exchange = await client.request({ method: 'POST', path: '/hang', body: '{}' })
    expect(exchange.error?.code).toBe('RUN_INTERRUPTED')
    expect(exchange.error?.message).toMatch(/\(cut off in flight\)$/)
    expect(target.arrivals, 'a write cut off by the run is not sent again').toHaveLength(1)
    expect(exchange.retries).toEqual([])
  })

  test('leaves unanswered a request whose retry the interruption came in the wait of', async () => {
    const target = await scriptedServer([503], { 'retry-after': '2' })
    const stop = new AbortController()
    abortOnArrival(stop, target.arrivals, 1, 500)
    const exchange = await clientFor(target.baseUrl, { stop: stop.signal }).get(withKey)
    expect(exchange.error?.code).toBe('RUN_INTERRUPTED')
    expect(exchange.error?.message).toMatch(/\(not sent again\)$/)
    expect(target.arrivals).toHaveLength(1)
  })

  test("a check's end: a request not yet sent is not; one in flight is cut off; one waiting to be retried returns its answer", async () => {
    const target = await scriptedServer([503], { 'retry-after': '2' })
    const client = clientFor(target.baseUrl, { requestTimeoutMs: 60_000 })
    const ended = new AbortController()
    ended.abort()
    expect((await client.get({ ...withKey, signal: ended.signal })).error).toEqual({
      code: 'CHECK_ENDED',
      message: 'not sent: the check that made the request had ended',
    })
    expect(target.arrivals).toHaveLength(0)
    const waiting = new AbortController()
    abortOnArrival(waiting, target.arrivals, 1, 500)
    const answered = await client.get({ ...withKey, signal: waiting.signal })
    expect(answered.response?.status).toBe(503)
    expect(answered.error).toBeUndefined()
    expect(target.arrivals).toHaveLength(1)
    const inFlight = new AbortController()
    abortOnArrival(inFlight, target.arrivals, 2)
    const cut = await client.get({ path: '/hang', signal: inFlight.signal })
    expect(cut.error).toEqual({ code: 'CHECK_ENDED', message: 'cut off: the check that made the request had ended' })
  })

  test('a write is sent again after an ambiguous failure only as often as the policy says, and never after its own refusal', async () => {
    const target = await scriptedServer([])
    const never = clientFor(target.baseUrl, {
      requestTimeoutMs: 300,
      retryPolicy: { ...defaultRetryPolicy, ambiguousWriteRetries: 0 },
    })
    const once = await never.request({ method: 'POST', path: '/hang', body: '{}' })
    expect(once.error?.code).toBe('TIMEOUT')
    expect(once.retries).toEqual([])
    const twice = clientFor(target.baseUrl, {
      requestTimeoutMs: 300,
      retryPolicy: { ...defaultRetryPolicy, ambiguousWriteRetries: 2 },
    })
    const resent = await twice.request({ method: 'POST', path: '/hang', body: '{}' })
    expect(resent.retries.map((r) => [r.status, r.error?.code])).toEqual([
      [0, 'TIMEOUT'],
      [0, 'TIMEOUT'],
    ])
    expect(resent.error?.code).toBe('TIMEOUT')
    expect(target.arrivals.length, 'the write, then two resends').toBeLessThanOrEqual(4)
    const refused = await twice.request({
      method: 'POST',
      path: '/v1/orders',
      body: '{}',
      headers: { 'x-api-key': 'k\n' },
    })
    expect(refused.error?.code).toBe('HEADER_NOT_SENDABLE')
    expect(refused.retries, 'a request the client refused is not sent again').toEqual([])
  })

  test('keeps the wait before each retry as it was waited, and the latest 429 the run met', async () => {
    const target = await scriptedServer([502, 429], { 'retry-after': '1' })
    const client = clientFor(target.baseUrl)
    const before = Date.now()
    const started = performance.now()
    const exchange = await client.get(withKey)
    const took = performance.now() - started
    expect(exchange.response?.status).toBe(200)
    expect(exchange.retries.map((r) => r.status)).toEqual([502, 429])
    expect(exchange.retries[0]!.waitedMs, 'the backoff of a first retry is at most its base').toBeLessThan(1000)
    expect(exchange.retries[1]!.waitedMs, 'Retry-After: 1').toBeGreaterThanOrEqual(1000)
    expect(exchange.retries[1]!.waitedMs, 'no more than the whole exchange took').toBeLessThanOrEqual(took)
    expect(exchange.retries.every((r) => r.startedAt !== undefined && r.response !== undefined)).toBe(true)
    expect(client.quotaRefusalSince(before)?.response?.status).toBe(429)
    expect(
      client.quotaRefusalSince(before)?.retries.map((r) => r.status),
      'the 429 as it was met: after the 502, before its own retry',
    ).toEqual([502])
    expect(client.quotaRefusalSince(Date.now() + 1)).toBeUndefined()
  })
})

describe('the HTTP client with requests queued and in flight', () => {
  test('names the latest 429 since a moment, the 429 of that very millisecond included', async () => {
    const target = await scriptedServer([429], { 'retry-after': '1' })
    const client = clientFor(target.baseUrl)
    const at = Date.now()
    vi.spyOn(Date, 'now').mockReturnValue(at)
    const limited = await client.get({ ...withKey, retry: false }).finally(() => vi.restoreAllMocks())
    expect(limited.response?.status).toBe(429)
    expect(client.quotaRefusalSince(at)?.response?.status).toBe(429)
    expect(client.quotaRefusalSince(at + 1)).toBeUndefined()
  })

  test('a request queued for the connection while a 429 closes its quota goes back to wait for the quota', async () => {
    const target = await scriptedServer([429], { 'retry-after': '1' })
    const client = clientFor(target.baseUrl, { concurrency: 1 })
    const [limited, queued] = await Promise.all([client.get({ ...withKey, retry: false }), client.get(withKey)])
    expect(limited.response?.status).toBe(429)
    expect(queued.response?.status).toBe(200)
    expect(queued.retries, 'held, not sent and answered 429').toEqual([])
    expect(target.arrivals).toHaveLength(2)
    expect(target.arrivals[1]! - target.arrivals[0]!, 'sent before Retry-After had passed').toBeGreaterThanOrEqual(1000)
  })

  test('requests queued for the connection when the run is interrupted are not sent', async () => {
    const target = await scriptedServer([])
    const stop = new AbortController()
    const client = clientFor(target.baseUrl, { concurrency: 1, stop: stop.signal, requestTimeoutMs: 60_000 })
    abortOnArrival(stop, target.arrivals)
    const [inFlight, queued] = await Promise.all([client.get({ path: '/hang' }), client.get(withKey)])
    expect(inFlight.error?.message).toMatch(/\(cut off in flight\)$/)
    expect(queued.error?.code).toBe('RUN_INTERRUPTED')
    expect(queued.error?.message).toMatch(/\(not sent\)$/)
    expect(target.arrivals).toHaveLength(1)
  })

  test("a check's end stops the wait for a retry in a run that may be interrupted too", async () => {
    const target = await scriptedServer([503], { 'retry-after': '2' })
    const client = clientFor(target.baseUrl, { stop: new AbortController().signal })
    const ended = new AbortController()
    abortOnArrival(ended, target.arrivals, 1, 500)
    const answered = await client.get({ ...withKey, signal: ended.signal })
    expect(answered.response?.status, 'the answer before the wait').toBe(503)
    expect(target.arrivals).toHaveLength(1)
  })

  test('the requests of paths outside the operations are counted by path, their queries aside', async () => {
    const target = await scriptedServer([])
    const client = clientFor(target.baseUrl, { concurrency: 1, requestTimeoutMs: 150 })
    for (let i = 0; i < 3; i++) expect((await client.get({ path: `/hang?n=${i}` })).error?.code).toBe('TIMEOUT')
    expect((await client.get({ path: '/hang?n=3' })).error).toEqual({
      code: 'TARGET_NOT_ANSWERING',
      message:
        'not sent: /hang stopped answering: 3 requests in a row ended without a response (the last one: no response in time)',
    })
  })

  test("a target that stopped answering to another worker's client cuts off the requests in flight here", async () => {
    const target = await scriptedServer([])
    const shared = createSharedState()
    const here = clientFor(target.baseUrl, { shared, concurrency: 3, requestTimeoutMs: 60_000 })
    const there = clientFor(target.baseUrl, { shared, concurrency: 3, requestTimeoutMs: 150 })
    const inFlight = here.get({ path: '/hang', operation: 'getConfig' })
    while (target.arrivals.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    for (const operation of ['getVault', 'listMarkets', 'getVault'])
      expect((await there.get({ path: '/hang', operation })).error?.code).toBe('TIMEOUT')
    expect((await inFlight).error).toEqual({
      code: 'TARGET_NOT_ANSWERING',
      message:
        'cut off: the target stopped answering: 3 requests in a row ended without a response (the last one: no response in time)',
    })
  })

  test('reads a body that comes in many chunks whole, and sends nothing once closed', async () => {
    const large = JSON.stringify({ data: 'x'.repeat(300_000) })
    const target = await routedServer({
      '/large': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(large),
    })
    const client = clientFor(target.baseUrl)
    const exchange = await client.get({ path: '/large' })
    expect(exchange.error).toBeUndefined()
    expect(exchange.response?.body).toBe(large)
    await client.close()
    const after = await client.get({ path: '/large' })
    expect(after.response).toBeUndefined()
    expect(target.seen, 'a request after close').toHaveLength(1)
  })
})

describe('the requests the HTTP client sends', () => {
  test('go below the base URL, and state the codings the client decodes unless the request states its own', async () => {
    const target = await routedServer({})
    const client = clientFor(`${target.baseUrl}/base//`)
    expect(client.urlFor('/v1/vault')).toBe(`${target.baseUrl}/base/v1/vault`)
    const before = performance.now()
    const plain = await client.get({ path: '/v1/vault?x=1' })
    const took = performance.now() - before
    const stated = await client.get({ path: '/v1/vault', headers: { 'Accept-Encoding': 'identity' } })
    await client.get({ path: '/v1/vault', headers: { 'x-api-key': 'k' } })
    expect(target.seen.map((request) => [request.url, request.headers['accept-encoding']])).toEqual([
      ['/base/v1/vault?x=1', 'gzip, deflate, br'],
      ['/base/v1/vault', 'identity'],
      ['/base/v1/vault', 'gzip, deflate, br'],
    ])
    expect(plain.request).toStrictEqual({
      method: 'GET',
      url: `${target.baseUrl}/base/v1/vault?x=1`,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    })
    expect(stated.request).toStrictEqual({
      method: 'GET',
      url: `${target.baseUrl}/base/v1/vault`,
      headers: { 'Accept-Encoding': 'identity' },
    })
    expect(plain.startedAt).toMatch(/^\d{4}-\d\d-\d\dT/)
    const { waitMs, receiveMs } = plain.timings!
    expect(waitMs).toBeGreaterThanOrEqual(0)
    expect(receiveMs).toBeGreaterThanOrEqual(0)
    expect(waitMs + receiveMs, 'the parts of the time it took').toBeLessThanOrEqual(plain.durationMs + 1)
    expect(plain.durationMs, 'within the time the call took').toBeLessThanOrEqual(Math.ceil(took))
  })

  test('cut a body over the cap, saying so whether it came coded or not', async () => {
    const target = await routedServer({
      '/big': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`"${'a'.repeat(2000)}"`),
      '/fits': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`"${'a'.repeat(998)}"`),
    })
    const client = clientFor(target.baseUrl, { maxBodyBytes: 1000 })
    const big = await client.get({ path: '/big' })
    expect(big.error).toEqual({
      code: 'BODY_TOO_LARGE',
      message: 'response body larger than 1000 bytes; read stopped there',
    })
    expect(big.response?.truncated).toBe(true)
    const fits = await client.get({ path: '/fits' })
    expect(fits.error, 'a body of exactly the cap').toBeUndefined()
    expect(fits.response?.json).toBe('a'.repeat(998))
  })

  test('stop reading a body that never ends at the cap', async () => {
    const chunk = Buffer.alloc(16 * 1024, 0x61)
    const target = await routedServer({
      '/endless': (res) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        const more = (error?: Error | null) => {
          if (!error && !res.destroyed) res.write(chunk, more)
        }
        more()
      },
    })
    const exchange = await clientFor(target.baseUrl, { maxBodyBytes: 100_000 }).get({ path: '/endless' })
    expect(exchange.error?.code).toBe('BODY_TOO_LARGE')
    expect(exchange.response?.truncated).toBe(true)
    expect(exchange.response?.body).toHaveLength(64 * 1024)
  })

  test('name the connection that carried a response when there is one at a time', async () => {
    const target = await routedServer({ '/v1/vault': (res) => res.writeHead(200).end('{}') })
    const single = clientFor(target.baseUrl, { concurrency: 1 })
    const first = await single.get({ path: '/v1/vault' })
    const second = await single.get({ path: '/v1/vault' })
    expect(first.connection?.number).toBe(1)
    expect(second.connection, 'the same connection, kept alive').toEqual(first.connection)
    expect(first.connection?.port).toBeGreaterThan(0)
    const pooled = await clientFor(target.baseUrl, { concurrency: 2 }).get({ path: '/v1/vault' })
    expect(pooled.connection).toBeUndefined()
  })

  test('leave a redirect whose location is no URL not judged', async () => {
    const target = await routedServer({ '/v1/vault': (res) => res.writeHead(302, { location: 'http://[' }).end() })
    const exchange = await clientFor(target.baseUrl).get({ path: '/v1/vault' })
    expect(exchange.response?.status).toBe(302)
    expect(exchange.response?.notJudged).toBe('a 302 redirect whose location is no URL: not followed, not judged')
    expect(target.seen).toHaveLength(1)
  })

  test('follow a redirect at most 5 times: a fifth hop is followed', async () => {
    const target = await routedServer({
      '/hop': (res, req) => {
        const n = Number(new URL(req.url!, 'http://x').searchParams.get('n'))
        if (n < 5) res.writeHead(302, { location: `/hop?n=${n + 1}` }).end()
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      },
    })
    const exchange = await clientFor(target.baseUrl).get({ path: '/hop?n=0' })
    expect(exchange.response?.status).toBe(200)
    expect(exchange.response?.notJudged).toBeUndefined()
    expect(exchange.redirects).toHaveLength(5)
  })
})
