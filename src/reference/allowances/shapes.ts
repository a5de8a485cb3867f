import { isOperation } from '../response-edits.js'
import type { Allowance } from '../types.js'

export const shapeAllowances: readonly Allowance[] = [
  {
    name: 'market-extra-members',
    description: 'Markets carry members the contract does not list (Market does not forbid additional properties).',
    permittedBy: 'SHAPE-MARKET',
    onResponse(response, request) {
      const data = isOperation(request, 'listMarkets') ? (response.body as { data?: unknown }).data : undefined
      if (Array.isArray(data)) for (const market of data) Object.assign(market, { displayName: 'extra', tickSizeWad: '1000' })
    },
  },
]
