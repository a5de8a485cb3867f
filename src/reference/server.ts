import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { loadOpenApi } from '../contract/schemas.js'
import { buildReferenceData, type FixtureOverrides, type ReferenceData } from './data.js'
import { errorResponse, findRoute, type Scope } from './handlers.js'
import type { Behaviour, RefRequest, RefResponse } from './types.js'
import { payloadOf } from './response-edits.js'
import { findWriteRoute, handleWrite } from './writes.js'
import { isTicketRequest, issueTicket, serveRealtime } from './realtime.js'

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/
/** Where the reference publishes its OpenAPI description (specs/openapi.yaml, as JSON). */
export const DESCRIPTION_PATH = '/openapi.json'
const RESTRICTED_SCOPES: readonly Scope[] = ['markets:read', 'vault:read', 'config:read']
/** The scope the relayed writes need, which the restricted key does not grant. */
const WRITE_SCOPE = 'orders:write'

export interface ReferenceOptions extends FixtureOverrides {
  /** Faults and allowances, applied in order. */
  behaviours?: readonly Behaviour[]
  /**
   * Requests each key (or, with scope client-address, each client address, keyed or not) may make per window before
   * 429.
   */
  quota?: Quota
  /** Added before every response is written. */
  latencyMs?: number
  /** Where to listen: 127.0.0.1 and a free port unless given. */
  host?: string
  port?: number
}

export interface Quota {
  limit: number
  windowMs: number
  /** What the quota is counted per, named by x-ratelimit-scope: the API key (default) or the client's address. */
  scope?: 'api-key' | 'client-address'
  /**
   * When a window starts: at its first request (default, a fixed window), or at its first refusal: `limit` requests are
   * served however long they take, the next is refused, and so is every request until windowMs after it.
   */
  windowFrom?: 'first-request' | 'first-refusal'
}

/**
 * The quota the faults and allowances shown by the rate-limit probe serve with: 40 requests, then a second's wait. Its
 * window starts at its first refusal, so that the probe's burst meets a 429 on a loaded machine too, where 40 requests
 * may take longer than a second.
 */
export const PROBED_QUOTA = { limit: 40, windowMs: 1000, windowFrom: 'first-refusal' } as const satisfies Quota

/** The x-ratelimit-scope the reference names on its 429s under this quota. */
export function rateLimitScope(quota: Quota | undefined): string {
  return quota?.scope === 'client-address' ? 'ip' : 'api-key'
}

export interface ReferenceServer {
  baseUrl: string
  data: ReferenceData
  close(): Promise<void>
}

/**
 * The conforming reference implementation of the contract, in this process, on 127.0.0.1 and a free port unless told
 * otherwise.
 */
