import type { ReferenceData } from '../data.js'
import { successBody } from '../record-edits.js'
import { carryRequestId } from '../response-edits.js'
import type { Fault } from '../types.js'

/** Responses a server that makes up request IDs from a wrapping counter answers before it gives the first again. */
const REQUEST_ID_COUNTER_WRAP = 16
/** The connections (every third the server accepts) a stale replica answers on. */
const STALE_REPLICA_EVERY = 3
/** The page size whose pages after the first start one item late. */
const SKIPPING_PAGE_SIZE = '13'

/** Per server: the counter of the request IDs it makes up. */
const counters = new WeakMap<ReferenceData, { next: number }>()

/**
 * The soak of these faults: a whole turn of its inputs (each letter case and page size, rounds on four connections in
 * a row), however short its duration; at a pace that keeps the self-test short.
 */
const SOAK = { durationMs: 1000, rate: 200 } as const

/**
 * Violations that show only beside another response: later in a run, on some connections, on a repeated read, in a
 * walk of another page size. Each needs two samples to compare, so a check that judges one response at a time passes.
 */
export const relationsFaults: readonly Fault[] = [
  {
    name: 'request-id-counter-wraps',
    description: `The request IDs the server makes up come from a counter that wraps after ${REQUEST_ID_COUNTER_WRAP} responses (req-00000000 to req-000000${REQUEST_ID_COUNTER_WRAP - 1}), so later responses carry IDs earlier ones had; an ID the client sent is still echoed.`,
    breaks: ['relations/request-id-unique'],
    onResponse(response, request, data) {
      if (response.headers['x-request-id'] === request.headers['x-request-id']) return
      const counter = counters.get(data) ?? { next: 0 }
      counters.set(data, counter)
      carryRequestId(response, `req-${String(counter.next++ % REQUEST_ID_COUNTER_WRAP).padStart(8, '0')}`)
    },
  },
  {
    name: 'stale-replica-drops-twap-members',
    description: `On every ${STALE_REPLICA_EVERY}rd connection the server accepts (a replica behind the load balancer still on an older release), markets come without lastTwapMidWad and lastTwapTimestamp at the same checkpoint; each response alone is within the contract (whether they are required is not shown).`,
    breaks: ['relations/same-resource-same-members'],
    run: SOAK,
    onResponse(response, request) {
      if ((request.connection ?? 0) % STALE_REPLICA_EVERY !== 0) return
      for (const market of successBody(response, request, 'listMarkets')?.data ?? []) {
        delete market.lastTwapMidWad
        delete market.lastTwapTimestamp
      }
    },
  },
  {
    name: 'pnl-of-an-upper-case-address-reads-zero',
    description:
      "A trader's PnL asked with its address in upper-case hex digits is served at the same checkpoint with every value 0, as for a trader the index does not know; the address in lower case reads its PnL.",
    breaks: ['relations/trader-reads-agree'],
    run: SOAK,
    onResponse(response, request) {
      const address = request.route?.params.address ?? ''
      const upper = /[A-F]/.test(address) && !/[a-f]/.test(address)
      const body = upper ? successBody(response, request, 'getTraderPnl') : undefined
      if (!body) return
      for (const group of Object.values(body.data as Record<string, Record<string, string>>))
        for (const member of Object.keys(group)) group[member] = '0'
    },
  },
  {
    name: `balances-skip-an-item-after-each-page-of-${SKIPPING_PAGE_SIZE}`,
    description: `A walk of a trader's balances in pages of ${SKIPPING_PAGE_SIZE} skips the item at each page boundary: every page after the first starts one item late (an off-by-one in the cursor for that size alone). No item repeats, and each page is well formed.`,
    breaks: ['relations/list-walks-agree'],
    run: SOAK,
    onResponse(response, request) {
      if (request.query.get('limit') !== SKIPPING_PAGE_SIZE || !request.query.has('cursor')) return
      const body = successBody(response, request, 'listTraderBalances')
      body?.data.shift()
    },
  },
]
