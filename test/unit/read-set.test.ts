import { describe, expect, test } from 'vitest'
import { inCase, pageSizesOf, readSet, roundsPerTurn, variantOf, type Read } from '../../src/engine/read-set.js'
import type { RunSettings } from '../../src/core/settings.js'
import type { Profile } from '../../src/profile/profile.js'

const HASH = `0x${'aB'.repeat(32)}`
const SECOND_HASH = `0x${'cD'.repeat(32)}`
const TRADER = `0x${'eF'.repeat(20)}`
const SECOND_TRADER = `0x${'a1'.repeat(20)}`
const JSON_ACCEPTED = { accept: 'application/json' }

/** A profile that bounds the page sizes of these lists: 1 to 100 (1, 50 and 100 in range). */
function pagedProfile(...lists: ('listMarkets' | 'listTraderBalances')[]): Profile {
  const rule = { minPageSize: 1, maxPageSize: 100, outOfRange: 'reject' as const }
  return { source: 'test', values: { pagination: Object.fromEntries(lists.map((list) => [list, rule])) } }
}

const settingsOf = (given: Partial<RunSettings>) => given as RunSettings

/** A read as [operation, path, query string, page size, walk, key, request ID]: one line to compare per read. */
const shown = (read: Read) => [
  read.operation,
  read.path,
  new URLSearchParams(read.query).toString(),
  read.pageSize,
  read.walk,
  read.headers['x-api-key'],
  read.headers['x-request-id'],
]

describe('the rounds of one turn of the inputs', () => {
  test('three without a profile: each letter case once', () => {
    expect(roundsPerTurn({})).toBe(3)
    expect(roundsPerTurn({ profile: { source: 'test', values: {} } })).toBe(3)
  })

  test.each([['listMarkets'], ['listTraderBalances']] as const)(
    "four when the profile bounds %s's page sizes: its own and three in range",
    (list) => expect(roundsPerTurn({ profile: pagedProfile(list) })).toBe(4),
  )
})

describe("a round's variant", () => {
  test.each([
    [1, { letterCase: 'as given', requestId: false, pageSize: 0, restricted: false }],
    [2, { letterCase: 'lower', requestId: true, pageSize: 1, restricted: true }],
    [3, { letterCase: 'upper', requestId: false, pageSize: 2, restricted: true }],
    [4, { letterCase: 'as given', requestId: true, pageSize: 3, restricted: true }],
    [5, { letterCase: 'lower', requestId: false, pageSize: 4, restricted: true }],
  ])('round %i', (round, variant) => expect(variantOf(round)).toEqual(variant))
})

describe('a hash in a letter case', () => {
  test.each([
    ['as given', '0xAbCd'],
    ['lower', '0xabcd'],
    ['upper', '0xABCD'],
  ] as const)('%s: the 0x prefix stays as it is', (letterCase, written) =>
    expect(inCase('0xAbCd', letterCase)).toBe(written),
  )
})

describe("a list's page sizes", () => {
  test("only the list's own without a profile, without pagination, or without this list's bounds", () => {
    expect(pageSizesOf({}, 'listMarkets')).toEqual([undefined])
    expect(pageSizesOf({ profile: { source: 'test', values: {} } }, 'listMarkets')).toEqual([undefined])
    expect(pageSizesOf({ profile: pagedProfile('listTraderBalances') }, 'listMarkets')).toEqual([undefined])
  })

  test("the list's own, then the least, one between and the most the profile states", () => {
    expect(pageSizesOf({ profile: pagedProfile('listMarkets') }, 'listMarkets')).toEqual([undefined, '1', '50', '100'])
  })
})

