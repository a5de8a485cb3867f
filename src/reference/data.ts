import { createHash, randomBytes } from 'node:crypto'
import { CursorCodec } from './cursors.js'

/** Deterministic hex of any length, derived from a label: the same fixtures on every run. */
export function hexOf(label: string, hexDigits: number): string {
  let out = ''
  for (let i = 0; out.length < hexDigits; i++) out += createHash('sha256').update(`${label}#${i}`).digest('hex')
  return out.slice(0, hexDigits)
}

const hash = (label: string) => `0x${hexOf(label, 64)}`
const address = (label: string) => `0x${hexOf(label, 40)}`
const uint = (label: string, digits: number) => String(BigInt(`0x${hexOf(label, digits)}`))

export interface IntentRecord {
  hash: string
  receipt: string
  status: Record<string, unknown>
  /** Accepted by the intent intake during this run (a write), not a fixture. */
  written?: boolean
}

/** An accepted write, kept under its operation's path and Idempotency-Key (src/reference/writes.ts). */
export interface StoredSubmission {
  /** sha256 of the body sent. */
  digest: string
  answer: Record<string, unknown>
}

export interface ReferenceData {
  apiKey: string
  restrictedApiKey: string
  trader: string
  /** A second trader with balances of other tokens. */
  secondTrader: string
  markets: Record<string, unknown>[]
  balances: Map<string, Record<string, unknown>[]>
  pnl: Map<string, Record<string, unknown>>
  vault: Record<string, unknown>
  checkpoint: string
  config: Record<string, unknown>
  intents: IntentRecord[]
  /** Accepted writes by operation path and Idempotency-Key (src/reference/writes.ts). */
  submissions: Map<string, StoredSubmission>
  /**
   * Signs and reads the list cursors; a fresh secret per server (one derived from the seed when given), so cursors are
   * not predictable from the data.
   */
  cursors: CursorCodec
}

export interface FixtureOverrides {
  apiKey?: string
  restrictedApiKey?: string
  receipts?: [string, string]
  /**
   * Derives the keys, receipts and cursor secret from this seed, so that a standalone server gives the same ones on
   * every start.
   */
  seed?: number
}

/**
 * Receipts holding characters that URL and JSON encoders write differently (a space, ~ ! ' ( ), /, + and =, a
 * multi-byte character): with them, a receipt disclosed in an encoded form no longer contains the raw receipt.
 */
export const RESERVED_CHARACTER_RECEIPTS: [string, string] = [
  `rcpt ${hexOf('receipt/a', 16)}~!'(a)/+=é`,
  `rcpt ${hexOf('receipt/b', 16)}~!'(b)/+=é`,
]

export const MARKET_COUNT = 42
export const BALANCE_COUNT = 31
export const SECOND_TRADER_BALANCE_COUNT = 12

export function wireOrder(label: string, trader: string): Record<string, unknown> {
  return {
    trader,
    sessionKey: address(`${label}/session`),
    nonce: uint(`${label}/nonce`, 6),
    deadline: String(1_900_000_000 + Number(uint(`${label}/deadline`, 4))),
    orderType: '1',
    marketId: '7',
    direction: '0',
    positionId: '0',
    qWad: uint(`${label}/q`, 15),
    marginTokens: uint(`${label}/margin`, 12),
    triggerPriceWad: uint(`${label}/trigger`, 15),
    limitPriceWad: uint(`${label}/limit`, 15),
    closeMode: '0',
    ocoGroup: hash(`${label}/oco`),
  }
}

