import fc from 'fast-check'
import { createServer, type IncomingMessage } from 'node:http'
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net'
import { describe, expect, onTestFinished, test } from 'vitest'
import { createCheckContext } from '../../src/engine/context.js'
import { checkProperty } from '../../src/checks/property.js'
import { HttpClient, type ClientOptions } from '../../src/http/client.js'
import { createSharedState } from '../../src/http/shared-state.js'
import { startReferenceServer } from '../../src/reference/server.js'
import type { RunSettings } from '../../src/core/settings.js'
import { referenceInputs } from '../support/hostile-servers.js'
import { FIXED_SEED, failureSummary, idsWithStatus, runAgainstReference } from '../support/run.js'

/** How soon a connection the run closed is seen closed by a proxy in front of the target. */
const CLOSE_SEEN_WITHIN_MS = 1000

/** What a recording server saw: each request's arrival and each answer, with the server's clock. */
interface Seen {
  path: string
  key: string | undefined
  arrivedAt: number
  /** When the answer was written; undefined for a request held unanswered. */
  answeredAt?: number
  status?: number
}

type Script = (
  request: IncomingMessage,
  earlier: readonly Seen[],
) => { status: number; headers?: Record<string, string> } | 'hold'

/** A server on 127.0.0.1 that answers as the script says and records what it saw. */
async function recordingServer(script: Script): Promise<{ baseUrl: string; seen: Seen[] }> {
  const seen: Seen[] = []
  const server = createServer((req, res) => {
    const entry: Seen = {
      path: req.url ?? '',
      key: req.headers['x-api-key'] as string | undefined,
      arrivedAt: Date.now(),
    }
    const answer = script(req, [...seen])
    seen.push(entry)
    if (answer === 'hold') return
    entry.status = answer.status
    res.writeHead(answer.status, {
      'content-type': 'application/json',
      'x-request-id': 'recorded-1',
      ...answer.headers,
    })
    entry.answeredAt = Date.now()
    res.end(answer.status === 200 ? '{"data":{}}' : '{"error":"scripted"}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

function clientFor(baseUrl: string, options: Partial<ClientOptions> = {}): HttpClient {
  const client = new HttpClient({
    baseUrl,
    concurrency: 4,
    connectTimeoutMs: 1000,
    requestTimeoutMs: 5000,
    maxBodyBytes: 1024 * 1024,
    ...options,
  })
  onTestFinished(() => client.close())
  return client
}

const get = (client: HttpClient, path: string, key: string, retry?: boolean) =>
  client.get({ path, headers: { 'x-api-key': key }, retry })

describe('a 503 with Retry-After', () => {
  test('is retried, each request no sooner than its own Retry-After after the 503 was written', async () => {
    const target = await recordingServer((req, earlier) =>
      earlier.some((s) => s.path === req.url)
        ? { status: 200 }
        : { status: 503, headers: { 'retry-after': req.url === '/two' ? '2' : '1' } },
    )
    const client = clientFor(target.baseUrl)
    const answers = await Promise.all(['/one', '/two', '/three'].map((path) => get(client, path, 'k')))
    expect(answers.map((a) => a.response?.status)).toEqual([200, 200, 200])
    for (const path of ['/one', '/two', '/three']) {
      const [unavailable, retried] = target.seen.filter((s) => s.path === path)
      const retryAfterMs = path === '/two' ? 2000 : 1000
      expect(
        retried!.arrivedAt - unavailable!.answeredAt!,
        `${path} was retried before its Retry-After had passed`,
      ).toBeGreaterThanOrEqual(retryAfterMs)
    }
  })
})

describe('a 429', () => {
  /**
   * Key a gets a 429 with this scope on its first request; then a request with key b is sent. Returns what the server
   * saw.
   */
  async function afterA429(scope: string | undefined) {
    const target = await recordingServer((req, earlier) =>
      req.headers['x-api-key'] === 'a' && earlier.length === 0
        ? { status: 429, headers: { 'retry-after': '1', ...(scope ? { 'x-ratelimit-scope': scope } : {}) } }
        : { status: 200 },
    )
    const client = clientFor(target.baseUrl)
    const limited = await get(client, '/a', 'a', false)
    expect(limited.response?.status).toBe(429)
    await get(client, '/b', 'b')
    const [first, other] = target.seen
    return { first: first!, other: other! }
  }

  test.each(['ip', 'project'])(
    'with x-ratelimit-scope %s holds requests with every key until Retry-After has passed',
    async (scope) => {
      const { first, other } = await afterA429(scope)
      expect(
        other.arrivedAt - first.answeredAt!,
        `a request with another key came before Retry-After under a quota per ${scope}`,
      ).toBeGreaterThanOrEqual(1000)
    },
  )

  test('without x-ratelimit-scope holds requests with every key until Retry-After has passed', async () => {
    const { first, other } = await afterA429(undefined)
    expect(
      other.arrivedAt - first.answeredAt!,
      'a request with another key came before Retry-After under a quota of unnamed scope',
    ).toBeGreaterThanOrEqual(1000)
  })

  test('with x-ratelimit-scope api-key holds only that key: another key is sent at once, before the limited key may be', async () => {
    const target = await recordingServer((req, earlier) =>
      req.headers['x-api-key'] === 'a' && earlier.length === 0
        ? { status: 429, headers: { 'retry-after': '1', 'x-ratelimit-scope': 'api-key' } }
        : { status: 200 },
    )
    const client = clientFor(target.baseUrl)
    await get(client, '/a', 'a', false)
    await Promise.all([get(client, '/a-again', 'a'), get(client, '/b', 'b')])
    expect(
      target.seen.map((s) => s.path),
      'the other key waited for the limited key',
    ).toEqual(['/a', '/b', '/a-again'])
    expect(target.seen[2]!.arrivedAt - target.seen[0]!.answeredAt!).toBeGreaterThanOrEqual(1000)
  })

  test('closes the quota for every client that shares the run state, as the workers of a run do', async () => {
    const target = await recordingServer((_, earlier) =>
      earlier.length === 0
        ? { status: 429, headers: { 'retry-after': '1', 'x-ratelimit-scope': 'ip' } }
        : { status: 200 },
    )
    const shared = createSharedState()
    const [first, second] = [clientFor(target.baseUrl, { shared }), clientFor(target.baseUrl, { shared })]
    await get(first!, '/first-worker', 'a', false)
    await get(second!, '/second-worker', 'b')
    expect(
      target.seen[1]!.arrivedAt - target.seen[0]!.answeredAt!,
      "the other worker's client did not wait",
    ).toBeGreaterThanOrEqual(1000)
  })

  test('whose Retry-After is longer than the client waits makes later requests sharing its quota fail fast with RATE_LIMITED, unsent', async () => {
    const target = await recordingServer(() => ({
      status: 429,
      headers: { 'retry-after': '120', 'x-ratelimit-scope': 'ip' },
    }))
    const client = clientFor(target.baseUrl)
    const limited = await get(client, '/a', 'a')
    expect(limited.response?.status, 'a Retry-After beyond the bound is returned as it is').toBe(429)
    const later = await get(client, '/b', 'b')
    expect(later.error?.code).toBe('RATE_LIMITED')
    expect(later.error?.message).toMatch(/for 1[12][0-9] s more, longer than the 60 s the client waits/)
    expect(
      target.seen.map((s) => s.path),
      'a request was sent while the quota was closed',
    ).toEqual(['/a'])
  })
})

describe('a check', () => {
  // A check that left a request behind would wait for the held one: the timeout is the failure.
  test(
    "sends none of a property's prefetched inputs after it has ended, and cuts off the one in flight",
    { timeout: 30_000 },
    async () => {
      // The first input is answered, later ones are held (a request the check leaves behind would never settle), the
      // marker is answered.
      const target = await recordingServer((req, earlier) =>
        earlier.length === 0 || req.url === '/after-the-check' ? { status: 200 } : 'hold',
      )
      const client = clientFor(target.baseUrl, { concurrency: 1, requestTimeoutMs: 20_000 })
      const settings = { seed: FIXED_SEED, runs: 10 } as RunSettings
      const { ctx, end } = createCheckContext(settings, client)
      const examined: number[] = []
      const run = checkProperty(ctx, fc.nat(), async (n) => {
        examined.push(n)
        await ctx.get(`/input/${n}`, { auth: 'none' })
        // The answer to the first input ends the check, as a skip or a crash inside the property would.
        throw new Error('the check ends here')
      })
      await expect(run).rejects.toThrow('the check ends here')
      const sentBeforeEnd = target.seen.length
      await end()
      expect(examined, 'the inputs were not prefetched').toHaveLength(10)
      expect(sentBeforeEnd, 'with one connection, at most the first input and the next were sent').toBeLessThanOrEqual(
        2,
      )
      // A marker through the same client queues behind anything left over; the server must see it next.
      await client.get({ path: '/after-the-check' })
      expect(
        target.seen.map((s) => s.path).slice(sentBeforeEnd),
        'a prefetched input was sent after its check had ended',
      ).toEqual(['/after-the-check'])
    },
  )
})

describe('a run', () => {
  test(
    'under a quota per client address sends, after each 429, no more requests before its Retry-After than were already in flight',
    { timeout: 300_000 },
    async () => {
      const concurrency = 8
      const seen: { at: number; status: number; retryAfter?: string; key?: string }[] = []
      const report = await runAgainstReference(
        {
          quota: { limit: 10, windowMs: 1000, scope: 'client-address' },
          record: (request, response) =>
            seen.push({
              at: Date.now(),
              status: response.status,
              retryAfter: response.headers['retry-after'] as string | undefined,
              key: request.headers['x-api-key'],
            }),
        },
        { concurrency },
        {
          only: [
            'auth/missing-key',
            'auth/unknown-key',
            'auth/restricted-key-scope',
            'config/answers-json',
            'properties/garbage-key-refused',
          ],
        },
      )
      expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([])
      expect(report.errors).toEqual([])
      const limited = seen.filter((s) => s.status === 429)
      expect(limited.length, 'the quota was never met').toBeGreaterThan(0)
      expect(new Set(seen.map((s) => s.key)).size, 'the run used one key only').toBeGreaterThan(2)
      for (const answer of limited) {
        const until = answer.at + Number(answer.retryAfter) * 1000
        const meanwhile = seen.filter((s) => s.at > answer.at && s.at < until)
        expect(
          meanwhile.length,
          `${meanwhile.length} requests within the Retry-After of a 429 answered at ${answer.at}`,
        ).toBeLessThanOrEqual(concurrency - 1)
      }
    },
  )

  test(
    "with the rate-limit probe does not wait out a Retry-After that outlasts the run's time bound",
    { timeout: 120_000 },
    async () => {
      // The quota's window opens at the run's first request, after the run started: its 429's Retry-After, which the
      // probe would wait out (60 s at most), reaches at least the window's end, so past a time bound no longer than the
      // window.
      const windowMs = 60_000
      const report = await runAgainstReference(
        { quota: { limit: 20, windowMs } },
        { probeRateLimit: true, maxDurationMs: windowMs },
        { only: ['limits/quota-429'] },
      )
      const probe = report.checks.find((c) => c.id === 'limits/quota-429')
      expect(probe?.status, probe?.reason).toBe('skipped')
      expect(probe?.reason).toMatch(/outlasts the run's time bound \(--max-duration\)/)
    },
  )

  test('leaves no connection to the target open when it has ended', async () => {
    const reference = await startReferenceServer()
    const open = new Set<Socket>()
    let opened = 0
    // A TCP proxy in front of the reference, to see each connection of the run and when the run closes it.
    const proxy = createNetServer((client) => {
      opened++
      open.add(client)
      const upstream = connect(Number(new URL(reference.baseUrl).port), '127.0.0.1')
      client.pipe(upstream).pipe(client)
      client.on('close', () => (open.delete(client), upstream.destroy()))
      client.on('error', () => upstream.destroy())
      upstream.on('error', () => client.destroy())
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    try {
      const baseUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
      const report = await runAgainstReference(
        {},
        { baseUrl, ...referenceInputs(reference) },
        { only: ['config/answers-json', 'auth/missing-key'] },
      )
      expect(report.errors).toEqual([])
      expect(opened, 'the run opened no connection').toBeGreaterThan(1)
      // The run destroys its sockets as it ends; the proxy hears of it a moment later. A connection the run kept (a
      // keep-alive pool left open) would stay open for undici's keep-alive timeout, 4 s, far past this bound.
      const closedBy = Date.now() + CLOSE_SEEN_WITHIN_MS
      while (open.size > 0 && Date.now() < closedBy) await new Promise((resolve) => setTimeout(resolve, 10))
      expect(open.size, 'connections still open when the run had ended').toBe(0)
    } finally {
      for (const socket of open) socket.destroy()
      await new Promise((resolve) => proxy.close(resolve))
      await reference.close()
    }
  })
})
