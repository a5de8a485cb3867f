import { headerValues } from '../http/exchange.js'
import type { Check } from './types.js'

export const requestIdChecks: readonly Check[] = [
  {
    id: 'request-ids/present-on-success',
    requirement: 'RID-HEADER-PRESENT',
    title: 'a successful response carries x-request-id',
    needs: ['apiKey'],
    async run(ctx) {
      const exchange = await ctx.call('getConfig')
      if (!exchange.response) ctx.fail(`no response: ${exchange.error?.message}`, { exchange })
      if (headerValues(exchange.response!, 'x-request-id').length === 0) ctx.fail('x-request-id is missing', { exchange })
    },
  },
]