export function buildReferenceData(overrides: FixtureOverrides = {}): ReferenceData {
  const trader = address('trader/1')
  const checkpoint = '19250000'
  const markets = Array.from({ length: MARKET_COUNT }, (_, i) => ({
    id: String(i + 1),
    clusterId: String(Math.floor(i / 6) + 1),
    oracleKey: hash(`market/${i}/oracle`),
    paused: i % 9 === 4,
    resolutionTimestamp: String(1_800_000_000 + i * 86_400),
    status: i % 9 === 4 ? 'paused' : 'active',
    updatedBlock: String(19_240_000 + i * 17),
    activationDepthWad: uint(`market/${i}/depth`, 15),
    lastTwapMidWad: uint(`market/${i}/twap`, 15),
    lastTwapTimestamp: String(1_763_000_000 + i * 60),
  }))
  const balances = Array.from({ length: BALANCE_COUNT }, (_, i) => ({
    account: trader,
    balance: i === 0 ? '0' : uint(`balance/${i}`, 14),
    token: address(`token/${i}`),
    updatedAt: String(1_763_100_000 + i * 13),
    updatedBlock: String(19_245_000 + i),
  }))
  const secondTrader = address('trader/2')
  const secondBalances = Array.from({ length: SECOND_TRADER_BALANCE_COUNT }, (_, i) => ({
    account: secondTrader,
    balance: uint(`trader/2/balance/${i}`, 14),
    token: address(`trader/2/token/${i}`),
    updatedAt: String(1_763_110_000 + i * 7),
    updatedBlock: String(19_246_000 + i),
  }))
  const intentA = hash('intent/with-every-member')
  const intentB = hash('intent/required-only')
  const seeded = (label: string, hexDigits: number) =>
    hexOf(overrides.seed === undefined ? label : `seed/${overrides.seed}/${label}`, hexDigits)
  const [receiptA, receiptB] = overrides.receipts ?? [
    `rcpt_${seeded('receipt/a', 40)}`,
    `rcpt_${seeded('receipt/b', 40)}`,
  ]
  return {
    apiKey: overrides.apiKey ?? `ipts_full_${seeded('key/full', 32)}`,
    restrictedApiKey: overrides.restrictedApiKey ?? `ipts_restricted_${seeded('key/restricted', 32)}`,
    trader,
    secondTrader,
    markets,
    balances: new Map([
      [trader, balances],
      [secondTrader, secondBalances],
    ]),
    pnl: new Map([
      [
        trader,
        {
          funding: {
            appliedPayerWad: '-1250000000000000000',
            receiverWad: '300000000000000000',
            requestedPayerWad: '-1250000000000000000',
          },
          positions: {
            cumulativeFundingPaidWad: '1250000000000000000',
            cumulativeFundingReceivedWad: '300000000000000000',
            cumulativePnlWad: '-4200000000000000000',
          },
          settlements: { haircutWad: '0', paidWad: '950000000000000000', realizedPnlWad: '-3250000000000000000' },
        },
      ],
    ]),
    vault: {
      id: 'vault',
      fundingReservedWad: uint('vault/reserved', 18),
      requiredBufferWad: uint('vault/buffer', 18),
      updatedAt: '1763200000',
      updatedBlock: checkpoint,
      updatedTransactionHash: hash('vault/tx'),
      cumulativeDepositedTokens: uint('vault/deposited', 16),
      cumulativeWithdrawnTokens: uint('vault/withdrawn', 15),
    },
    checkpoint,
    config: {
      interfaceVersion: '1.0.0',
      chainId: '8453',
      features: { intents: true, realtime: true },
      pagination: { defaultPageSize: 10, maxPageSize: 25 },
    },
    intents: [
      {
        hash: intentA,
        receipt: receiptA,
        status: {
          orderHash: intentA,
          state: 'failed',
          createdAt: '1763150000',
          updatedAt: '1763150420',
          order: wireOrder('intent/a', trader),
          reservedTokens: '0',
          failure: { code: 'slippage_exceeded', message: 'execution price outside the limit', retryable: false },
          settlement: { errorSelector: '0x8baa579f', positionId: '12', txHash: hash('intent/a/tx') },
          trigger: { priceWad: uint('intent/a/price', 15), blockNumber: '19249990', blockHash: hash('intent/a/block') },
        },
      },
      {
        hash: intentB,
        receipt: receiptB,
        status: {
          orderHash: intentB,
          state: 'pending',
          createdAt: '1763160000',
          updatedAt: '1763160000',
          order: wireOrder('intent/b', trader),
        },
      },
    ],
    submissions: new Map(),
    cursors: new CursorCodec(
      overrides.seed === undefined ? randomBytes(32).toString('hex') : seeded('cursor-secret', 64),
    ),
  }
}
