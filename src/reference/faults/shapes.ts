import type { Fault } from '../types.js'
import { firstRecord, isOperation } from '../response-edits.js'

export const shapeFaults: readonly Fault[] = [
  {
    name: 'market-paused-as-string',
    description: 'The first market of each page carries paused as the string "false" instead of a boolean.',
    breaks: ['shapes/markets-body'],
    onResponse(response, request) {
      const market = isOperation(request, 'listMarkets') ? firstRecord(response) : undefined
      if (market) market.paused = String(market.paused)
    },
  },
]
