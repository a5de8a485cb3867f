import { operation, operations, type Operation, type OperationId } from '../contract/operations.js'
import { unansweredAs } from '../http/transport-errors.js'
import type { Exchange } from '../http/exchange.js'
import type { RunSettings } from '../core/settings.js'
import type { Auth, CallOptions, CheckContext } from './types.js'

/** Well-formed inputs that name nothing the service knows: an unknown intent, an unknown trader. */
export const STAND_IN = {
  hash: `0x${'0f'.repeat(32)}`,
  address: `0x${'0f'.repeat(20)}`,
  receipt: 'ipts-conformance-stand-in-receipt',
} as const

/** A route under /v1 that the contract does not have. */
export const UNKNOWN_ROUTE = '/v1/ipts-conformance-unknown-route'

/** The declared 4xx statuses of the intent operation that refuse access; 429 answers a quota, not the question. */
export function intentRefusalStatuses(): number[] {
  return operation('getIntentStatus').declaredStatuses!.filter(
    (status) => Math.trunc(status / 100) === 4 && status !== 429,
  )
}

const takesHash = (op: Operation) => op.template.includes('{hash}')
const takesAddress = (op: Operation) => op.template.includes('{address}')

/** The operations whose inputs the user gave, so that a request with a granting key is served. */
export function servableOperations(settings: RunSettings): Operation[] {
  return operations().filter((op) => (!takesHash(op) || !!settings.intent) && (!takesAddress(op) || !!settings.trader))
}

/**
 * Path and query of an operation: the configured inputs where given, stand-ins elsewhere (a key is refused before any
 * lookup).
 */
export function inputsOrStandIns(settings: RunSettings, op: Operation): Pick<CallOptions, 'params' | 'query'> {
  const params = { hash: settings.intent?.hash ?? STAND_IN.hash, address: settings.trader ?? STAND_IN.address }
  return { params, query: takesHash(op) ? { receipt: settings.intent?.receipt ?? STAND_IN.receipt } : {} }
}

/** Calls every operation of the contract with the given key, on configured inputs or stand-ins. */
export function callEveryOperation(ctx: CheckContext, auth: Auth): Promise<Exchange[]> {
  return Promise.all(
    operations().map((op) => ctx.call(op.id, { ...inputsOrStandIns(ctx.settings, op), auth, shared: true })),
  )
}

const LIST_OPERATIONS: readonly OperationId[] = ['listMarkets', 'listTraderBalances']

/** A cursor page of a list: the query that asks for it (the first page's, and the cursor that page gave). */
export interface CursorPage {
  operation: OperationId
  query: Record<string, string>
}

/** The list operations, each able to give a cursor page of its own (a fresh cursor each time it is asked). */
export interface CursorPageSource {
  operation: OperationId
  fresh(): Promise<CursorPage | undefined>
}

/**
 * For each list whose inputs were given, a source of its second page: each call asks the first page anew with the full
 * key (again for one item through the page-size parameter when it carries no cursor) and returns the string cursor it
 * gave. A cursor is used once, as a client pages: a server may keep the position itself and take each cursor once. A
 * first page that is not served gives no cursor.
 */
export function cursorPageSources(ctx: CheckContext): CursorPageSource[] {
  return servableOperations(ctx.settings)
    .filter((op) => LIST_OPERATIONS.includes(op.id))
    .map((op) => ({
      operation: op.id,
      fresh: async () => (await firstPageCursor(ctx, op.id)).page,
    }))
}

/**
 * A list's cursor page asked for with the key given, or the first page that gave none (not served, or served without a
 * cursor).
 */
