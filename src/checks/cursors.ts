import fc from 'fast-check'
import type { OperationId } from '../contract/operations.js'
import { inTurn } from '../generators/coverage.js'
import { tamper, tampering, tamperingCoverage, type Tampering } from '../generators/cursor-tampering.js'
import { validHexIdentifier } from '../generators/hex-identifiers.js'
import { invalidUnsignedIntegerString, offsetCoverage, validUnsignedIntegerString } from '../generators/unsigned-integer-strings.js'
import type { Exchange } from '../http/exchange.js'
import { checkProperty } from '../harness/property.js'
import { refusedWithErrorBody } from './expectations.js'
import type { Check, CheckContext } from './types.js'

/** A list operation and the member that identifies its items: the suite's rule, as the contract names no identity. */
interface ListOperation {
  operation: Extract<OperationId, 'listMarkets' | 'listTraderBalances'>
  items: string
  identity: string
}

const markets: ListOperation = { operation: 'listMarkets', items: 'market', identity: 'id' }
const balances: ListOperation = { operation: 'listTraderBalances', items: 'balance', identity: 'token' }

/** A walk that has not reached its last page after this many pages is taken not to terminate. */
const MAX_PAGES = 200

interface Page {
  exchange: Exchange
  items: unknown[]
  cursor: unknown
}

type WalkEnd = 'last-page' | 'repeated-item' | 'repeated-cursor' | 'cursor-not-string' | 'page-bound'

interface Walk {
  list: ListOperation
  pages: Page[]
  end: WalkEnd
  /** The identity of the item that came twice, for 'repeated-item'. */
  repeated?: string
}

/** The lists a run can read: balances only with a trader. */
function listsOf(ctx: CheckContext): ListOperation[] {
  return ctx.settings.trader ? [markets, balances] : [markets]
}

function identityOf(list: ListOperation, item: unknown): string {
  const value = (item as Record<string, unknown> | null)?.[list.identity]
  return typeof value === 'string' ? value : JSON.stringify(item)
}

/** A page as it came: its items and cursor, or what keeps it from being a page (problem). */
async function requestPage(ctx: CheckContext, list: ListOperation, query: Record<string, string>): Promise<Page & { problem?: string }> {
  const exchange = await ctx.call(list.operation, { query })
  if (exchange.response?.status !== 200) return { exchange, items: [], cursor: undefined, problem: `status ${exchange.response?.status ?? exchange.error?.message}, not 200` }
  const body = exchange.response.json as { data?: unknown; cursor?: unknown } | undefined
  if (!Array.isArray(body?.data)) return { exchange, items: [], cursor: undefined, problem: 'no data array' }
  return { exchange, items: body.data, cursor: body.cursor }
}

const hasCursor = (page: Page) => page.cursor !== null && page.cursor !== undefined

type FirstPage = { page: Page; query: Record<string, string> } | { unusable: string }

/**
 * The first page, and the query that every later page sends too; or why the list has no cursor to follow. A list
 * that fits one page is asked again for half its items through the page-size parameter, so that a short list still
 * shows its cursors. A first page that is refused or fails is no finding here: no cursor was involved yet.
 */
async function firstPage(ctx: CheckContext, list: ListOperation): Promise<FirstPage> {
  let query: Record<string, string> = {}
  let page = await requestPage(ctx, list, query)
  if (!page.problem && !hasCursor(page) && page.items.length >= 2) {
    query = { [ctx.settings.limitParam]: String(Math.ceil(page.items.length / 2)) }
    page = await requestPage(ctx, list, query)
  }
  if (page.problem) return { unusable: `the first page of ${list.operation} came with ${page.problem}, so there is no cursor to follow` }
  if (!hasCursor(page)) return { unusable: `${list.operation} does not paginate: its first page carries no cursor (nor when asked for half its items through the page-size parameter)` }
  return { page, query }
}

/** Follows the cursor from the first page until a page has none, an item or a cursor comes twice, or MAX_PAGES. */
async function walk(ctx: CheckContext, list: ListOperation): Promise<Walk | { list: ListOperation; unusable: string }> {
  const first = await firstPage(ctx, list)
  if ('unusable' in first) return { list, unusable: first.unusable }
  return follow(ctx, list, first)
}

