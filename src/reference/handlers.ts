import type { CursorCodec } from './cursors.js'
import type { ReferenceData } from './data.js'
import type { RefRequest, RefResponse } from './types.js'

const HASH = /^0x[0-9a-fA-F]{64}$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
export const DEFAULT_PAGE_SIZE = 10
export const MAX_PAGE_SIZE = 25

export type Scope = 'markets:read' | 'vault:read' | 'traders:read' | 'intents:read' | 'config:read'

interface Route {
  operation: string
  pattern: RegExp
  params: string[]
  scope: Scope
  source?: 'indexed' | 'automation' | 'live'
  handle(request: RefRequest, data: ReferenceData, cursors: CursorCodec): RefResponse
}

export function errorResponse(status: number, code: string, error: string): RefResponse {
  return { status, headers: {}, body: { error, code } }
}

const ok = (body: unknown): RefResponse => ({ status: 200, headers: {}, body })

/** What a list does with a page size above MAX_PAGE_SIZE (its profile, specs/reference-profile.yaml, says the same). */
type OutOfRange = 'reject' | 'clamp'

function page(
  request: RefRequest,
  items: unknown[],
  operation: string,
  filter: string,
  cursors: CursorCodec,
  extra: Record<string, unknown>,
  outOfRange: OutOfRange,
): RefResponse {
  const limitText = request.query.get('limit')
  let limit = DEFAULT_PAGE_SIZE
  if (limitText !== null) {
    if (!/^[1-9][0-9]{0,5}$/.test(limitText))
      return errorResponse(400, 'invalid_limit', 'limit must be a positive integer')
    if (outOfRange === 'reject' && Number(limitText) > MAX_PAGE_SIZE)
      return errorResponse(400, 'invalid_limit', `limit must be at most ${MAX_PAGE_SIZE}`)
    limit = Math.min(Number(limitText), MAX_PAGE_SIZE)
  }
  let offset = 0
  const cursor = request.query.get('cursor')
  if (cursor !== null) {
    const reading = cursors.decode(cursor, operation, filter)
    if (!reading.ok)
      return errorResponse(
        400,
        reading.code,
        reading.code === 'cursor_mismatch' ? 'cursor belongs to another operation or filter' : 'cursor is not valid',
      )
    offset = reading.offset
  }
  const next = offset + limit
  const body: Record<string, unknown> = { data: items.slice(offset, next), ...extra }
  if (next < items.length) body.cursor = cursors.encode({ operation, filter, offset: next })
  return ok(body)
}

function traderAddress(request: RefRequest): string | RefResponse {
  const address = request.route!.params.address!
  return ADDRESS.test(address)
    ? address.toLowerCase()
    : errorResponse(422, 'invalid_address', 'address must be 0x followed by 40 hex digits')
}

export const routes: readonly Route[] = [
  {
    operation: 'getIntentStatus',
    pattern: /^\/v1\/intents\/([^/]+)$/,
    params: ['hash'],
    scope: 'intents:read',
    source: 'automation',
    handle(request, data) {
      const hash = request.route!.params.hash!
      if (!HASH.test(hash)) return errorResponse(422, 'invalid_hash', 'hash must be 0x followed by 64 hex digits')
      const receipt = request.query.get('receipt')
      if (receipt === null) return errorResponse(422, 'receipt_required', 'the receipt query parameter is required')
      if (receipt.length < 1 || receipt.length > 512)
        return errorResponse(422, 'invalid_receipt', 'receipt must be 1 to 512 characters')
      const intent = data.intents.find((i) => i.hash.toLowerCase() === hash.toLowerCase())
      // An unknown intent and a receipt that does not match answer alike, so a receipt cannot probe for intents.
      if (!intent || intent.receipt !== receipt)
        return errorResponse(404, 'intent_not_found', 'no intent matches this hash and receipt')
      return ok(intent.status)
    },
  },
  {
    operation: 'getTraderPnl',
    pattern: /^\/v1\/traders\/([^/]+)\/pnl$/,
    params: ['address'],
    scope: 'traders:read',
    source: 'indexed',
    handle(request, data) {
      const address = traderAddress(request)
      if (typeof address !== 'string') return address
      const pnl = data.pnl.get(address)
      return pnl
        ? ok({ data: pnl, checkpoint: data.checkpoint })
        : errorResponse(404, 'trader_not_found', 'no trader at this address')
    },
  },
  {
    operation: 'getVault',
    pattern: /^\/v1\/vault$/,
    params: [],
    scope: 'vault:read',
    source: 'indexed',
    handle: (_, data) => ok({ checkpoint: data.checkpoint, data: data.vault }),
  },
  {
    operation: 'listMarkets',
    pattern: /^\/v1\/markets$/,
    params: [],
    scope: 'markets:read',
    source: 'indexed',
    handle: (request, data, cursors) =>
      page(request, data.markets, 'listMarkets', '', cursors, { checkpoint: data.checkpoint }, 'reject'),
  },
  {
    operation: 'listTraderBalances',
    pattern: /^\/v1\/traders\/([^/]+)\/balances$/,
    params: ['address'],
    scope: 'traders:read',
    source: 'indexed',
    handle(request, data, cursors) {
      const address = traderAddress(request)
      if (typeof address !== 'string') return address
      const balances = data.balances.get(address)
      if (!balances) return errorResponse(404, 'trader_not_found', 'no trader at this address')
      return page(request, balances, 'listTraderBalances', address, cursors, { checkpoint: data.checkpoint }, 'clamp')
    },
  },
  {
    operation: 'getConfig',
    pattern: /^\/v1\/config$/,
    params: [],
    scope: 'config:read',
    handle: (_, data) => ok(data.config),
  },
]

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/** The route of a raw (still encoded) path, its parameters decoded; 'malformed' when a segment does not decode. */
export function findRoute(rawPath: string): { route: Route; params: Record<string, string> } | 'malformed' | undefined {
  for (const route of routes) {
    const match = route.pattern.exec(rawPath)
    if (!match) continue
    const values = route.params.map((_, i) => decodeSegment(match[i + 1]!))
    if (values.some((v) => v === undefined)) return 'malformed'
    return { route, params: Object.fromEntries(route.params.map((name, i) => [name, values[i]!])) }
  }
  return undefined
}
