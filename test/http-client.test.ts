import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { HttpClient, type ClientOptions } from '../src/http/client.js'
import { defaultRetryPolicy } from '../src/http/retry.js'

/** A server answering each request with the next scripted status (then 200), recording when each request arrived (its clock, in ms). */
async function scriptedServer(statuses: number[], headers: Record<string, string> = {}) {
  const arrivals: number[] = []
  const script = [...statuses]
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    arrivals.push(Date.now())
    if (req.url === '/hang') return
    const status = script.shift() ?? 200
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'test-request-1', ...(status === 200 ? {} : headers) })
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
    expect(target.arrivals[1]! - target.arrivals[0]!, 'the retry came before Retry-After had passed (measured at the server)').toBeGreaterThanOrEqual(1000)
  })

  test('holds every request with a key while a 429 on that key is in force', async () => {
    const target = await scriptedServer([429], { 'retry-after': '1' })
    const client = clientFor(target.baseUrl)
    await client.get({ ...withKey, retry: false })
    const other = await client.get(withKey)
    expect(other.response?.status).toBe(200)
    expect(other.retries, 'the other request was held, not sent and retried').toEqual([])
    expect(target.arrivals[1]! - target.arrivals[0]!, 'the other request came before Retry-After had passed (measured at the server)').toBeGreaterThanOrEqual(1000)
  })

  test('waits a bounded default after a 429 without Retry-After', async () => {
    const target = await scriptedServer([429])
    const exchange = await clientFor(target.baseUrl, { retryPolicy: { ...defaultRetryPolicy, defaultRateLimitWaitMs: 300 } }).get(withKey)
    expect(exchange.response?.status).toBe(200)
    expect(target.arrivals[1]! - target.arrivals[0]!, 'the retry came before the default wait had passed (measured at the server)').toBeGreaterThanOrEqual(300)
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
    expect(exchange.retries.map((r) => r.status), 'the first 500 is kept for the evidence').toEqual([500])
    expect(target.arrivals, 'a 500 is sent again once, not as a transient status is').toHaveLength(2)
  })

  test('returns the answer that follows a single 500, with the 500 among the retried attempts', async () => {
    const target = await scriptedServer([500, 502])
    const exchange = await clientFor(target.baseUrl).get(withKey)
    expect(exchange.response?.status).toBe(200)
    expect(exchange.retries.map((r) => r.status)).toEqual([500, 502])
  })

  test('sends a write answered 500, 502 or 504 once only: it is no safe read', async () => {
    for (const status of [500, 502, 504]) {
      const target = await scriptedServer([status])
      const exchange = await clientFor(target.baseUrl).request({ ...withKey, method: 'POST', body: '{}' })
      expect(exchange.response?.status, `a write answered ${status}`).toBe(status)
      expect(target.arrivals, `a write answered ${status} was sent again`).toHaveLength(1)
    }
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
    expect(hanging.error?.code).toBe('RUN_TIME_BOUND')
    const later = await client.get(withKey)
    expect(later.error).toEqual({ code: 'RUN_TIME_BOUND', message: "not sent: the run's time bound (--max-duration) had passed" })
    expect(target.arrivals).toHaveLength(1)
  })
})
