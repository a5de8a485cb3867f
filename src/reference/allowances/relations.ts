import { MARKET_COUNT } from '../data.js'
import { successBody } from '../record-edits.js'
import type { Allowance } from '../types.js'

/**
 * Choices the contract leaves open between two responses: what a response shows may change where the checkpoint it
 * represents changes.
 */
export const relationsAllowances: readonly Allowance[] = [
  {
    name: 'checkpoint-moves-with-each-connection',
    description:
      "Each connection is answered by a replica at a later checkpoint (19250000 plus the connection's number): the vault's, the PnL's and the balances' values and the markets' twap values change with it, and on every even connection the last market is delisted. A walk on one connection sees one checkpoint.",
    permittedBy: 'REL-LIST-WALKS-AGREE',
    run: { durationMs: 1000, rate: 200 },
    onResponse(response, request) {
      const connection = request.connection ?? 0
      const operation = request.route?.operation
      if (operation === undefined) return
      const body = successBody(response, request, operation as 'getVault')
      if (typeof body?.checkpoint !== 'string') return
      body.checkpoint = String(BigInt(body.checkpoint) + BigInt(connection))
      const moved = (value: string) => String(BigInt(value) + BigInt(connection))
      if (operation === 'getVault') body.data.fundingReservedWad = moved(body.data.fundingReservedWad)
      if (operation === 'getTraderPnl')
        body.data.settlements.realizedPnlWad = moved(body.data.settlements.realizedPnlWad)
      if (operation === 'listTraderBalances') for (const balance of body.data) balance.balance = moved(balance.balance)
      if (operation === 'listMarkets') {
        for (const market of body.data) market.lastTwapMidWad = moved(market.lastTwapMidWad)
        if (connection % 2 === 0)
          body.data = body.data.filter((market: { id: string }) => market.id !== String(MARKET_COUNT))
      }
    },
  },
]
