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
  return operation('getIntentStatus').declaredStatuses!.filter((status) => Math.trunc(status / 100) === 4 && status !== 429)
}

const takesHash = (op: Operation) => op.template.includes('{hash}')
const takesAddress = (op: Operation) => op.template.includes('{address}')

/** The operations whose inputs the user gave, so that a request with a granting key is served. */
export function servableOperations(settings: RunSettings): Operation[] {
  return operations().filter((op) => (!takesHash(op) || !!settings.intent) && (!takesAddress(op) || !!settings.trader))
}

/** Path and query of an operation: the configured inputs where given, stand-ins elsewhere (a key is refused before any lookup). */
export function inputsOrStandIns(settings: RunSettings, op: Operation): Pick<CallOptions, 'params' | 'query'> {
  const params = { hash: settings.intent?.hash ?? STAND_IN.hash, address: settings.trader ?? STAND_IN.address }
  return { params, query: takesHash(op) ? { receipt: settings.intent?.receipt ?? STAND_IN.receipt } : {} }
}

/** Calls every operation of the contract with the given key, on configured inputs or stand-ins. */
export function callEveryOperation(ctx: CheckContext, auth: Auth): Promise<Exchange[]> {
  return Promise.all(operations().map((op) => ctx.call(op.id, { ...inputsOrStandIns(ctx.settings, op), auth, shared: true })))
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
 * gave. A cursor is used once, as a client pages: a server may keep the position itself and take each cursor once.
 */
export function cursorPageSources(ctx: CheckContext): CursorPageSource[] {
  return servableOperations(ctx.settings)
    .filter((op) => LIST_OPERATIONS.includes(op.id))
    .map((op) => ({
      operation: op.id,
      async fresh() {
        for (const query of [{}, { [ctx.settings.limitParam]: '1' }]) {
          const cursor = (await ctx.call(op.id, { query })).response?.json as { cursor?: unknown } | undefined
          if (typeof cursor?.cursor === 'string') return { operation: op.id, query: { ...query, [ctx.settings.cursorParam]: cursor.cursor } }
        }
        return undefined
      },
    }))
}

/** Asks each list's cursor page with the given key, a fresh cursor for each; lists that give no cursor are left out. */
export async function callCursorPages(ctx: CheckContext, auth: Auth): Promise<Exchange[]> {
  const pages = await Promise.all(cursorPageSources(ctx).map((source) => source.fresh()))
  return Promise.all(pages.filter((page) => page !== undefined).map((page) => ctx.call(page.operation, { query: page.query, auth })))
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