async function firstPageCursor(
  ctx: CheckContext,
  id: OperationId,
  auth?: Auth,
): Promise<{ page?: CursorPage; firstPage: Exchange }> {
  let firstPage: Exchange | undefined
  for (const query of [{}, { [ctx.settings.limitParam]: '1' }]) {
    firstPage = await ctx.call(id, { query, ...(auth && { auth }) })
    const { response } = firstPage
    if (response?.status !== 200) break
    const cursor = (response.json as { cursor?: unknown } | undefined)?.cursor
    if (typeof cursor === 'string')
      return { page: { operation: id, query: { ...query, [ctx.settings.cursorParam]: cursor } }, firstPage }
  }
  return { firstPage: firstPage! }
}

/**
 * A cursor page asked with a key: with a cursor that key was given (own), or, where that key is refused the first page,
 * with one the full key was given (foreign). How a deployment takes a cursor issued to another key is not shown ("pass
 * it back unchanged, only to the same operation with the same filters" binds it to no key), so a foreign cursor page
 * shows only whether the key is served a page past a first page it is refused: any refusal of it is an answer.
 */
export interface KeyedCursorPage {
  exchange: Exchange
  foreignCursor: boolean
}

/**
 * Keys a deployment may give a cursor to: none and an unknown key are refused every first page (which their checks
 * judge), so they never get one.
 */
const mayHoldCursor = (auth: Auth) => auth === 'full' || auth === 'restricted'

/**
 * A list's cursor page with the given key, a fresh cursor for it: its own where its first page gives one; the full
 * key's where its first page is refused (a 4xx but 429); none where its first page says nothing (a 429, a 5xx) or has
 * no next page.
 */
async function keyedCursorPage(ctx: CheckContext, id: OperationId, auth: Auth): Promise<KeyedCursorPage | undefined> {
  if (mayHoldCursor(auth)) {
    const own = await firstPageCursor(ctx, id, auth)
    if (own.page) return { exchange: await ctx.call(id, { query: own.page.query, auth }), foreignCursor: false }
    if (auth === 'full' || own.firstPage.response?.status === 429 || !refused(own.firstPage)) return undefined
  }
  const foreign = (await firstPageCursor(ctx, id)).page
  return foreign && { exchange: await ctx.call(id, { query: foreign.query, auth }), foreignCursor: true }
}

/**
 * Asks each list's cursor page with the given key (see keyedCursorPage); lists that give no cursor page are left out.
 */
export async function callCursorPages(ctx: CheckContext, auth: Auth): Promise<KeyedCursorPage[]> {
  const pages = await Promise.all(cursorPageSources(ctx).map((source) => keyedCursorPage(ctx, source.operation, auth)))
  return pages.filter((page) => page !== undefined)
}

/**
 * A refusal of the configured intent's receipt sent with a key other than the API key: the receipt was given for the
 * API key's intent, and whether a deployment binds a receipt to a key is not shown ("not shared between users"), so a
 * refusal of its status access (404, 422: as every-response judges them) says nothing of that key's scope.
 */
export const receiptRefusedForKey = (exchange: Exchange): boolean =>
  exchange.operation === 'getIntentStatus' && (exchange.response?.status === 404 || exchange.response?.status === 422)

/** Whether a status refuses the request (a 4xx), whatever the reason given: the answer a foreign cursor may get. */
export const refused = (exchange: Exchange): boolean => {
  const status = exchange.response?.status ?? 0
  return status >= 400 && status < 500
}

/** Calls each operation whose inputs were given with the given key. */
export function callServableOperations(ctx: CheckContext, auth: Auth): Promise<Exchange[]> {
  return Promise.all(servableOperations(ctx.settings).map((op) => ctx.call(op.id, { auth, shared: true })))
}

/** The status of an exchange as a report names it. */
export function statusOf(exchange: Exchange): string {
  return exchange.response ? String(exchange.response.status) : unansweredAs(exchange.error)
}

/** "getVault 200, listMarkets 200": which operations answered what. */
export function answersOf(exchanges: readonly Exchange[]): string {
  return exchanges.map((e) => `${e.operation ?? new URL(e.request.url).pathname} ${statusOf(e)}`).join(', ')
}
