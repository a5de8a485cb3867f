import { describe, expect, test } from 'vitest'
import { operation, type OperationId } from '../../src/contract/operations.js'
import { ruledViolations } from '../../src/contract/violation-rules.js'
import { buildReferenceData } from '../../src/reference/data.js'
import type { Body } from '../../src/reference/record-edits.js'

const data = buildReferenceData()
const [intentA, intentB] = data.intents

/** A valid success body of each operation, from the reference data. */
function validBody(op: OperationId, which: 'A' | 'B' = 'A'): Body {
  const bodies: Record<OperationId, unknown> = {
    getIntentStatus: (which === 'A' ? intentA : intentB)!.status,
    getTraderPnl: { data: data.pnl.get(data.trader), checkpoint: data.checkpoint, requestId: 'ref-0123456789' },
    getVault: { checkpoint: data.checkpoint, data: data.vault },
    listMarkets: { data: data.markets.slice(0, 10), cursor: 'opaque', checkpoint: data.checkpoint },
    listTraderBalances: { data: data.balances.get(data.trader)!.slice(0, 10), checkpoint: data.checkpoint },
    getConfig: data.config,
  }
  return structuredClone(bodies[op]) as Body
}

/** Edits a valid body in place, or returns the body that replaces it. */
function requirementsAfter(op: OperationId, edit: (body: Body) => unknown): string[] {
  const body = validBody(op)
  const replaced = edit(body)
  return [
    ...new Set(ruledViolations(operation(op), replaced === undefined ? body : replaced).map((v) => v.requirement)),
  ].sort()
}

describe('the valid reference bodies', () => {
  test.each(['getIntentStatus', 'getTraderPnl', 'getVault', 'listMarkets', 'listTraderBalances', 'getConfig'] as const)(
    'of %s have no violation',
    (op) => {
      expect(ruledViolations(operation(op), validBody(op))).toEqual([])
    },
  )

  test('of the intent with required members only have no violation', () => {
    expect(ruledViolations(operation('getIntentStatus'), validBody('getIntentStatus', 'B'))).toEqual([])
  })
})