/** Follows the cursor from a first page, sending the first page's query with every later page too. */
async function follow(ctx: CheckContext, list: ListOperation, first: { page: Page; query: Record<string, string> }): Promise<Walk> {
  const pages: Page[] = [first.page]
  const seen = new Set<string>()
  const followed = new Set<string>()
  for (;;) {
    const page = pages.at(-1)!
    const repeated = page.items.map((item) => identityOf(list, item)).find((id) => seen.has(id) || !seen.add(id))
    if (repeated !== undefined) return { list, pages, end: 'repeated-item', repeated }
    if (!hasCursor(page)) return { list, pages, end: 'last-page' }
    if (typeof page.cursor !== 'string') return { list, pages, end: 'cursor-not-string' }
    if (followed.has(page.cursor)) return { list, pages, end: 'repeated-cursor' }
    if (pages.length >= MAX_PAGES) return { list, pages, end: 'page-bound' }
    followed.add(page.cursor)
    const next = await requestPage(ctx, list, { ...first.query, [ctx.settings.cursorParam]: page.cursor })
    if (next.problem) ctx.fail(`page ${pages.length + 1} of ${list.operation}, following the cursor of page ${pages.length}, came with ${next.problem}`, { exchange: next.exchange })
    pages.push(next)
  }
}

/** Walks every list the run can read; skips the check, with the reasons, when none has a cursor to follow. */
async function walkAll(ctx: CheckContext): Promise<Walk[]> {
  const results = await Promise.all(listsOf(ctx).map((list) => walk(ctx, list)))
  const walks = results.filter((result): result is Walk => !('unusable' in result))
  if (walks.length === 0) ctx.skip(results.map((result) => ('unusable' in result ? result.unusable : '')).join('; '))
  return walks
}

interface IssuedCursor {
  list: ListOperation
  page: Page
  cursor: string
  /** What the request for the next page sends besides the cursor. */
  query: Record<string, string>
}

/** The first cursor of every list that has one; skips the check, with the reasons, when none has. */
async function firstCursors(ctx: CheckContext, lists = listsOf(ctx)): Promise<IssuedCursor[]> {
  const firsts = await Promise.all(lists.map(async (list) => ({ list, first: await firstPage(ctx, list) })))
  const reasons = firsts.map(({ list, first }) => ('unusable' in first ? first.unusable : typeof first.page.cursor === 'string' ? '' : `the first cursor of ${list.operation} is not a string`))
  const issued = firsts.flatMap(({ list, first }) => ('unusable' in first || typeof first.page.cursor !== 'string' ? [] : [{ list, page: first.page, cursor: first.page.cursor, query: first.query }]))
  if (issued.length === 0) ctx.skip(reasons.filter(Boolean).join('; '))
  return issued
}

/** Sends a cursor (the issued one, a changed one, or another list's) as the next-page request of the issuing list would. */
function sendCursor(ctx: CheckContext, issued: IssuedCursor, cursor: string, params?: Record<string, string>): Promise<Exchange> {
  return ctx.call(issued.list.operation, { params, query: { ...issued.query, [ctx.settings.cursorParam]: cursor } })
}

/** Fails unless the walk reached a last page without repeating an item or a cursor. */
function expectWalkEnded(ctx: CheckContext, { list, pages, end, repeated }: Walk): void {
  const last = pages.at(-1)!
  const where = `page ${pages.length}`
  const verdicts: Record<WalkEnd, () => void> = {
    'last-page': () => undefined,
    'repeated-item': () => ctx.fail(`${where} repeats the ${list.items} with ${list.identity} ${repeated}, already met in the walk`, { exchange: last.exchange }),
    'repeated-cursor': () => ctx.fail(`${where} carries a cursor that was already followed: the walk cycles`, { exchange: last.exchange }),
    'cursor-not-string': () => ctx.skip(`${where} carries a cursor that is not a string, so the walk cannot go on (cursors/cursor-is-string reports it)`),
    'page-bound': () => ctx.fail(`no last page within ${MAX_PAGES} pages`, { exchange: last.exchange }),
  }
  verdicts[end]()
}

