import { bodyOf, isOperation } from '../response-edits.js'
import type { ReferenceData } from '../data.js'
import type { Allowance, RefRequest } from '../types.js'

/** The items of the list a request reads, and the filter its cursors are bound to (the lower-case trader for balances). */
function listRead(request: RefRequest, data: ReferenceData): { items: unknown[]; filter: string } | undefined {
  if (isOperation(request, 'listMarkets')) return { items: data.markets, filter: '' }
  if (!isOperation(request, 'listTraderBalances')) return undefined
  const trader = request.route!.params.address!.toLowerCase()
  const items = data.balances.get(trader)
  return items && { items, filter: trader }
}

export const cursorsAllowances: readonly Allowance[] = [
  {
    name: 'cursors-empty-last-page',
    description: 'The page with the last items still carries a cursor; following it gives an empty page without one.',
    permittedBy: 'ENV-CURSOR-END',
    onResponse(response, request, data) {
      const body = response.status === 200 ? bodyOf(response) : undefined
      const list = listRead(request, data)
      if (list && Array.isArray(body?.data) && body.data.length > 0 && body.cursor === undefined) {
        body.cursor = data.cursors.encode({ operation: request.route!.operation, filter: list.filter, offset: list.items.length })
      }
    },
  },
  {
    name: 'cursors-max-page-size-4',
    description: 'Lists serve pages of at most 4 items, whatever page size is asked for (the maximum page size is not shown).',
    permittedBy: 'LIM-PAGE-SIZE',
    // A deployment serving 4 items at most would not promise the reference's page-size bounds.
    profileWithout: ['pagination'],
    onRequest(request) {
      if (!/^\/v1\/(?:markets|traders\/[^/]+\/balances)$/.test(request.path)) return
      const asked = request.query.get('limit') ?? '4'
      if (/^[1-9][0-9]*$/.test(asked)) request.query.set('limit', String(Math.min(Number(asked), 4)))
    },
  },
]
