import { bodyAllowance } from '../record-edits.js'
import type { Allowance } from '../types.js'

export const envelopeAllowances: readonly Allowance[] = [
  bodyAllowance(
    'cursor-null-on-last-page',
    'The last page of a list answers cursor null instead of leaving it out.',
    'ENV-CURSOR-TYPE',
    ['listMarkets', 'listTraderBalances'],
    (body) => {
      body.cursor ??= null
    },
  ),
  {
    ...bodyAllowance(
      'checkpoint-null',
      'Lists and the PnL answer checkpoint null, as before an indexed checkpoint exists.',
      'ENV-CHECKPOINT-TYPE',
      ['listMarkets', 'listTraderBalances', 'getTraderPnl'],
      (body) => {
        body.checkpoint = null
      },
    ),
    // Two responses that represent no chain boundary may show different states: the walks and a trader's reads are not
    // compared, so these relations judge nothing (the vault's checkpoint, a string, keeps its members compared).
    skips: ['relations/list-walks-agree', 'relations/trader-reads-agree'],
  },
  bodyAllowance(
    'success-bodies-without-request-id',
    'Success bodies carry no requestId: a response "can carry" it (the x-request-id header still correlates the request).',
    'ENV-REQUESTID-TYPE',
    ['listMarkets', 'listTraderBalances', 'getTraderPnl', 'getVault'],
    (body) => {
      delete body.requestId
    },
  ),
  {
    ...bodyAllowance(
      'lists-and-pnl-without-checkpoint',
      'Lists and the PnL carry no checkpoint: a response "can carry" one, and their rows show {data} alone (the vault\'s row shows {checkpoint, data}, so it keeps its own).',
      'ENV-CHECKPOINT-TYPE',
      ['listMarkets', 'listTraderBalances', 'getTraderPnl'],
      (body) => {
        delete body.checkpoint
      },
    ),
    // As checkpoint-null: no chain boundary, so the walks and a trader's reads are not compared.
    skips: ['relations/list-walks-agree', 'relations/trader-reads-agree'],
  },
]