/** Walks a list from a first page asked with the given query (e.g. a page size), and fails unless the walk ends. */
export async function expectWalkEnds(ctx: CheckContext, operation: ListOperation['operation'], query: Record<string, string>): Promise<void> {
  const list = operation === 'listMarkets' ? markets : balances
  const page = await requestPage(ctx, list, query)
  // A refused first page is not a walk: what refused it is judged where that page is (a page-size check, say).
  if (page.problem) ctx.skip(`the first page of ${operation} with ${new URLSearchParams(query)} came with ${page.problem}, so there is no walk to follow`)
  expectWalkEnded(ctx, await follow(ctx, list, { page, query }))
}

function walkEndsCheck(list: ListOperation, needs: Check['needs']): Check {
  return {
    id: `cursors/${list.items}s-walk-ends`,
    requirement: 'ENV-CURSOR-END',
    title: `following the ${list.operation} cursor reaches a last page without one, and no ${list.items} comes twice (by ${list.identity}, the suite's identity rule)`,
    needs,
    async run(ctx) {
      const result = await walk(ctx, list)
      if ('unusable' in result) return ctx.skip(result.unusable)
      expectWalkEnded(ctx, result)
    },
  }
}

/** A cursor a client could build: a bare integer, or the identifier of an item it has seen. */
function buildableCursor(cursor: string, identities: ReadonlySet<string>): string | undefined {
  if (/^[+-]?[0-9]+$/.test(cursor)) return 'a bare integer'
  if (identities.has(cursor)) return "an item's identifier"
  return undefined
}

