import { validateAgainst } from '../contract/schemas.js'
import type { Exchange } from '../http/exchange.js'
import type { ListOperationId, PageSizeRule } from '../profile/profile.js'
import { expectWalkEnds } from './cursors.js'
import type { Check, CheckContext } from './types.js'
import { statusOf } from './operation-calls.js'

interface PagedList {
  operation: ListOperationId
  rule: PageSizeRule
}

export interface SizedPage {
  size: string
  exchange: Exchange
  /** Items of a 200 page with a data array. */
  items?: number
}

/**
 * The lists the profile bounds and the run can read (balances only with a trader); skips the check when there is none.
 */
function pagedLists(ctx: CheckContext): PagedList[] {
  const rules = Object.entries(ctx.settings.profile!.values.pagination!) as [ListOperationId, PageSizeRule][]
  const readable = rules.filter(([operation]) => operation !== 'listTraderBalances' || !!ctx.settings.trader)
  if (readable.length === 0) ctx.skip('the profile bounds only listTraderBalances, and no trader was given (--trader)')
  return readable.map(([operation, rule]) => ({ operation, rule }))
}

/** In range: the bounds themselves and a size between them. */
export const inRange = ({ minPageSize, maxPageSize }: PageSizeRule): number[] => [
  ...new Set([minPageSize, Math.floor((minPageSize + maxPageSize) / 2), maxPageSize]),
]

/**
 * Out of range: below the minimum, 0, negative, above the maximum, and not an integer. The profile's schema makes
 * minPageSize at least 1, so each size below is below it; only 0 may come twice (a minimum of 1).
 */
function outOfRange({ minPageSize, maxPageSize }: PageSizeRule): { size: string; above: boolean }[] {
  const below = [...new Set([minPageSize - 1, 0, -1])].map(String)
  return [
    ...below.map((size) => ({ size, above: false })),
    { size: String(maxPageSize + 1), above: true },
    ...[`${minPageSize}.5`, 'abc'].map((size) => ({ size, above: false })),
  ]
}

async function askPage(ctx: CheckContext, operation: ListOperationId, size: string | undefined): Promise<SizedPage> {
  // A query member left undefined is not sent: the page without a size.
  const exchange = await ctx.call(operation, { query: { [ctx.settings.limitParam]: size } })
  const data = (exchange.response?.json as { data?: unknown } | undefined)?.data
  return {
    // Stryker disable next-line StringLiteral: equivalent: the page asked without a size is never named
    size: size ?? '(none)',
    exchange,
    items: exchange.response?.status === 200 && Array.isArray(data) ? data.length : undefined,
  }
}

/**
 * Why the list's page sizes cannot be judged, unless the list is shown to read the run's page-size parameter: some size
 * asked (those given, else the in-range ones) gets another status or another number of items than the page served
 * without a size. The parameter's name is the run's setting (--limit-param), not the contract's, so a list that ignores
 * it has paged under another name, and what it served says nothing of its page-size bounds.
 */
async function pageSizeIgnored(
  ctx: CheckContext,
  list: PagedList,
  asked: readonly SizedPage[],
): Promise<string | undefined> {
  const plain = await askPage(ctx, list.operation, undefined)
  const differs = (page: SizedPage) =>
    page.exchange.response?.status !== plain.exchange.response?.status || page.items !== plain.items
  if (asked.some(differs)) return undefined
  const inRangePages = await Promise.all(inRange(list.rule).map((size) => askPage(ctx, list.operation, String(size))))
  if (inRangePages.some(differs)) return undefined
  const served = plain.items === undefined ? statusOf(plain.exchange) : `${plain.items} items`
  return `${list.operation} ignores ?${ctx.settings.limitParam}= (every page size asked, in and out of the profile's bounds, got the answer it gives without one: ${served}) — set --limit-param (the contract does not show its name)`
}

/** Skips the check when no list bounded by the profile was shown to read the page-size parameter. */
function skipUnlessJudged(ctx: CheckContext, ignored: readonly string[], lists: readonly PagedList[]): void {
  if (ignored.length === lists.length) ctx.skip(ignored.join('; '))
}

/** What is wrong with a refusal of a page size, or undefined for 400 or 422 with an error body. */
export function refusalProblem(page: SizedPage): string | undefined {
  const { response } = page.exchange
  if (response?.status !== 400 && response?.status !== 422) return `got ${statusOf(page.exchange)}, not 400 or 422`
  if (response.json === undefined) return `got ${response.status} whose body is ${response.jsonError}`
  const violations = validateAgainst('ErrorBody', response.json)
  return violations.length === 0
    ? undefined
    : `got ${response.status} without an error body (ErrorBody${violations[0]!.instancePath} ${violations[0]!.message})`
}

