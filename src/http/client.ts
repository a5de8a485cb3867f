import { Pool } from 'undici'
import type { Exchange, ExchangeResponse } from './exchange.js'
import { Limiter } from './limiter.js'

export interface ClientOptions {
  baseUrl: string
  concurrency: number
  connectTimeoutMs: number
  /** Bound on one whole exchange, headers and body, however slowly they trickle in. */
  requestTimeoutMs: number
  maxBodyBytes: number
}

export interface OutgoingRequest {
  /** Path below the base URL, already encoded, with its query string. */
  path: string
  headers?: Record<string, string>
}

/** The one HTTP client of a run: one connection pool to the target, bounded concurrency, bounded bodies and time. */
export class HttpClient {
  private readonly pool: Pool
  private readonly limiter: Limiter
  private readonly basePath: string
  private readonly origin: string

  constructor(private readonly options: ClientOptions) {
    const base = new URL(options.baseUrl)
    this.origin = base.origin
    this.basePath = base.pathname.replace(/\/+$/, '')
    this.limiter = new Limiter(options.concurrency)
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

  get(request: OutgoingRequest): Promise<Exchange> {
    return this.limiter.run(() => this.send(request))
  }

  private async send({ path, headers = {} }: OutgoingRequest): Promise<Exchange> {
    const started = performance.now()
    const exchange: Exchange = { request: { method: 'GET', url: this.urlFor(path), headers }, durationMs: 0, retries: [] }
    const signal = AbortSignal.timeout(this.options.requestTimeoutMs)
    try {
      const answer = await this.pool.request({ method: 'GET', path: `${this.basePath}${path}`, headers, signal })
      exchange.response = await readResponse(answer.statusCode, answer.headers, answer.body, this.options.maxBodyBytes)
      if (exchange.response.truncated) {
        exchange.error = { code: 'BODY_TOO_LARGE', message: `response body larger than ${this.options.maxBodyBytes} bytes; read stopped there` }
      }
    } catch (error) {
      exchange.error = transportError(error, this.options.requestTimeoutMs)
    }
    exchange.durationMs = Math.round(performance.now() - started)
    return exchange
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
  const chunks: Buffer[] = []
  let size = 0
  let truncated = false
  for await (const chunk of body) {
    chunks.push(chunk)
    size += chunk.length
    if (size > maxBodyBytes) {
      truncated = true
      body.destroy()
      break
    }
  }
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(rawHeaders)) if (value !== undefined) headers[name.toLowerCase()] = value
  const response: ExchangeResponse = { status, headers, body: decodeUtf8(Buffer.concat(chunks).subarray(0, maxBodyBytes)), truncated }
  if (truncated) response.jsonError = 'body truncated at the size cap'
  else if (response.body.length === 0) response.jsonError = 'empty body'
  else {
    try {
      response.json = JSON.parse(response.body)
    } catch (error) {
      response.jsonError = `not JSON: ${(error as Error).message}`
    }
  }
  return response
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

function decodeUtf8(bytes: Buffer): string {
  try {
    return strictUtf8.decode(bytes)
  } catch {
    return `[invalid UTF-8, ${bytes.length} bytes] ${bytes.toString('latin1')}`
  }
}

function transportError(error: unknown, requestTimeoutMs: number): { code: string; message: string } {
  const err = error as { code?: string; name?: string; message?: string }
  if (err.name === 'TimeoutError' || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT') {
    return { code: 'TIMEOUT', message: `no complete response within ${requestTimeoutMs} ms` }
  }
  return { code: err.code ?? err.name ?? 'ERROR', message: err.message ?? String(error) }
}
