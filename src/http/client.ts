import { setTimeout as delay } from 'node:timers/promises'
import { Pool, type Dispatcher } from 'undici'
import { operations } from '../contract/operations.js'
import { CircuitBreaker, NOT_ANSWERING } from './circuit-breaker.js'
import type { Exchange, ExchangeResponse } from './exchange.js'
import { Limiter } from './limiter.js'
import { BodyCollector, decodeUtf8, parsedResponse } from './response-body.js'
import { EVERY_REQUEST, QuotaGate } from './quota-gate.js'
import { breakerCells, createSharedState, gateSlots, inFlightCounter } from './shared-state.js'
import { defaultRetryPolicy, quotaIsPerKey, rateLimitWaitMs, retryWaitMs, type RetryPolicy } from './retry.js'

export interface ClientOptions {
  baseUrl: string
  concurrency: number
  connectTimeoutMs: number
  /** Bound on one whole exchange, headers and body, however slowly they trickle in. */
  requestTimeoutMs: number
  maxBodyBytes: number
  /** Epoch ms at which the run's time bound ends: later requests are not sent, and requests in flight are cut off. */
  deadlineAt?: number
  retryPolicy?: RetryPolicy
  /** State shared with the run's other clients (createSharedState); without it this client bounds only itself. */
  shared?: SharedArrayBuffer
}

export interface OutgoingRequest {
  /** GET unless given: a write's method. */
  method?: string
  /** Path below the base URL, already encoded, with its query string. */
  path: string
  /** A write's body, sent unchanged with every attempt. */
  body?: string
  headers?: Record<string, string>
  /** False: a 429 is returned as it is, for a check that tests those responses. The key's 429 gate still holds, and 5xx are retried as ever (the 5xx policy). */
  retry?: boolean
  /** The contract operation addressed, which the circuit breaker counts apart; without it, the path without its query. */
  operation?: string
  /** Aborted when the check that sends the request has ended: a request not yet sent is not sent, one in flight is cut off. */
  signal?: AbortSignal
}

/** Unanswered requests in a row that trip the circuit breaker: a full wave of requests in flight, and at least this many. */
const MIN_BREAKER_THRESHOLD = 3

type ExchangeError = NonNullable<Exchange['error']>

/**
 * The one HTTP client of a run: one connection pool to the target, bounded concurrency, bounded bodies and time.
 * Safe reads are retried as the contract asks of clients: after a 429 not before its Retry-After, and no request that
 * shares its quota (the key's, or every request of the run when x-ratelimit-scope names something else or nothing) is
 * sent until then; after a 502 or 504 with bounded exponential backoff, after a 503 not before its Retry-After (else
 * backoff), and once after a 500 (src/http/retry.ts).
 */
export class HttpClient {
  private readonly pool: Pool
  private readonly limiter: Limiter
  private readonly gate: QuotaGate
  private readonly breaker: CircuitBreaker
  private readonly policy: RetryPolicy
  private readonly deadlineAt: number
  private readonly basePath: string
  private readonly origin: string
  /** The latest 429 this client received, whichever request got it: the run met its quota. */
  private latestQuotaRefusal: { exchange: Exchange; at: number } | undefined

  constructor(private readonly options: ClientOptions) {
    const base = new URL(options.baseUrl)
    this.origin = base.origin
    this.basePath = base.pathname.replace(/\/+$/, '')
    const shared = options.shared ?? createSharedState()
    this.limiter = new Limiter(options.concurrency, inFlightCounter(shared))
    this.gate = new QuotaGate(gateSlots(shared))
    this.breaker = new CircuitBreaker(breakerCells(shared), Math.max(MIN_BREAKER_THRESHOLD, options.concurrency), operations().map((op) => op.id))
    this.policy = options.retryPolicy ?? defaultRetryPolicy
    this.deadlineAt = options.deadlineAt ?? Infinity
    this.pool = new Pool(this.origin, {
      connections: options.concurrency,
      connectTimeout: options.connectTimeoutMs,
      headersTimeout: options.requestTimeoutMs,
      bodyTimeout: options.requestTimeoutMs,
    })
  }

  urlFor(path: string): string {
    return `${this.origin}${this.basePath}${path}`
  }

