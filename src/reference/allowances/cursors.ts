import { bodyOf } from '../response-edits.js'
import type { Allowance } from '../types.js'

export const cursorsAllowances: readonly Allowance[] = [
  {
    name: 'cursors-null-on-last-page',
    description: 'The last page of a list carries cursor: null instead of leaving it out ("missing or null means there is no next page").',
    permittedBy: 'ENV-CURSOR-END',
    onResponse(response, request) {
      const body = request.route?.operation.startsWith('list') && response.status === 200 ? bodyOf(response) : undefined
      if (body && body.cursor === undefined) body.cursor = null
    },
  },
  {
    name: 'cursors-max-page-size-4',
    description: 'Lists serve pages of at most 4 items, whatever page size is asked for (the maximum page size is not shown).',
    permittedBy: 'LIM-PAGE-SIZE',
    onRequest(request) {
      if (!/^\/v1\/(?:markets|traders\/[^/]+\/balances)$/.test(request.path)) return
      const asked = request.query.get('limit') ?? '4'
      if (/^[1-9][0-9]*$/.test(asked)) request.query.set('limit', String(Math.min(Number(asked), 4)))
    },
  },
]
