import { setTimeout as delay } from 'node:timers/promises'
import { buildConnector, Pool, type Dispatcher } from 'undici'
import { operations } from '../contract/operations.js'
import { CircuitBreaker, NOT_ANSWERING } from './circuit-breaker.js'
import { ACCEPTED_CODINGS, decodedResponse } from './content-coding.js'
import type { Exchange, ExchangeResponse } from './exchange.js'
import { Limiter } from './limiter.js'
import { redirectLocation } from './redirects.js'
import { BodyCollector } from './response-body.js'
import { EVERY_REQUEST, QuotaGate } from './quota-gate.js'
import { breakerCells, createSharedState, gateSlots, inFlightCounter } from './shared-state.js'
import { defaultRetryPolicy, quotaIsPerKey, rateLimitWaitMs, retryWaitMs, type RetryPolicy } from './retry.js'
import { interruptedReason, interruptionCause, type SampleConnection } from '../core/report.js'
import { transportError } from './transport-errors.js'

export interface ClientOptions {
  baseUrl: string
  concurrency: number
  connectTimeoutMs: number
  /** Bound on one whole exchange, headers and body, however slowly they trickle in. */
  requestTimeoutMs: number
  maxBodyBytes: number
  /** Epoch ms at which the run's time bound ends: later requests are not sent, and requests in flight are cut off. */
  deadlineAt?: number
  /**
   * Aborted when the run is interrupted (a signal, the API caller): later requests are not sent, requests in flight are
   * cut off.
   */
  stop?: AbortSignal
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
  /**
   * False: a 429 is returned as it is, for a check that tests those responses. The key's 429 gate still holds, and 5xx
   * are retried as ever (the 5xx policy).
   */
  retry?: boolean
  /**
   * The contract operation addressed, which the circuit breaker counts apart; without it, the path without its query.
   */
  operation?: string
  /**
   * Aborted when the check that sends the request has ended: a request not yet sent is not sent, one in flight is cut
   * off.
   */
  signal?: AbortSignal
}

/** Redirects a GET follows before its response is left unjudged. */
export const MAX_REDIRECTS = 5