export async function startReferenceServer(options: ReferenceOptions = {}): Promise<ReferenceServer> {
  const data = buildReferenceData(options)
  const behaviours = options.behaviours ?? []
  const quota = options.quota && new QuotaCounter(options.quota)
  const perAddress = options.quota?.scope === 'client-address'
  const scopeHeader = rateLimitScope(options.quota)

  const rateLimited = (waitSeconds: number): RefResponse =>
    withHeaders(errorResponse(429, 'rate_limited', 'request quota exceeded'), {
      'retry-after': String(waitSeconds),
      'x-ratelimit-limit': String(options.quota!.limit),
      'x-ratelimit-scope': scopeHeader,
    })

  const respond = (request: RefRequest, clientAddress: string): RefResponse => {
    const key = request.headers['x-api-key']
    const scopes = key === data.apiKey ? 'all' : key === data.restrictedApiKey ? RESTRICTED_SCOPES : undefined
    const write = findWriteRoute(request)
    const ticket = isTicketRequest(request)
    if (request.method !== 'GET' && !write && !ticket)
      return withHeaders(errorResponse(405, 'method_not_allowed', 'only GET and the relayed writes are served'), {
        allow: 'GET',
      })
    // The published description is public, as descriptions commonly are; its own profile points here.
    if (request.path === DESCRIPTION_PATH) return { status: 200, headers: {}, body: structuredClone(loadOpenApi()) }
    // A quota per address is met before anything else of the request is looked at; a quota per key only by a valid key.
    const addressWait = perAddress ? quota?.take(clientAddress) : undefined
    if (addressWait !== undefined) return rateLimited(addressWait)
    if (!scopes)
      return errorResponse(401, 'unauthorized', key === undefined ? 'X-API-Key is required' : 'X-API-Key is not valid')
    const keyWait = perAddress ? undefined : quota?.take(key!)
    if (keyWait !== undefined) return rateLimited(keyWait)
    if (ticket) return issueTicket(data)
    if (write) {
      if (scopes !== 'all')
        return errorResponse(
          403,
          'insufficient_scope',
          `this key does not grant ${WRITE_SCOPE}; it is restricted to ${scopes.join(', ')}`,
        )
      return handleWrite(write, request, data)
    }
    const found = findRoute(request.path)
    if (found === 'malformed') return errorResponse(400, 'invalid_path', 'a path segment is not valid percent-encoding')
    if (!found) return errorResponse(404, 'not_found', 'no such route')
    request.route = { operation: found.route.operation, params: found.params }
    if (scopes !== 'all' && !scopes.includes(found.route.scope)) {
      return errorResponse(
        403,
        'insufficient_scope',
        `this key does not grant ${found.route.scope}; it is restricted to ${scopes.join(', ')}`,
      )
    }
    const response = found.route.handle(request, data, data.cursors)
    if (found.route.source) response.headers['x-service-source'] = found.route.source
    return response
  }

  const connections = new WeakMap<object, number>()
  let accepted = 0
  const server = createServer((incoming, outgoing) => {
    serve(incoming, outgoing).catch((error: unknown) => {
      if (!outgoing.headersSent)
        outgoing.writeHead(500, {
          'content-type': 'application/json; charset=utf-8',
          'x-request-id': `ref-${randomBytes(8).toString('hex')}`,
        })
      outgoing.end(JSON.stringify({ error: `reference server failure: ${(error as Error).message}`, code: 'internal' }))
    })
  })

  const serve = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const url = new URL(incoming.url ?? '/', 'http://reference.invalid')
    const headers: Record<string, string | undefined> = {}
    for (const [name, value] of Object.entries(incoming.headers))
      headers[name] = Array.isArray(value) ? value[0] : value
    const request: RefRequest = {
      method: incoming.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers,
      connection: connections.get(incoming.socket),
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') request.body = await readBody(incoming)
    for (const behaviour of behaviours) behaviour.onRequest?.(request, data)

    const sentId = request.headers['x-request-id']
    const requestId = sentId !== undefined && REQUEST_ID.test(sentId) ? sentId : `ref-${randomBytes(8).toString('hex')}`
    const response = respond(request, incoming.socket.remoteAddress ?? '')
    response.headers['content-type'] ??= 'application/json; charset=utf-8'
    response.headers['x-request-id'] = requestId
    if (response.status >= 400 && isObject(response.body)) response.body.requestId = requestId
    else if (isObject(response.body) && 'data' in response.body) response.body.requestId = requestId
    for (const behaviour of behaviours) behaviour.onResponse?.(response, request, data)

    if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs))
    const payload = payloadOf(response)
    outgoing.writeHead(response.status, { ...response.headers, 'content-length': payload.length })
    outgoing.end(payload)
  }

  server.on('connection', (socket) => connections.set(socket, ++accepted))
  const realtime = serveRealtime(server, data, behaviours)
  // No idle timeout: the client ends idle connections (undici after 4 s). A server that times one out just as the
  // client reuses it makes that request fail with ECONNRESET, which happened when vitest kept this process's event loop
  // busy.
  server.keepAliveTimeout = 0
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => (server.off('error', reject), resolve()))
  })
  const { address, family, port } = server.address() as AddressInfo
  return {
    baseUrl: `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`,
    data,
    close: () => (realtime.close(), closeServer(server)),
  }
}

/** The most of a write's body the reference reads. */
const MAX_WRITE_BODY_BYTES = 64 * 1024

async function readBody(incoming: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_WRITE_BODY_BYTES) break
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function withHeaders(response: RefResponse, headers: Record<string, string>): RefResponse {
  Object.assign(response.headers, headers)
  return response
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
}

/**
 * Window request counter per key or address (a window starts as Quota.windowFrom says). take() returns the seconds to
 * wait when it is over its quota.
 */
class QuotaCounter {
  /** start: undefined while a window that starts at its first refusal has refused nothing. */
  private readonly windows = new Map<string, { start: number | undefined; count: number }>()

  constructor(private readonly quota: Quota) {}

  take(key: string): number | undefined {
    const { limit, windowMs, windowFrom = 'first-request' } = this.quota
    const now = Date.now()
    let window = this.windows.get(key)
    if (!window || (window.start !== undefined && now - window.start >= windowMs)) {
      window = { start: windowFrom === 'first-request' ? now : undefined, count: 0 }
      this.windows.set(key, window)
    }
    if (window.count < limit) {
      window.count++
      return undefined
    }
    window.start ??= now
    return Math.max(1, Math.ceil((window.start + windowMs - now) / 1000))
  }
}
