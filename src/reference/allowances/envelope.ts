import { bodyAllowance } from '../record-edits.js'
import type { Allowance } from '../types.js'

export const envelopeAllowances: readonly Allowance[] = [
  bodyAllowance('cursor-null-on-last-page', 'The last page of a list answers cursor null instead of leaving it out.', 'ENV-CURSOR-TYPE', ['listMarkets', 'listTraderBalances'], (body) => {
    body.cursor ??= null
  }),
  bodyAllowance('checkpoint-null', 'Lists and the PnL answer checkpoint null, as before an indexed checkpoint exists.', 'ENV-CHECKPOINT-TYPE', ['listMarkets', 'listTraderBalances', 'getTraderPnl'], (body) => {
    body.checkpoint = null
  }),
]