/**
 * Unanswered requests in a row that trip the circuit breaker: a full wave of requests in flight, and at least this
 * many.
 */
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
  /** The connections this client opened so far, and the latest one: with one connection at a time, the one in use. */
  private connectionsOpened = 0
  private latestConnection: SampleConnection | undefined

  constructor(private readonly options: ClientOptions) {
    const base = new URL(options.baseUrl)
    this.origin = base.origin
    this.basePath = base.pathname.replace(/\/+$/, '')
    const shared = options.shared ?? createSharedState()
    this.limiter = new Limiter(options.concurrency, inFlightCounter(shared))
    this.gate = new QuotaGate(gateSlots(shared))
    this.breaker = new CircuitBreaker(
      breakerCells(shared),
      Math.max(MIN_BREAKER_THRESHOLD, options.concurrency),
      operations().map((op) => op.id),
    )
    this.policy = options.retryPolicy ?? defaultRetryPolicy
    this.deadlineAt = options.deadlineAt ?? Infinity
    const connector = buildConnector({ timeout: options.connectTimeoutMs })
    this.pool = new Pool(this.origin, {
      connections: options.concurrency,
      connect: (connectOptions, callback) =>
        connector(connectOptions, (error, socket) => {
          if (socket) this.latestConnection = { number: ++this.connectionsOpened, port: socket.localPort }
          callback(error as Error, socket as never)
        }),
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
   * response: it may have been received), at most ambiguousWriteRetries times. Earlier attempts are kept in
   * exchange.retries.
   */
  async request(request: OutgoingRequest): Promise<Exchange> {
    const key = request.headers?.['x-api-key'] ?? ''
    const target = request.operation ?? request.path.replace(/\?.*$/, '')
    const write = (request.method ?? 'GET') !== 'GET'
    const retries: Exchange['retries'] = []
    let waitingSince = 0
    let ambiguousLeft = write ? this.policy.ambiguousWriteRetries : 0
    const stop = this.options.stop
    const signal = stop && request.signal ? AbortSignal.any([stop, request.signal]) : (stop ?? request.signal)
    const notSent = (error: ExchangeError): Exchange => ({
      request: this.describe(request),
      durationMs: 0,
      retries,
      error,
    })
    for (let attempt = 0; ; attempt++) {
      if (stop?.aborted) return notSent(this.interruptedError('not sent'))
      const held = await this.passGate(key, signal)
      if (held) return notSent(stop?.aborted ? this.interruptedError('not sent') : held)
      // A 429 may close the key while this request queues for a connection: then it goes back to the gate, unsent.
      const exchange = await this.limiter.run(async () => {
        if (stop?.aborted)
          return {
            request: this.describe(request),
            durationMs: 0,
            retries: [],
            error: this.interruptedError('not sent'),
          }
        if (request.signal?.aborted)
          return { request: this.describe(request), durationMs: 0, retries: [], error: checkEndedError('not sent') }
        if (this.gate.remainingMs(key) > 0) return undefined
        const refused = this.breaker.refusal(target)
        if (refused) return { request: this.describe(request), durationMs: 0, retries: [], error: refused }
        if (attempt > 0) retries.at(-1)!.waitedMs = Math.round(performance.now() - waitingSince)
        const unsendable = unsendableHeader(request.headers)
        if (unsendable) return { request: this.describe(request), durationMs: 0, retries: [], error: unsendable }
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
        retries.push({
          status: 0,
          waitedMs: 0,
          error: exchange.error,
          startedAt: exchange.startedAt,
          durationMs: exchange.durationMs,
          timings: exchange.timings,
        })
        waitingSince = performance.now()
        continue
      }
      if (response.status === 429) {
        this.gate.close(
          quotaIsPerKey(response) ? key : EVERY_REQUEST,
          Date.now() + rateLimitWaitMs(response, this.policy),
        )
        this.latestQuotaRefusal = { exchange: { ...exchange, retries: [...retries] }, at: Date.now() }
      }
      const wait =
        request.retry === false && response.status === 429
          ? undefined
          : retryWaitMs(response, attempt, this.policy, write, retries)
      if (wait === undefined || Date.now() + wait >= this.deadlineAt) return exchange
      waitingSince = performance.now()
      // The check ended during the wait: its answer is this response, not retried; the run's interruption leaves it
      // unanswered.
      if (!(await waitUntil(Date.now() + wait, signal)))
        return stop?.aborted ? notSent(this.interruptedError('not sent again')) : exchange
      retries.push({
        status: response.status,
        waitedMs: wait,
        response,
        startedAt: exchange.startedAt,
        durationMs: exchange.durationMs,
        timings: exchange.timings,
      })
    }
  }

  /**
   * Waits until the request's quota is open; returns why the request is not sent when that wait is too long, outlasts
   * the run, or its check ends.
   */
  private async passGate(key: string, signal: AbortSignal | undefined): Promise<ExchangeError | undefined> {
    for (;;) {
      const remaining = this.gate.remainingMs(key)
      if (Date.now() + remaining >= this.deadlineAt) return runTimeBoundError('not sent')
      if (remaining === 0) return undefined
      if (remaining > this.policy.maxWaitMs) {
        return {
          code: 'RATE_LIMITED',
          message: `not sent: a 429 closed the quota of this request for ${Math.ceil(remaining / 1000)} s more, longer than the ${this.policy.maxWaitMs / 1000} s the client waits`,
        }
      }
      if (!(await waitUntil(Date.now() + remaining, signal))) return checkEndedError('not sent')
    }
  }

  /** The request as sent: it states the content codings the client decodes, unless the request states its own. */
  private describe({ method = 'GET', path, headers = {}, body }: OutgoingRequest): Exchange['request'] {
    const stated = Object.keys(headers).some((name) => name.toLowerCase() === 'accept-encoding')
    return {
      method,
      url: this.urlFor(path),
      headers: stated ? headers : { ...headers, 'accept-encoding': ACCEPTED_CODINGS },
      ...(body === undefined ? {} : { body }),
    }
  }

  /**
   * Why a redirect is not followed, or undefined to follow it: only a GET is, only to the target's own origin (the API
   * key and a receipt in the query are never sent anywhere else), and at most MAX_REDIRECTS times.
   */
  private redirectRefusal(method: string, status: number, next: URL | undefined, hops: number): string | undefined {
    if (next === undefined) return `a ${status} redirect whose location is no URL: not followed, not judged`
    if (next.origin !== this.origin)
      return `a ${status} redirect to another origin (${next.origin}): not followed, so that the API key and the request's query are not sent there; not judged`
    if (method !== 'GET')
      return `a ${status} redirect of a ${method}: not followed (a write is sent only where the suite addressed it); not judged`
    if (hops >= MAX_REDIRECTS) return `redirected more than ${MAX_REDIRECTS} times: not followed further, not judged`
    return undefined
  }

  private async send(request: OutgoingRequest): Promise<Exchange> {
    const started = performance.now()
    const exchange: Exchange = {
      request: this.describe(request),
      startedAt: new Date().toISOString(),
      durationMs: 0,
      retries: [],
    }
    const timeout = AbortSignal.timeout(this.options.requestTimeoutMs)
    const deadline = Number.isFinite(this.deadlineAt)
      ? AbortSignal.timeout(Math.max(0, this.deadlineAt - Date.now()))
      : undefined
    const signals = [timeout, this.breaker.signal, deadline, this.options.stop, request.signal].filter(
      (signal): signal is AbortSignal => signal !== undefined,
    )
    const cutOff = AbortSignal.any(signals)
    try {
      let path = `${this.basePath}${request.path}`
      let asked = exchange.request.url
      for (let hops = 0; ; hops++) {
        const answer = await this.pool.request({
          method: exchange.request.method as Dispatcher.HttpMethod,
          path,
          headers: exchange.request.headers,
          body: request.body,
          signal: cutOff,
        })
        const headersAt = performance.now()
        // A pool of one connection has one socket at a time: the latest opened carried this response. With more, the
        // suite cannot tell which did.
        if (this.options.concurrency === 1 && this.latestConnection) exchange.connection = this.latestConnection
        const response = await readResponse(answer.statusCode, answer.headers, answer.body, this.options.maxBodyBytes)
        exchange.timings = { waitMs: headersAt - started, receiveMs: performance.now() - headersAt }
        const location = redirectLocation(response)
        if (location === undefined) {
          exchange.response = response
          break
        }
        const next = URL.canParse(location, asked) ? new URL(location, asked) : undefined
        const refusal = this.redirectRefusal(exchange.request.method, response.status, next, hops)
        if (refusal !== undefined) {
          exchange.response = { ...response, notJudged: refusal }
          break
        }
        ;(exchange.redirects ??= []).push({ url: asked, response })
        path = `${next!.pathname}${next!.search}`
        asked = next!.href
      }
      if (exchange.response.truncated) {
        exchange.error = {
          code: 'BODY_TOO_LARGE',
          message: `response body ${exchange.response.encodedBytes === undefined ? '' : 'decoded '}larger than ${this.options.maxBodyBytes} bytes; read stopped there`,
        }
      }
    } catch (error) {
      // The signal that aborted first names the ending: under load a second one (the timeout) may have fired by now
      // too.
      const cause = cutOff.aborted
        ? signals.find((signal) => signal.aborted && signal.reason === cutOff.reason)
        : undefined
      if (cause === timeout) exchange.error = timeoutError(this.options.requestTimeoutMs)
      else if (cause !== undefined && cause === deadline) exchange.error = runTimeBoundError('cut off')
      else if (cause !== undefined && cause === this.options.stop)
        exchange.error = this.interruptedError('cut off in flight')
      else if (cause === this.breaker.signal) exchange.error = this.breaker.cutOffError()
      else if (cause !== undefined && cause === request.signal) exchange.error = checkEndedError('cut off')
      else exchange.error = transportError(error, this.options.requestTimeoutMs)
    }
    exchange.durationMs = Math.round(performance.now() - started)
    return exchange
  }

  private interruptedError(what: string): ExchangeError {
    return {
      code: RUN_INTERRUPTED,
      message: `${interruptedReason(interruptionCause(this.options.stop?.reason))} (${what})`,
    }
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
  return decodedResponse(status, rawHeaders, collector.bytes(), collector.truncated, maxBodyBytes)
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

/** The code of a request the run's interruption (a signal, the API caller's abort) kept from being sent, or cut off. */
export const RUN_INTERRUPTED = 'RUN_INTERRUPTED'
/** The code of a request the run's time bound (--max-duration) kept from being sent, or cut off. */
export const RUN_TIME_BOUND = 'RUN_TIME_BOUND'
/**
 * Requests that went unanswered because of the run's own condition, not the target: their checks are 'not run', never
 * failed.
 */
export const RUN_CUT_CODES: ReadonlySet<string> = new Set([RUN_INTERRUPTED, RUN_TIME_BOUND])

/**
 * The suite's own reasons for cutting a request off: the request is not sent again after them. (A request its quota
 * holds back, RATE_LIMITED, is never sent, and returns before this is asked.)
 */
const OWN_ABORTS = new Set(['CHECK_ENDED', RUN_TIME_BOUND, RUN_INTERRUPTED, NOT_ANSWERING, 'HEADER_NOT_SENDABLE'])

/**
 * What HTTP (RFC 9110 field-value) and undici allow in a header value: tab, visible ASCII, space and obs-text bytes.
 */
const UNSENDABLE_IN_HEADER = /[^\t\x20-\x7e\x80-\xff]/

/**
 * Why a request is not sent when a header value holds a character HTTP does not allow (a key ending in a carriage
 * return). undici refuses such a request, and one refused while others queue for a connection leaves its pool stalled,
 * every later request unsettled: the request is refused here, before the pool sees it. The value is not named (it may
 * be a key).
 */
function unsendableHeader(headers: Record<string, string> = {}): ExchangeError | undefined {
  for (const [name, value] of Object.entries(headers)) {
    const bad = UNSENDABLE_IN_HEADER.exec(value)?.[0]
    if (bad !== undefined) {
      const code = `U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
      return {
        code: 'HEADER_NOT_SENDABLE',
        message: `not sent: the ${name} header holds the character ${code}, which HTTP does not allow in a header value`,
      }
    }
  }
  return undefined
}

/**
 * A transport failure after which a write may have been received: sending it again, as it was, is the contract's retry.
 */
export function isAmbiguous(error: ExchangeError | undefined): boolean {
  return error !== undefined && !OWN_ABORTS.has(error.code)
}

function checkEndedError(what: string): ExchangeError {
  return { code: 'CHECK_ENDED', message: `${what}: the check that made the request had ended` }
}

function runTimeBoundError(what: string): ExchangeError {
  return { code: RUN_TIME_BOUND, message: `${what}: the run's time bound (--max-duration) had passed` }
}

function timeoutError(requestTimeoutMs: number): { code: string; message: string } {
  return { code: 'TIMEOUT', message: `no complete response within ${requestTimeoutMs} ms` }
}
