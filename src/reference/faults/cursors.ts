import type { ReferenceData } from '../data.js'
import { DEFAULT_PAGE_SIZE, findRoute } from '../handlers.js'
import { bodyOf, dataOf, isOperation } from '../response-edits.js'
import type { Fault, RefRequest } from '../types.js'

/**
 * The list operation a request addresses, and the filter its cursors are bound to (the lower-case trader for balances).
 */
function listOf(request: RefRequest): { operation: string; filter: string } | undefined {
  const found = findRoute(request.path)
  if (!found || found === 'malformed') return undefined
  const { operation } = found.route
  if (operation === 'listMarkets') return { operation, filter: '' }
  if (operation === 'listTraderBalances') return { operation, filter: found.params.address!.toLowerCase() }
  return undefined
}

/** The list a request addresses and the position its cursor carries, when it sends a cursor the server issued. */
function sentCursor(request: RefRequest, data: ReferenceData) {
  const list = listOf(request)
  const position = data.cursors.read(request.query.get('cursor') ?? '')
  return list && position ? { list, position } : undefined
}

/** A bare integer cursor on markets is taken as an offset: signed as if the server had issued it. */
function acceptBareOffsets(request: RefRequest, data: ReferenceData): void {
  const cursor = request.query.get('cursor')
  if (cursor !== null && /^[0-9]+$/.test(cursor) && request.path === '/v1/markets') {
    request.query.set('cursor', data.cursors.encode({ operation: 'listMarkets', filter: '', offset: Number(cursor) }))
  }
}

/** Added to an offset by cursors-bare-integer-cursor-beyond-ids: beyond every market ID ("1".."42"). */
const CURSOR_INTEGER_BASE = 1000