/** A page served within max items; one without items (not a 200 list) never is. */
const served = (page: SizedPage, max: number) => (page.items ?? Infinity) <= max

export function outOfRangeProblem(page: SizedPage, above: boolean, rule: PageSizeRule): string | undefined {
  if (rule.outOfRange === 'reject') return refusalProblem(page)
  if (above)
    return served(page, rule.maxPageSize)
      ? undefined
      : `clamp: expected 200 with at most ${rule.maxPageSize} items, got ${page.items === undefined ? statusOf(page.exchange) : `${page.items} items`}`
  // Clamping says what happens above the maximum; a size that is no page size at all may be refused or served clamped.
  return served(page, rule.maxPageSize) || refusalProblem(page) === undefined
    ? undefined
    : `clamp: expected 200 with at most ${rule.maxPageSize} items, or 400 or 422 with an error body; ${refusalProblem(page)}`
}

const describe = ({ operation, rule }: PagedList) =>
  `${operation} (${rule.minPageSize} to ${rule.maxPageSize}, ${rule.outOfRange})`

export const profilePageSizeChecks: readonly Check[] = [
  {
    id: 'profile/page-size-out-of-range',
    requirement: 'LIM-PAGE-SIZE',
    title:
      "page sizes outside the profile's pagination bounds get 400 or 422 with an error body (reject), or a page of at most maxPageSize items (clamp)",
    needs: ['apiKey'],
    profile: 'pagination',
    async run(ctx) {
      const lists = pagedLists(ctx)
      const ignored: string[] = []
      for (const list of lists) {
        const sizes = outOfRange(list.rule)
        const pages = await Promise.all(sizes.map(({ size }) => askPage(ctx, list.operation, size)))
        const why = await pageSizeIgnored(ctx, list, pages)
        if (why) {
          ignored.push(why)
          continue
        }
        for (const [i, page] of pages.entries()) {
          const problem = outOfRangeProblem(page, sizes[i]!.above, list.rule)
          if (problem)
            ctx.fail(`${describe(list)} with ${ctx.settings.limitParam}=${page.size}: ${problem}`, {
              exchange: page.exchange,
            })
        }
      }
      skipUnlessJudged(ctx, ignored, lists)
    },
  },
  {
    id: 'profile/page-size-in-range',
    requirement: 'LIM-PAGE-SIZE',
    title: "the profile's minPageSize, maxPageSize and a size between them are each served 200",
    needs: ['apiKey'],
    profile: 'pagination',
    async run(ctx) {
      for (const list of pagedLists(ctx)) {
        for (const page of await Promise.all(
          inRange(list.rule).map((size) => askPage(ctx, list.operation, String(size))),
        )) {
          if (page.items === undefined)
            ctx.fail(
              `${describe(list)} with ${ctx.settings.limitParam}=${page.size}: got ${statusOf(page.exchange)}, not 200 with a data array`,
              { exchange: page.exchange },
            )
        }
      }
    },
  },
  {
    id: 'profile/page-size-honoured',
    requirement: 'EP-LIST-QUERY',
    title:
      "a list asked for a page size within the profile's bounds (--limit-param) never serves more items than asked",
    needs: ['apiKey'],
    profile: 'pagination',
    async run(ctx) {
      let judged = false
      const lists = pagedLists(ctx)
      const ignored: string[] = []
      for (const list of lists) {
        const pages = await Promise.all(inRange(list.rule).map((size) => askPage(ctx, list.operation, String(size))))
        const why = await pageSizeIgnored(ctx, list, pages)
        if (why) {
          ignored.push(why)
          continue
        }
        for (const page of pages) {
          if (page.items === undefined) continue
          judged = true
          if (page.items > Number(page.size))
            ctx.fail(`${describe(list)} with ${ctx.settings.limitParam}=${page.size} served ${page.items} items`, {
              exchange: page.exchange,
            })
        }
      }
      skipUnlessJudged(ctx, ignored, lists)
      if (!judged) ctx.skip('no page size within the bounds was served 200 (profile/page-size-in-range reports it)')
    },
  },
  {
    id: 'profile/max-page-walk-ends',
    requirement: 'LIM-PAGE-SIZE',
    title: "following a list's cursor at the profile's maxPageSize reaches a last page, and no item comes twice",
    needs: ['apiKey'],
    profile: 'pagination',
    async run(ctx) {
      for (const list of pagedLists(ctx))
        await expectWalkEnds(ctx, list.operation, { [ctx.settings.limitParam]: String(list.rule.maxPageSize) })
    },
  },
]