  /** Sends a GET, retried as the policy allows; earlier attempts are kept in exchange.retries. */
  get(request: OutgoingRequest): Promise<Exchange> {
    return this.request({ ...request, method: 'GET' })
  }

  /**
   * Sends a GET or a write. A write is sent again only as it was (the same object: the same body, the same
   * Idempotency-Key): after a 429 or a 503 once its wait is over, and after an ambiguous transport failure (no
   * response: it may have been received), at most ambiguousWriteRetries times. Earlier attempts are kept in exchange.retries.
   */
  async request(request: OutgoingRequest): Promise<Exchange> {
    const key = request.headers?.['x-api-key'] ?? ''
    const target = request.operation ?? request.path.replace(/\?.*$/, '')
    const write = (request.method ?? 'GET') !== 'GET'
    const retries: Exchange['retries'] = []
    let waitingSince = 0
    let ambiguousLeft = write ? this.policy.ambiguousWriteRetries : 0
    for (let attempt = 0; ; attempt++) {
      const held = await this.passGate(key, request.signal)
      if (held) return { request: this.describe(request), durationMs: 0, retries, error: held }
      // A 429 may close the key while this request queues for a connection: then it goes back to the gate, unsent.
      const exchange = await this.limiter.run(async () => {
        if (request.signal?.aborted) return { request: this.describe(request), durationMs: 0, retries: [], error: checkEndedError('not sent') }
        if (this.gate.remainingMs(key) > 0) return undefined
        const refused = this.breaker.refusal(target)
        if (refused) return { request: this.describe(request), durationMs: 0, retries: [], error: refused }
        if (attempt > 0) retries.at(-1)!.waitedMs = Math.round(performance.now() - waitingSince)
        const sent = await this.send(request)
        this.breaker.record(target, sent)
        return sent
      })
      if (!exchange) {
        attempt--
        continue
      }
      exchange.retries = retries
      const { response } = exchange
      if (!response) {
        if (ambiguousLeft === 0 || !isAmbiguous(exchange.error) || Date.now() >= this.deadlineAt) return exchange
        ambiguousLeft--
        retries.push({ status: 0, waitedMs: 0, error: exchange.error, startedAt: exchange.startedAt, durationMs: exchange.durationMs, timings: exchange.timings })
        waitingSince = performance.now()
        continue
      }
      if (response.status === 429) {
        this.gate.close(quotaIsPerKey(response) ? key : EVERY_REQUEST, Date.now() + rateLimitWaitMs(response, this.policy))
        this.latestQuotaRefusal = { exchange: { ...exchange, retries: [...retries] }, at: Date.now() }
      }
      const wait = request.retry === false && response.status === 429 ? undefined : retryWaitMs(response, attempt, this.policy, write, retries)
      if (wait === undefined || Date.now() + wait >= this.deadlineAt) return exchange
      waitingSince = performance.now()
      // The check ended during the wait: its answer is this response, not retried.
      if (!(await waitUntil(Date.now() + wait, request.signal))) return exchange
      retries.push({ status: response.status, waitedMs: wait, response, startedAt: exchange.startedAt, durationMs: exchange.durationMs, timings: exchange.timings })
    }
  }

  /** Waits until the request's quota is open; returns why the request is not sent when that wait is too long, outlasts the run, or its check ends. */
  private async passGate(key: string, signal: AbortSignal | undefined): Promise<ExchangeError | undefined> {
    for (;;) {
      const remaining = this.gate.remainingMs(key)
      if (Date.now() + remaining >= this.deadlineAt) return runTimeBoundError('not sent')
      if (remaining === 0) return undefined
      if (remaining > this.policy.maxWaitMs) {
        return { code: 'RATE_LIMITED', message: `not sent: a 429 closed the quota of this request for ${Math.ceil(remaining / 1000)} s more, longer than the ${this.policy.maxWaitMs / 1000} s the client waits` }
      }
      if (!(await waitUntil(Date.now() + remaining, signal))) return checkEndedError('not sent')
    }
  }

  private describe({ method = 'GET', path, headers = {}, body }: OutgoingRequest): Exchange['request'] {
    return { method, url: this.urlFor(path), headers, ...(body === undefined ? {} : { body }) }
  }