const cases: readonly (readonly [
  description: string,
  op: OperationId,
  edit: (body: Body) => unknown,
  expected: string[],
])[] = [
  [
    'a missing state',
    'getIntentStatus',
    (b) => {
      delete b.state
    },
    ['SHAPE-INTENT-STATUS'],
  ],
  [
    'an extra member of the intent status',
    'getIntentStatus',
    (b) => {
      b.note = 'x'
    },
    ['SHAPE-INTENT-STRICT'],
  ],
  [
    'an extra member of failure',
    'getIntentStatus',
    (b) => {
      b.failure.note = 'x'
    },
    ['SHAPE-INTENT-STRICT'],
  ],
  [
    'an extra member of the order',
    'getIntentStatus',
    (b) => {
      b.order.note = 'x'
    },
    ['SHAPE-WIRE-ORDER'],
  ],
  [
    'an extra member of settlement',
    'getIntentStatus',
    (b) => {
      b.settlement.note = 'x'
    },
    ['SHAPE-INTENT-STRICT'],
  ],
  [
    'an extra member of trigger',
    'getIntentStatus',
    (b) => {
      b.trigger.note = 'x'
    },
    ['SHAPE-INTENT-STRICT'],
  ],
  [
    'a retryable failure',
    'getIntentStatus',
    (b) => {
      b.failure.retryable = true
    },
    ['STATE-FAILURE-NOT-RETRYABLE'],
  ],
  [
    'a failure without message',
    'getIntentStatus',
    (b) => {
      delete b.failure.message
    },
    ['SHAPE-INTENT-FAILURE'],
  ],
  [
    'a short errorSelector',
    'getIntentStatus',
    (b) => {
      b.settlement.errorSelector = '0x1234'
    },
    ['SHAPE-INTENT-SETTLEMENT'],
  ],
  [
    'a trigger without blockHash',
    'getIntentStatus',
    (b) => {
      delete b.trigger.blockHash
    },
    ['SHAPE-INTENT-TRIGGER'],
  ],
  [
    'a nonce with a leading zero',
    'getIntentStatus',
    (b) => {
      b.order.nonce = '01'
    },
    ['CONV-UINT-STRING'],
  ],
  [
    'createdAt as a number',
    'getIntentStatus',
    (b) => {
      b.createdAt = 5
    },
    ['CONV-UINT-STRING'],
  ],
  [
    'a negative qWad',
    'getIntentStatus',
    (b) => {
      b.order.qWad = '-1'
    },
    ['CONV-WAD-UINT'],
  ],
  [
    'a trigger priceWad as a number',
    'getIntentStatus',
    (b) => {
      b.trigger.priceWad = 5
    },
    ['CONV-WAD-UINT'],
  ],
  [
    'a short ocoGroup',
    'getIntentStatus',
    (b) => {
      b.order.ocoGroup = '0x12'
    },
    ['CONV-HASH-FORMAT'],
  ],
  [
    'a trader without 0x',
    'getIntentStatus',
    (b) => {
      b.order.trader = b.order.trader.slice(2)
    },
    ['CONV-ADDRESS-FORMAT'],
  ],
  [
    'a PnL Wad as a number',
    'getTraderPnl',
    (b) => {
      b.data.settlements.paidWad = 5
    },
    ['CONV-PNL-WAD-STRING'],
  ],
  [
    'a PnL funding Wad as a number',
    'getTraderPnl',
    (b) => {
      b.data.funding.receiverWad = 5
    },
    ['CONV-PNL-WAD-STRING'],
  ],
  [
    'a PnL positions Wad as a number',
    'getTraderPnl',
    (b) => {
      b.data.positions.cumulativePnlWad = 5
    },
    ['CONV-PNL-WAD-STRING'],
  ],
  [
    'a settlement as a number',
    'getIntentStatus',
    (b) => {
      b.settlement = 5
    },
    ['SHAPE-INTENT-SETTLEMENT'],
  ],
  [
    'a PnL positions group as a number',
    'getTraderPnl',
    (b) => {
      b.data.positions = 5
    },
    ['SHAPE-PNL'],
  ],
  // Presence is not a schema rule: the contract types the members without saying each is sent (SHAPE-PNL-ALL-MEMBERS).
  [
    'a PnL group without a member',
    'getTraderPnl',
    (b) => {
      delete b.data.funding.receiverWad
    },
    [],
  ],
  [
    'a PnL group as a string',
    'getTraderPnl',
    (b) => {
      b.data.funding = 'x'
    },
    ['SHAPE-PNL'],
  ],
  [
    'negative PnL strings',
    'getTraderPnl',
    (b) => {
      b.data.settlements.haircutWad = '-7'
    },
    [],
  ],
  [
    'PnL data as an array',
    'getTraderPnl',
    (b) => {
      b.data = [b.data]
    },
    ['ENV-DATA'],
  ],
  [
    'a PnL checkpoint as a number',
    'getTraderPnl',
    (b) => {
      b.checkpoint = 5
    },
    ['ENV-CHECKPOINT-TYPE'],
  ],
  [
    'a PnL checkpoint null',
    'getTraderPnl',
    (b) => {
      b.checkpoint = null
    },
    [],
  ],
  [
    'a vault checkpoint null',
    'getVault',
    (b) => {
      b.checkpoint = null
    },
    [],
  ],
  [
    'a vault without checkpoint',
    'getVault',
    (b) => {
      delete b.checkpoint
    },
    ['SHAPE-VAULT-CHECKPOINT'],
  ],
  [
    'a vault checkpoint as a number',
    'getVault',
    (b) => {
      b.checkpoint = 5
    },
    ['ENV-CHECKPOINT-TYPE'],
  ],
  [
    'a vault Wad as a decimal fraction',
    'getVault',
    (b) => {
      b.data.fundingReservedWad = '1.5'
    },
    ['CONV-WAD-UINT'],
  ],
  [
    'a vault id as a number',
    'getVault',
    (b) => {
      b.data.id = 1
    },
    ['SHAPE-VAULT'],
  ],
  [
    'a vault cursor as a number',
    'getVault',
    (b) => {
      b.cursor = 1
    },
    ['ENV-CURSOR-TYPE'],
  ],
  [
    'a requestId as a number',
    'getVault',
    (b) => {
      b.requestId = 1
    },
    ['ENV-REQUESTID-TYPE'],
  ],
  [
    'a vault without data',
    'getVault',
    (b) => {
      delete b.data
    },
    ['ENV-DATA'],
  ],
  ['a body that is not an object', 'getVault', () => 'vault', ['ENV-DATA']],
  [
    'markets data as an object',
    'listMarkets',
    (b) => {
      b.data = b.data[0]
    },
    ['ENV-DATA'],
  ],
  [
    'paused as a string',
    'listMarkets',
    (b) => {
      b.data[3].paused = 'false'
    },
    ['SHAPE-MARKET'],
  ],
  [
    'a negative market Wad',
    'listMarkets',
    (b) => {
      b.data[0].lastTwapMidWad = '-1'
    },
    ['CONV-WAD-UINT'],
  ],
  // A record typed only as string breaks its own rule too: its component has no rule of its own for Wad members.
  [
    'a market Wad as a number',
    'listMarkets',
    (b) => {
      b.data[0].lastTwapMidWad = 5
    },
    ['CONV-WAD-UINT', 'SHAPE-MARKET'],
  ],
  [
    'a vault Wad as a number',
    'getVault',
    (b) => {
      b.data.requiredBufferWad = 5
    },
    ['CONV-WAD-UINT', 'SHAPE-VAULT'],
  ],
  [
    'an unlisted market Wad with a leading zero',
    'listMarkets',
    (b) => {
      b.data[0].feeWad = '01'
    },
    ['CONV-WAD-UINT'],
  ],
  [
    'an unlisted market member that holds Wad inside its name, not at its end',
    'listMarkets',
    (b) => {
      b.data[0].WadRatio = '01'
      b.data[0].feeWadx = '-1'
    },
    [],
  ],
  [
    'a market without its last three fields',
    'listMarkets',
    (b) => {
      b.data.forEach((m: Body) =>
        ['activationDepthWad', 'lastTwapMidWad', 'lastTwapTimestamp'].forEach((k) => delete m[k]),
      )
    },
    [],
  ],
  [
    'a balance as a number',
    'listTraderBalances',
    (b) => {
      b.data[0].balance = 0
    },
    ['SHAPE-BALANCE'],
  ],
  [
    'a cursor null',
    'listTraderBalances',
    (b) => {
      b.cursor = null
    },
    [],
  ],
  ['a configuration as an array', 'getConfig', (b) => [b], []],
]

describe('each violation of a success body', () => {
  test.each(cases)('%s in %s breaks the requirement expected', (_, op, edit, expected) => {
    expect(requirementsAfter(op, edit)).toEqual(expected)
  })
})