export const cursorsFaults: readonly Fault[] = [
  {
    name: 'cursors-page-repeats-item',
    description: 'Every page of markets after the first starts with the last market of the page before it.',
    breaks: ['cursors/items-unique', 'relations/list-walks-agree'],
    onResponse(response, request, data) {
      const page = isOperation(request, 'listMarkets') && request.query.has('cursor') ? dataOf(response) : undefined
      if (!Array.isArray(page) || page.length === 0) return
      const index = data.markets.findIndex((market) => market.id === (page[0] as { id: unknown }).id)
      if (index > 0) page.splice(0, 1, data.markets[index - 1], page[0])
    },
  },
  {
    name: 'cursors-cycle-to-first-page',
    description: "The last page of a trader's balances carries a cursor back to the first page.",
    breaks: ['cursors/balances-walk-ends', 'cursors/items-unique', 'profile/max-page-walk-ends'],
    onResponse(response, request, data) {
      const body = isOperation(request, 'listTraderBalances') && response.status === 200 ? bodyOf(response) : undefined
      const position = data.cursors.read(request.query.get('cursor') ?? '')
      if (body && body.cursor === undefined && position) body.cursor = data.cursors.encode({ ...position, offset: 0 })
    },
  },
  {
    name: 'cursors-markets-cursor-back-to-page-2',
    description:
      'The third page of markets carries the cursor that led to the second page: the fourth page is the second again, and the walk cycles.',
    breaks: ['cursors/markets-walk-ends', 'cursors/items-unique'],
    onResponse(response, request, data) {
      const body = isOperation(request, 'listMarkets') && response.status === 200 ? bodyOf(response) : undefined
      const position = data.cursors.read(request.query.get('cursor') ?? '')
      if (body && position?.offset === 2 * DEFAULT_PAGE_SIZE)
        body.cursor = data.cursors.encode({ ...position, offset: DEFAULT_PAGE_SIZE })
    },
  },
  {
    name: 'cursors-balance-token-cursor',
    description:
      'Balances cursors are the token of the last balance on the page, and a token sent as a cursor is accepted (the next page starts after it).',
    breaks: ['cursors/issued-cursor-opaque', 'cursors/hand-built-cursor-refused'],
    onRequest(request, data) {
      const list = listOf(request)
      const token = request.query.get('cursor')
      if (list?.operation !== 'listTraderBalances' || token === null) return
      const index = (data.balances.get(list.filter) ?? []).findIndex((balance) => balance.token === token)
      if (index >= 0) request.query.set('cursor', data.cursors.encode({ ...list, offset: index + 1 }))
    },
    onResponse(response, request, data) {
      const body = isOperation(request, 'listTraderBalances') ? bodyOf(response) : undefined
      const position = typeof body?.cursor === 'string' ? data.cursors.read(body.cursor) : undefined
      if (position) body!.cursor = data.balances.get(position.filter)![position.offset - 1]!.token
    },
  },
  {
    name: 'cursors-cursor-as-object',
    description: 'Pages of markets after the first carry their cursor wrapped in an object instead of as a string.',
    breaks: ['cursors/cursor-is-string', 'envelope/cursor-type'],
    checkWitnesses: { 'envelope/cursor-type': ['cursors/cursor-is-string'] },
    onResponse(response, request) {
      const body = isOperation(request, 'listMarkets') && request.query.has('cursor') ? bodyOf(response) : undefined
      if (typeof body?.cursor === 'string') body.cursor = { token: body.cursor }
    },
  },
  {
    name: 'cursors-bare-offset-cursor',
    description: 'Markets cursors are bare offsets ("10", "20"), and a bare offset is accepted as a cursor.',
    breaks: ['cursors/issued-cursor-opaque', 'cursors/hand-built-cursor-refused', 'cursors/tampered-cursor-rejected'],
    onRequest: acceptBareOffsets,
    onResponse(response, request, data) {
      const body = isOperation(request, 'listMarkets') ? bodyOf(response) : undefined
      const position = typeof body?.cursor === 'string' ? data.cursors.read(body.cursor) : undefined
      if (position) body!.cursor = String(position.offset)
    },
  },
  {
    name: 'cursors-bare-integer-cursor-beyond-ids',
    description:
      'Markets cursors are bare integers (the offset plus 1000, so no market ID), and such an integer is accepted as a cursor.',
    breaks: ['cursors/issued-cursor-opaque', 'cursors/hand-built-cursor-refused', 'cursors/tampered-cursor-rejected'],
    onRequest(request, data) {
      const cursor = request.query.get('cursor')
      if (
        cursor !== null &&
        /^[0-9]+$/.test(cursor) &&
        Number(cursor) >= CURSOR_INTEGER_BASE &&
        request.path === '/v1/markets'
      ) {
        request.query.set(
          'cursor',
          data.cursors.encode({ operation: 'listMarkets', filter: '', offset: Number(cursor) - CURSOR_INTEGER_BASE }),
        )
      }
    },
    onResponse(response, request, data) {
      const body = isOperation(request, 'listMarkets') ? bodyOf(response) : undefined
      const position = typeof body?.cursor === 'string' ? data.cursors.read(body.cursor) : undefined
      if (position) body!.cursor = String(position.offset + CURSOR_INTEGER_BASE)
    },
  },
  {
    name: 'cursors-hand-built-offset-accepted',
    description: 'Markets cursors are opaque, but a bare offset built by hand is accepted as a cursor too.',
    breaks: ['cursors/hand-built-cursor-refused', 'cursors/tampered-cursor-rejected'],
    onRequest: acceptBareOffsets,
  },
  {
    name: 'cursors-tampered-cursor-500',
    description: 'A cursor whose signature does not hold gets 500 instead of a 4xx.',
    breaks: ['cursors/tampered-cursor-rejected', 'every-response/allowed-request-not-500'],
    onResponse(response) {
      if (response.status === 400 && bodyOf(response)?.code === 'invalid_cursor') response.status = 500
    },
  },
  {
    name: 'cursors-cursor-accepted-by-other-operation',
    description:
      'A cursor issued by one list operation is accepted by the other, which serves its page from the same offset.',
    breaks: ['cursors/cursor-bound-to-operation'],
    onRequest(request, data) {
      const sent = sentCursor(request, data)
      if (sent && sent.position.operation !== sent.list.operation)
        request.query.set('cursor', data.cursors.encode({ ...sent.list, offset: sent.position.offset }))
    },
  },
  {
    name: 'cursors-balances-cursor-overrides-trader',
    description:
      "A balances cursor sent for another trader serves the balances of the trader it was issued for: the cursor's filter wins over the path.",
    breaks: ['cursors/cursor-bound-to-trader'],
    onRequest(request, data) {
      const { list, position } = sentCursor(request, data) ?? {}
      if (
        list?.operation === 'listTraderBalances' &&
        position?.operation === list.operation &&
        position.filter !== list.filter
      ) {
        request.path = `/v1/traders/${position.filter}/balances`
      }
    },
  },
]
