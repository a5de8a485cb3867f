import { fillPath, operation, type OperationId } from '../contract/operations.js'
import type { RunSettings } from '../core/settings.js'
import { inRange } from '../checks/profile-page-sizes.js'
import type { ListOperationId } from '../profile/profile.js'

/** One read of a round: a single request, or a walk of a list from its first page to its last. */
export interface Read {
  operation: OperationId
  /** The path with its parameters filled in, and the query the read (every page of a walk) sends. */
  path: string
  query: Record<string, string>
  headers: Record<string, string>
  walk: boolean
  /** The page size a walk asks for through the page-size parameter; undefined for the list's own. */
  pageSize?: string
}

/** How a round's inputs are written: each class of input the run has takes its turn, round by round. */
export interface Variant {
  letterCase: 'as given' | 'lower' | 'upper'
  /** Whether each read sends an X-Request-ID (one for the whole of a walk, every page of it). */
  requestId: boolean
  /** Which of a list's page sizes its walk asks for, by its place in pageSizes. */
  pageSize: number
  /** Whether the restricted key reads every operation too (first pages only). */
  restricted: boolean
}

const LETTER_CASES: readonly Variant['letterCase'][] = ['as given', 'lower', 'upper']

/**
 * The rounds of one turn of the inputs: by its end each letter case, each page size of each list, and X-Request-IDs
 * have each been read with at least once (each class takes its turn alone, not in every combination).
 */
export function roundsPerTurn(settings: Pick<RunSettings, 'profile'>): number {
  const sizes = (['listMarkets', 'listTraderBalances'] as const).map((list) => pageSizesOf(settings, list).length)
  return Math.max(LETTER_CASES.length, 2, ...sizes)
}

/**
 * The variant of a round: round 1 (the last sweep of a run without --duration) reads as the checks did, with the inputs
 * as given; each later round of a soak turns to the next letter case of hashes and addresses, sends X-Request-IDs on
 * every other round, asks the next page size each list knows, and reads with the restricted key too.
 */
export function variantOf(round: number): Variant {
  const turn = round - 1
  return {
    letterCase: LETTER_CASES[turn % LETTER_CASES.length]!,
    requestId: turn % 2 === 1,
    pageSize: turn,
    restricted: turn > 0,
  }
}

/** A hash or an address in a letter case: 0x stays as it is, the hex digits change (either case is the format). */
export function inCase(hex: string, letterCase: Variant['letterCase']): string {
  if (letterCase === 'as given') return hex
  const digits = hex.slice(2)
  return `0x${letterCase === 'lower' ? digits.toLowerCase() : digits.toUpperCase()}`
}

/**
 * The page sizes a walk of a list may ask for: the list's own (none asked), then those the profile states are in its
 * bounds (the least, one between, the most). Without the profile's bounds the run knows no page size that the
 * deployment must serve, so it walks in the list's own only.
 */
export function pageSizesOf(settings: Pick<RunSettings, 'profile'>, list: ListOperationId): (string | undefined)[] {
  const rule = settings.profile?.values.pagination?.[list]
  return [undefined, ...(rule ? inRange(rule).map(String) : [])]
}

/**
 * Every read of a round: every operation the run has inputs for (each intent and trader given), the lists walked whole,
 * in the round's variant. The receipt is sent as it was given: the contract says it is sent unchanged.
 */
export function readSet(settings: RunSettings, round: number): Read[] {
  const variant = variantOf(round)
  const cased = (hex: string) => inCase(hex, variant.letterCase)
  const intents = [settings.intent, settings.secondIntent].filter((intent) => intent !== undefined)
  const traders = [settings.trader, settings.secondTrader].filter((trader) => trader !== undefined)
  const read = (id: OperationId, params: Record<string, string> = {}, query: Record<string, string> = {}) => ({
    operation: id,
    path: fillPath(operation(id).template, params),
    query,
    walk: id === 'listMarkets' || id === 'listTraderBalances',
  })
  const reads = [
    read('getConfig'),
    read('getVault'),
    ...intents.map((intent) => read('getIntentStatus', { hash: cased(intent.hash) }, { receipt: intent.receipt })),
    ...traders.map((trader) => read('getTraderPnl', { address: cased(trader) })),
    read('listMarkets'),
    ...traders.map((trader) => read('listTraderBalances', { address: cased(trader) })),
  ]
  const headersFor = (key: string) => ({ accept: 'application/json', 'x-api-key': key })
  // The first round walks each list twice: in its own page size, then in the largest the profile states (its own again
  // without one); each later round in the next size in turn. So the last sweep of a run without --duration compares.
  const sized = (one: Omit<Read, 'headers'>): Omit<Read, 'headers'>[] => {
    if (!one.walk) return [one]
    const sizes = pageSizesOf(settings, one.operation as ListOperationId)
    const chosen = round === 1 ? [undefined, sizes.at(-1)] : [sizes[variant.pageSize % sizes.length]]
    return chosen.map((pageSize) => (pageSize === undefined ? one : { ...one, pageSize }))
  }
  const full =
    settings.apiKey === undefined
      ? []
      : reads.flatMap(sized).map((one) => ({ ...one, headers: headersFor(settings.apiKey!) }))
  const restricted =
    variant.restricted && settings.restrictedApiKey !== undefined
      ? reads.map((one) => ({ ...one, walk: false, headers: headersFor(settings.restrictedApiKey!) }))
      : []
  const all: Read[] = [...full, ...restricted]
  return variant.requestId
    ? all.map((one, i) => ({
        ...one,
        headers: { ...one.headers, 'x-request-id': `ipts-round-${round}-read-${i + 1}` },
      }))
    : all
}
