import type { RequirementId } from '../contract/catalogue-ids.js'
import { createHash } from 'node:crypto'
import { headerValues, type Exchange, type ExchangeResponse } from '../http/exchange.js'
import type { Finding } from './exchange-judge.js'

/**
 * Rules about two or more responses: what one response shows only beside another (a request ID given twice, a resource
 * that loses a member on another replica, a list that comes in another order). Each rule keeps a memory of what the
 * run has seen, bounded by the deployment's resources and not by the number of responses, so a long soak stays flat.
 */

/** A walk of a list from its first page to its last, as the soak and the last sweep make it. */
export interface ListWalk {
  operation: string
  /** The list as a resource: its operation and path (letter case aside) and the filters its pages send. */
  resource: string
  /** The page size it was asked in (the page-size parameter's value), or undefined for the list's own. */
  pageSize?: string
  /** The first page's exchange: the evidence of what the walk shows. */
  first: Exchange
  /** The identity of each item, in the order the pages gave them. */
  identities: string[]
  /** The checkpoint every page represents; undefined when a page carries none, or two pages carry different ones. */
  checkpoint?: string
  /** False when the walk ended before its last page (a page that was no 200, --max-pages). */
  complete: boolean
}

/** What one sample shows against those before it: a finding, nothing (undefined), or null when it compares nothing. */
export type Comparison = Finding | undefined | null

/** What a relation remembers of a run: it is shown each response (and each walk) in turn. */
export interface RelationMemory {
  response?(response: ExchangeResponse, exchange: Exchange): Comparison
  walk?(walk: ListWalk): Comparison
}

export interface RelationRule {
  id: string
  requirement: RequirementId
  title: string
  /** Why the rule is skipped when the run compared nothing. */
  notApplicable: string
  /** A fresh memory, for one run. */
  remember(): RelationMemory
}

/** A list's items are told apart by this member: the suite's choice, as the contract names no identity. */
const LIST_IDENTITY: Readonly<Record<string, string>> = { listMarkets: 'id', listTraderBalances: 'token' }

/** The identity of a list's item: its identity member, or the item itself as JSON when it has none. */
export function itemIdentity(operation: string, item: unknown): string {
  const member = LIST_IDENTITY[operation]
  const value = member === undefined ? undefined : (item as Record<string, unknown> | null)?.[member]
  return typeof value === 'string' ? value : JSON.stringify(item)
}

/** The resource a read addresses: its operation and path, letter case aside (hex digits are either case). */
export function resourceOf(exchange: Exchange): string {
  return `${exchange.operation} ${new URL(exchange.request.url).pathname.toLowerCase()}`
}

/** The checkpoint a response represents: a string, or undefined (null, missing, or no JSON object). */
export function checkpointOf(response: ExchangeResponse): string | undefined {
  const checkpoint = (response.json as { checkpoint?: unknown } | null | undefined)?.checkpoint
  return typeof checkpoint === 'string' ? checkpoint : undefined
}

/** A 64-bit digest of a text: the memory of a value seen keeps this, not the value. */
function digest(text: string): bigint {
  return createHash('sha256').update(text).digest().readBigUInt64BE(0)
}

const jsonType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value)

/**
 * The members of a value and their JSON types, by JSON pointer: `/data/paused boolean`. An array's items are one
 * member, `/*`, with every type they have; an item of a list is compared as a resource of its own.
 */