describe('the read set of a round', () => {
  const everything = settingsOf({
    apiKey: 'full-key',
    restrictedApiKey: 'restricted-key',
    intent: { hash: HASH, receipt: 'Receipt-One' },
    secondIntent: { hash: SECOND_HASH, receipt: 'Receipt-Two' },
    trader: TRADER,
    secondTrader: SECOND_TRADER,
    profile: pagedProfile('listMarkets', 'listTraderBalances'),
  })

  test('round 1: every operation with the full key as given, each list walked in its own size and the largest', () => {
    const reads = readSet(everything, 1)
    expect(reads.map(shown)).toEqual([
      ['getConfig', '/v1/config', '', undefined, false, 'full-key', undefined],
      ['getVault', '/v1/vault', '', undefined, false, 'full-key', undefined],
      ['getIntentStatus', `/v1/intents/${HASH}`, 'receipt=Receipt-One', undefined, false, 'full-key', undefined],
      ['getIntentStatus', `/v1/intents/${SECOND_HASH}`, 'receipt=Receipt-Two', undefined, false, 'full-key', undefined],
      ['getTraderPnl', `/v1/traders/${TRADER}/pnl`, '', undefined, false, 'full-key', undefined],
      ['getTraderPnl', `/v1/traders/${SECOND_TRADER}/pnl`, '', undefined, false, 'full-key', undefined],
      ['listMarkets', '/v1/markets', '', undefined, true, 'full-key', undefined],
      ['listMarkets', '/v1/markets', '', '100', true, 'full-key', undefined],
      ['listTraderBalances', `/v1/traders/${TRADER}/balances`, '', undefined, true, 'full-key', undefined],
      ['listTraderBalances', `/v1/traders/${TRADER}/balances`, '', '100', true, 'full-key', undefined],
      ['listTraderBalances', `/v1/traders/${SECOND_TRADER}/balances`, '', undefined, true, 'full-key', undefined],
      ['listTraderBalances', `/v1/traders/${SECOND_TRADER}/balances`, '', '100', true, 'full-key', undefined],
    ])
    for (const read of reads) expect(read.headers, read.path).toEqual({ ...JSON_ACCEPTED, 'x-api-key': 'full-key' })
    expect('pageSize' in reads[6]!, "a walk in the list's own size names no page size").toBe(false)
  })

  test('round 2: hashes and addresses in lower case, the next page size, the restricted key on first pages, IDs', () => {
    const lower = (hex: string) => hex.toLowerCase()
    const full = [
      ['getConfig', '/v1/config', '', undefined, false],
      ['getVault', '/v1/vault', '', undefined, false],
      ['getIntentStatus', `/v1/intents/${lower(HASH)}`, 'receipt=Receipt-One', undefined, false],
      ['getIntentStatus', `/v1/intents/${lower(SECOND_HASH)}`, 'receipt=Receipt-Two', undefined, false],
      ['getTraderPnl', `/v1/traders/${lower(TRADER)}/pnl`, '', undefined, false],
      ['getTraderPnl', `/v1/traders/${lower(SECOND_TRADER)}/pnl`, '', undefined, false],
      ['listMarkets', '/v1/markets', '', '1', true],
      ['listTraderBalances', `/v1/traders/${lower(TRADER)}/balances`, '', '1', true],
      ['listTraderBalances', `/v1/traders/${lower(SECOND_TRADER)}/balances`, '', '1', true],
    ]
    const restricted = [
      ...full.slice(0, 6),
      ['listMarkets', '/v1/markets', '', undefined, false],
      ['listTraderBalances', `/v1/traders/${lower(TRADER)}/balances`, '', undefined, false],
      ['listTraderBalances', `/v1/traders/${lower(SECOND_TRADER)}/balances`, '', undefined, false],
    ]
    const expected = [
      ...full.map((read) => [...read, 'full-key']),
      ...restricted.map((read) => [...read, 'restricted-key']),
    ].map((read, i) => [...read, `ipts-round-2-read-${i + 1}`])
    expect(readSet(everything, 2).map(shown)).toEqual(expected)
  })

  test('round 3: upper case, the page size after, no IDs; round 4 and 5 turn to the largest, then back to their own', () => {
    const round3 = readSet(everything, 3)
    expect(round3[2]!.path).toBe(`/v1/intents/0x${HASH.slice(2).toUpperCase()}`)
    expect(round3[4]!.path).toBe(`/v1/traders/0x${TRADER.slice(2).toUpperCase()}/pnl`)
    expect(round3.every((read) => read.headers['x-request-id'] === undefined)).toBe(true)
    const walks = (round: number) => readSet(everything, round).filter((read) => read.walk)
    expect(walks(3).map((read) => read.pageSize)).toEqual(['50', '50', '50'])
    expect(walks(4).map((read) => read.pageSize)).toEqual(['100', '100', '100'])
    expect(walks(5).map((read) => read.pageSize)).toEqual([undefined, undefined, undefined])
  })

  test('without a profile the first round walks each list twice in its own size, later rounds once', () => {
    const plain = settingsOf({ apiKey: 'full-key' })
    expect(readSet(plain, 1).map((read) => [read.operation, read.pageSize])).toEqual([
      ['getConfig', undefined],
      ['getVault', undefined],
      ['listMarkets', undefined],
      ['listMarkets', undefined],
    ])
    expect(readSet(plain, 2).map((read) => [read.operation, read.pageSize])).toEqual([
      ['getConfig', undefined],
      ['getVault', undefined],
      ['listMarkets', undefined],
    ])
  })

  test('reads only the intents and traders given: a second one alone is read', () => {
    const reads = readSet(
      settingsOf({ apiKey: 'k', secondIntent: { hash: SECOND_HASH, receipt: 'r' }, secondTrader: SECOND_TRADER }),
      1,
    )
    expect(reads.map((read) => read.path)).toEqual([
      '/v1/config',
      '/v1/vault',
      `/v1/intents/${SECOND_HASH}`,
      `/v1/traders/${SECOND_TRADER}/pnl`,
      '/v1/markets',
      '/v1/markets',
      `/v1/traders/${SECOND_TRADER}/balances`,
      `/v1/traders/${SECOND_TRADER}/balances`,
    ])
  })

  test('without the full key only the restricted key reads, from round 2; with neither key nothing is read', () => {
    const restrictedOnly = settingsOf({ restrictedApiKey: 'restricted-key' })
    expect(readSet(restrictedOnly, 1)).toEqual([])
    expect(readSet(restrictedOnly, 2).map(shown)).toEqual([
      ['getConfig', '/v1/config', '', undefined, false, 'restricted-key', 'ipts-round-2-read-1'],
      ['getVault', '/v1/vault', '', undefined, false, 'restricted-key', 'ipts-round-2-read-2'],
      ['listMarkets', '/v1/markets', '', undefined, false, 'restricted-key', 'ipts-round-2-read-3'],
    ])
    expect(readSet(settingsOf({}), 2)).toEqual([])
    expect(
      readSet(settingsOf({ apiKey: 'full-key' }), 2).map((read) => read.headers['x-api-key']),
      'no restricted key given: the full key alone',
    ).toEqual(['full-key', 'full-key', 'full-key'])
  })
})