export const cursorsChecks: readonly Check[] = [
  walkEndsCheck(markets, ['apiKey']),
  walkEndsCheck(balances, ['apiKey', 'trader']),
  {
    id: 'cursors/cursor-is-string',
    requirement: 'ENV-CURSOR-TYPE',
    title: 'every cursor met while following the list cursors is a string',
    needs: ['apiKey'],
    async run(ctx) {
      for (const { list, pages } of await walkAll(ctx)) {
        const page = pages.find((p) => hasCursor(p) && typeof p.cursor !== 'string')
        if (page) ctx.fail(`page ${pages.indexOf(page) + 1} of ${list.operation} carries a cursor of type ${typeof page.cursor}: ${JSON.stringify(page.cursor)}`, { exchange: page.exchange })
      }
    },
  },
  {
    id: 'cursors/issued-cursor-opaque',
    requirement: 'ENV-CURSOR-OPAQUE',
    title: "no cursor met while following the list cursors is a bare integer or an item's identifier (cursor is not opaque)",
    needs: ['apiKey'],
    async run(ctx) {
      for (const { list, pages } of await walkAll(ctx)) {
        const identities = new Set<string>()
        for (const page of pages) {
          for (const item of page.items) identities.add(identityOf(list, item))
          const buildable = typeof page.cursor === 'string' ? buildableCursor(page.cursor, identities) : undefined
          if (buildable) ctx.fail(`cursor is not opaque: ${list.operation} issued ${JSON.stringify(page.cursor)}, ${buildable}, which a client could build`, { exchange: page.exchange })
        }
      }
    },
  },
  {
    id: 'cursors/hand-built-cursor-refused',
    requirement: 'ENV-CURSOR-OPAQUE',
    title: "no generated hand-built cursor (a bare offset or an item's identifier) is accepted with data (cursor is not opaque)",
    needs: ['apiKey'],
    async run(ctx) {
      const issued = await firstCursors(ctx)
      const handBuilt = (index: number) => {
        const { list, page } = issued[index]!
        const identities = page.items.map((item) => identityOf(list, item))
        const maxOffset = 10 * Math.max(page.items.length, 1)
        const offsets = [validUnsignedIntegerString(1, maxOffset), invalidUnsignedIntegerString(1, maxOffset)]
        // An empty cursor may fairly be taken as no cursor at all, so it is not a hand-built one.
        const cursors = fc.oneof(...offsets, ...(identities.length > 0 ? [fc.constantFrom(...identities)] : [])).filter((cursor) => cursor.length > 0)
        return cursors.map((cursor): [number, string] => [index, cursor])
      }
      // Every list's offsets and the identifiers of its first items.
      const coverage = issued.flatMap(({ list, page }, index) =>
        inTurn(
          [index],
          [...offsetCoverage(page.items.length), ...page.items.slice(0, 3).map((item) => ({ label: "an item's identifier", value: identityOf(list, item) }))],
        ),
      )
      const check = async ([index, cursor]: [number, string]) => {
        const { list } = issued[index]!
        const exchange = await sendCursor(ctx, issued[index]!, cursor)
        const status = exchange.response?.status ?? 0
        if (status < 200 || status > 299) return undefined
        return { problem: `cursor is not opaque: ${list.operation} accepted the hand-built cursor ${JSON.stringify(cursor)} with status ${status}`, exchange }
      }
      await checkProperty(ctx, fc.oneof(...issued.map((_, index) => handBuilt(index))), check, { coverage })
    },
  },
  {
    id: 'cursors/tampered-cursor-rejected',
    requirement: 'ENV-CURSOR-REJECT-FOREIGN',
    title: 'every generated tampered cursor gets a 4xx with an error body (the server side the suite infers from "pass it back unchanged")',
    needs: ['apiKey'],
    async run(ctx) {
      const issued = await firstCursors(ctx)
      const tampered = ([index, change]: [number, Tampering]) => tamper(issued[index]!.cursor, change)
      await checkProperty(
        ctx,
        fc.tuple(fc.nat(issued.length - 1), tampering()),
        async (input) => {
          const { list } = issued[input[0]]!
          const breach = refusedWithErrorBody(await sendCursor(ctx, issued[input[0]]!, tampered(input)))
          return breach && { ...breach, problem: `${list.operation} with the tampered cursor ${JSON.stringify(tampered(input))}: ${breach.problem}` }
        },
        {
          skip: { test: (input) => tampered(input) === issued[input[0]]!.cursor, why: 'random text equal to the issued cursor, so not tampered' },
          coverage: inTurn(issued.map((_, index) => index), tamperingCoverage()),
        },
      )
    },
  },
  {
    id: 'cursors/cursor-bound-to-operation',
    requirement: 'ENV-CURSOR-REJECT-FOREIGN',
    title: 'a cursor sent to another list operation gets a 4xx with an error body (the server side the suite infers from "only to the same operation")',
    needs: ['apiKey', 'trader'],
    async run(ctx) {
      const issued = await firstCursors(ctx)
      if (issued.length < 2) ctx.skip(`only ${issued[0]!.list.operation} has a cursor, so there is no cursor of another list operation to send`)
      for (const [from, to] of [[issued[0]!, issued[1]!], [issued[1]!, issued[0]!]]) {
        const breach = refusedWithErrorBody(await sendCursor(ctx, to, from.cursor))
        if (breach) ctx.fail(`${to.list.operation} with a cursor of ${from.list.operation}: ${breach.problem}`, { exchange: breach.exchange })
      }
    },
  },
  {
    id: 'cursors/cursor-bound-to-trader',
    requirement: 'ENV-CURSOR-REJECT-FOREIGN',
    title: 'a balances cursor sent for another trader gets a 4xx with an error body (the server side the suite infers from "only with the same filters")',
    needs: ['apiKey', 'trader'],
    async run(ctx) {
      const [issued] = await firstCursors(ctx, [balances])
      const trader = ctx.settings.trader!.toLowerCase()
      const other = fc.sample(validHexIdentifier('Address', 'lower').filter((address) => address !== trader), { seed: ctx.settings.seed, numRuns: 1 })[0]!
      const breach = refusedWithErrorBody(await sendCursor(ctx, issued!, issued!.cursor, { address: other }))
      if (breach) ctx.fail(`balances of ${other} with a cursor issued for the configured trader: ${breach.problem}`, { exchange: breach.exchange })
    },
  },
]