export function membersOf(value: unknown, at = ''): Set<string> {
  const members = new Set<string>()
  const visit = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) for (const item of node) visit(item, `${pointer}/*`)
    else if (node !== null && typeof node === 'object')
      for (const [name, member] of Object.entries(node)) {
        const path = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`
        members.add(`${path} ${jsonType(member)}`)
        visit(member, path)
      }
  }
  visit(value, at)
  return members
}

/** How two sets of members differ, in words; undefined when they do not. */
function membersDiffer(before: Set<string>, now: Set<string>): string | undefined {
  const lost = [...before].filter((member) => !now.has(member))
  const gained = [...now].filter((member) => !before.has(member))
  if (lost.length === 0 && gained.length === 0) return undefined
  const list = (members: string[]) => members.slice(0, 4).join(', ') + (members.length > 4 ? ', ...' : '')
  return [lost.length > 0 ? `without ${list(lost)}` : '', gained.length > 0 ? `with ${list(gained)}` : '']
    .filter(Boolean)
    .join(' and ')
}

/** The success bodies the relations compare: a 200 with a JSON object, of an operation of the contract. */
const isSuccessObject = (response: ExchangeResponse, exchange: Exchange) =>
  exchange.operation !== undefined &&
  response.status === 200 &&
  response.json !== null &&
  typeof response.json === 'object' &&
  !Array.isArray(response.json)

/**
 * The x-request-ids the rule remembers: the most recent this many, so that a long soak or a proxy left running stays
 * flat. A server that gives an ID again only after this many responses is not caught.
 */
export const REQUEST_IDS_REMEMBERED = 100_000

const requestIdUnique: RelationRule = {
  id: 'relations/request-id-unique',
  requirement: 'RID-UNIQUE',
  title: 'no two responses carry the same x-request-id, but where the requests sent that same X-Request-ID',
  notApplicable: 'no response carried an x-request-id of its own (not one echoed from the request)',
  remember() {
    // Each ID the server gave, with the ID its request sent (0n: none): a client may send one ID on several requests,
    // and a server that derives its own from it (cut short, prefixed) gives the same one back to each.
    const seen = new Map<bigint, bigint>()
    return {
      response(response, exchange) {
        const values = headerValues(response, 'x-request-id')
        if (values.length !== 1 || values[0] === '') return null
        const value = values[0]!
        const sent = exchange.request.headers['x-request-id']
        // An ID echoed from the request correlates with the client's own.
        if (value === sent) return null
        const key = digest(value)
        const sentKey = sent === undefined ? 0n : digest(sent)
        const before = seen.get(key)
        if (before === undefined) {
          seen.set(key, sentKey)
          // A Map keeps its insertion order: the first key is the oldest.
          if (seen.size > REQUEST_IDS_REMEMBERED) seen.delete(seen.keys().next().value!)
          return undefined
        }
        if (sent !== undefined && before === sentKey) return undefined
        return `x-request-id ${JSON.stringify(value)} was carried by an earlier response too, to a request that did not send the same X-Request-ID`
      },
    }
  },
}

const sameResourceSameMembers: RelationRule = {
  id: 'relations/same-resource-same-members',
  requirement: 'REL-RESOURCE-MEMBERS-STABLE',
  title:
    'a resource read again at the same checkpoint has the same members of the same types (a list item by its identity)',
  notApplicable: 'no resource was read twice at the same checkpoint',
  remember() {
    const seen = new Map<string, { checkpoint: string; members: Set<string> }>()
    const compare = (resource: string, checkpoint: string, members: Set<string>): Comparison => {
      const before = seen.get(resource)
      if (!before || before.checkpoint !== checkpoint) {
        seen.set(resource, { checkpoint, members })
        return null
      }
      const difference = membersDiffer(before.members, members)
      return difference === undefined
        ? undefined
        : `${resource} read again at checkpoint ${JSON.stringify(checkpoint)} came ${difference}`
    }
    return {
      response(response, exchange) {
        if (!isSuccessObject(response, exchange)) return null
        const checkpoint = checkpointOf(response)
        if (checkpoint === undefined) return null
        const resource = resourceOf(exchange)
        const data = (response.json as { data?: unknown }).data
        if (!Array.isArray(data)) return compare(resource, checkpoint, membersOf(data, '/data'))
        const comparisons = data
          .map((item) =>
            compare(`${resource} item ${itemIdentity(exchange.operation!, item)}`, checkpoint, membersOf(item)),
          )
          .filter((comparison) => comparison !== null)
        return comparisons.length === 0 ? null : comparisons.find((comparison) => comparison !== undefined)
      },
    }
  },
}

/** The trader reads: what they say of a trader is one projection at a checkpoint, whatever case its address is in. */
const TRADER_READS = new Set(['getTraderPnl', 'listTraderBalances'])

const traderReadsAgree: RelationRule = {
  id: 'relations/trader-reads-agree',
  requirement: 'REL-TRADER-READS-AGREE',
  title:
    "a trader's PnL, and each of its balances, read again at the same checkpoint (its address in any letter case) has the same values",
  notApplicable: "no trader's PnL or balance was read twice at the same checkpoint",
  remember() {
    const seen = new Map<string, { checkpoint: string; values: bigint }>()
    const compare = (resource: string, checkpoint: string, value: unknown): Comparison => {
      const values = digest(JSON.stringify(value))
      const before = seen.get(resource)
      if (!before || before.checkpoint !== checkpoint) {
        seen.set(resource, { checkpoint, values })
        return null
      }
      return before.values === values
        ? undefined
        : `${resource} read again at checkpoint ${JSON.stringify(checkpoint)} has other values: ${JSON.stringify(value).slice(0, 200)}`
    }
    return {
      response(response, exchange) {
        if (!TRADER_READS.has(exchange.operation ?? '') || !isSuccessObject(response, exchange)) return null
        const checkpoint = checkpointOf(response)
        if (checkpoint === undefined) return null
        const resource = resourceOf(exchange)
        const data = (response.json as { data?: unknown }).data
        if (!Array.isArray(data)) return compare(resource, checkpoint, data)
        const comparisons = data
          .map((item) => compare(`${resource} item ${itemIdentity(exchange.operation!, item)}`, checkpoint, item))
          .filter((comparison) => comparison !== null)
        return comparisons.length === 0 ? null : comparisons.find((comparison) => comparison !== undefined)
      },
    }
  },
}

/** Where two walks' items part, in words: the first position at which they differ. */
function walksPart(before: readonly string[], now: readonly string[]): string | undefined {
  const at = before.findIndex((identity, i) => now[i] !== identity)
  if (at === -1 && before.length === now.length) return undefined
  const index = at === -1 ? before.length : at
  const item = (identities: readonly string[]) =>
    index < identities.length ? JSON.stringify(identities[index]) : 'the end of the list'
  return `item ${index + 1} is ${item(now)} where it was ${item(before)} (${now.length} items, were ${before.length})`
}

const pageSizeOf = (walk: ListWalk) =>
  walk.pageSize === undefined ? "the list's own page size" : `pages of ${walk.pageSize}`

const listWalksAgree: RelationRule = {
  id: 'relations/list-walks-agree',
  requirement: 'REL-LIST-WALKS-AGREE',
  title:
    'a list walked again at the same checkpoint, in any page size, yields the same items in the same order, none repeated or skipped',
  notApplicable: 'no list was walked twice to its end at the same checkpoint',
  remember() {
    const seen = new Map<string, { checkpoint: string; identities: string[]; pageSize: string }>()
    return {
      walk(walk) {
        if (!walk.complete) return null
        const repeated = walk.identities.find((identity, i) => walk.identities.indexOf(identity) !== i)
        if (repeated !== undefined)
          return `a walk of ${walk.resource} in ${pageSizeOf(walk)} yields ${JSON.stringify(repeated)} twice`
        if (walk.checkpoint === undefined) return null
        const before = seen.get(walk.resource)
        if (!before || before.checkpoint !== walk.checkpoint) {
          seen.set(walk.resource, {
            checkpoint: walk.checkpoint,
            identities: walk.identities,
            pageSize: pageSizeOf(walk),
          })
          return null
        }
        const parting = walksPart(before.identities, walk.identities)
        return parting === undefined
          ? undefined
          : `a walk of ${walk.resource} in ${pageSizeOf(walk)} at checkpoint ${JSON.stringify(walk.checkpoint)} differs from one in ${before.pageSize}: ${parting}`
      },
    }
  },
}

/** The relations between samples, judged over every response of a run and every walk of its last sweep or soak. */
export const relationRules: readonly RelationRule[] = [
  requestIdUnique,
  sameResourceSameMembers,
  listWalksAgree,
  traderReadsAgree,
]
