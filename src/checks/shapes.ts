import type { Check } from './types.js'

export const shapeChecks: readonly Check[] = [
  {
    id: 'shapes/markets-body',
    requirement: 'SHAPE-MARKET',
    title: 'GET /v1/markets answers a MarketsResponse',
    needs: ['apiKey'],
    async run(ctx) {
      const exchange = await ctx.call('listMarkets')
      if (exchange.response?.status !== 200) ctx.fail(`status ${exchange.response?.status ?? 'none'}, expected 200`, { exchange })
      ctx.expectSchema('MarketsResponse', exchange)
    },
  },
]