  private async send(request: OutgoingRequest): Promise<Exchange> {
    const started = performance.now()
    const exchange: Exchange = { request: this.describe(request), startedAt: new Date().toISOString(), durationMs: 0, retries: [] }
    const timeout = AbortSignal.timeout(this.options.requestTimeoutMs)
    const deadline = Number.isFinite(this.deadlineAt) ? AbortSignal.timeout(Math.max(0, this.deadlineAt - Date.now())) : undefined
    const signals = [timeout, this.breaker.signal, deadline, request.signal].filter((signal): signal is AbortSignal => signal !== undefined)
    try {
      const answer = await this.pool.request({
        method: exchange.request.method as Dispatcher.HttpMethod,
        path: `${this.basePath}${request.path}`,
        headers: exchange.request.headers,
        body: request.body,
        signal: AbortSignal.any(signals),
      })
      const headersAt = performance.now()
      exchange.response = await readResponse(answer.statusCode, answer.headers, answer.body, this.options.maxBodyBytes)
      exchange.timings = { waitMs: headersAt - started, receiveMs: performance.now() - headersAt }
      if (exchange.response.truncated) {
        exchange.error = { code: 'BODY_TOO_LARGE', message: `response body larger than ${this.options.maxBodyBytes} bytes; read stopped there` }
      }
    } catch (error) {
      if (timeout.aborted) exchange.error = transportError(error, this.options.requestTimeoutMs)
      else if (deadline?.aborted) exchange.error = runTimeBoundError('cut off')
      else if (this.breaker.signal.aborted) exchange.error = this.breaker.cutOffError()
      else if (request.signal?.aborted) exchange.error = checkEndedError('cut off')
      else exchange.error = transportError(error, this.options.requestTimeoutMs)
    }
    exchange.durationMs = Math.round(performance.now() - started)
    return exchange
  }

  /** The latest 429 any request of this client received since the given time (epoch ms), if any. */
  quotaRefusalSince(since: number): Exchange | undefined {
    return this.latestQuotaRefusal && this.latestQuotaRefusal.at >= since ? this.latestQuotaRefusal.exchange : undefined
  }

  close(): Promise<void> {
    return this.pool.destroy()
  }
}

async function readResponse(
  status: number,
  rawHeaders: Record<string, string | string[] | undefined>,
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  maxBodyBytes: number,
): Promise<ExchangeResponse> {
  const collector = new BodyCollector(maxBodyBytes, Number(rawHeaders['content-length']))
  for await (const chunk of body) {
    if (!collector.add(chunk)) {
      body.destroy()
      break
    }
  }
  return parsedResponse(status, rawHeaders, decodeUtf8(collector.bytes()), collector.truncated)
}

/**
 * Resolves true once Date.now() has reached `at`, false when the signal aborts first. Timers may fire a little early
 * against Date.now() (the event loop's clock lags), so the wait goes on until the moment has truly passed.
 */
async function waitUntil(at: number, signal: AbortSignal | undefined): Promise<boolean> {
  for (let left = at - Date.now(); left > 0; left = at - Date.now()) {
    if (signal?.aborted) return false
    try {
      await delay(left, undefined, { signal })
    } catch {
      return false
    }
  }
  return !signal?.aborted
}

/** The suite's own reasons for cutting a request off: the request is not sent again after them. */
const OWN_ABORTS = new Set(['CHECK_ENDED', 'RUN_TIME_BOUND', 'RATE_LIMITED', NOT_ANSWERING])

/** A transport failure after which a write may have been received: sending it again, as it was, is the contract's retry. */
function isAmbiguous(error: ExchangeError | undefined): boolean {
  return error !== undefined && !OWN_ABORTS.has(error.code)
}

function checkEndedError(what: string): ExchangeError {
  return { code: 'CHECK_ENDED', message: `${what}: the check that made the request had ended` }
}

function runTimeBoundError(what: string): ExchangeError {
  return { code: 'RUN_TIME_BOUND', message: `${what}: the run's time bound (--max-duration) had passed` }
}

function transportError(error: unknown, requestTimeoutMs: number): { code: string; message: string } {
  const err = error as { code?: string; name?: string; message?: string }
  if (err.name === 'TimeoutError' || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT') {
    return { code: 'TIMEOUT', message: `no complete response within ${requestTimeoutMs} ms` }
  }
  return { code: err.code ?? err.name ?? 'ERROR', message: err.message ?? String(error) }
}
