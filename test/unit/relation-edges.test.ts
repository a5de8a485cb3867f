import { describe, expect, test } from 'vitest'
import { checkpointOf, itemIdentity, relationRules } from '../../src/checks/relations.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'

/**
 * relations/trader-reads-agree at the edges of what it compares: the trader reads only, a 200 only, the same checkpoint
 * only, the address in any letter case.
 */

const rule = relationRules.find((r) => r.id === 'relations/trader-reads-agree')!
const TRADER = `0x${'cd'.repeat(20)}`
const PNL_PATH = `/v1/traders/${TRADER}/pnl`

/** What the memory says of each read in turn: null (nothing compared), 'agrees', or the finding. */
function compared(
  reads: { operation: string; path: string; status?: number; checkpoint?: string | null; data: unknown }[],
) {
  const memory = rule.remember()
  return reads.map(({ operation, path, status = 200, checkpoint = '100', data }) => {
    const response = responseOf(status, {}, { data, checkpoint })
    const verdict = memory.response!(response, exchangeOf(response, { operation, url: `http://127.0.0.1:9${path}` }))
    return verdict === null ? null : verdict === undefined ? 'agrees' : 'differs'
  })
}

describe('relations/trader-reads-agree', () => {
  test.each([
    ['getTraderPnl', PNL_PATH, { total: '1' }, { total: '2' }],
    [
      'listTraderBalances',
      `/v1/traders/${TRADER}/balances`,
      [{ token: 'a', balance: '1' }],
      [{ token: 'a', balance: '2' }],
    ],
  ])(
    '%s read again at the same checkpoint with other values differs; with the same, agrees',
    (operation, path, a, b) => {
      expect(
        compared([
          { operation, path, data: a },
          { operation, path, data: a },
        ]),
      ).toEqual([null, 'agrees'])
      expect(
        compared([
          { operation, path, data: a },
          { operation, path, data: b },
        ]),
      ).toEqual([null, 'differs'])
    },
  )

  test.each([
    ['getVault', '/v1/vault'],
    ['listMarkets', '/v1/markets'],
    ['getConfig', '/v1/config'],
  ])('%s is no trader read: never compared', (operation, path) => {
    const data = (n: string) => (operation === 'listMarkets' ? [{ id: 'm', n }] : { n })
    expect(
      compared([
        { operation, path, data: data('1') },
        { operation, path, data: data('2') },
      ]),
    ).toEqual([null, null])
  })

  test('only a 200 is compared', () => {
    for (const status of [201, 203, 299])
      expect(
        compared([
          { operation: 'getTraderPnl', path: PNL_PATH, data: { total: '1' } },
          { operation: 'getTraderPnl', path: PNL_PATH, status, data: { total: '2' } },
        ]),
        `status ${status}`,
      ).toEqual([null, null])
  })

  test('another checkpoint is no comparison; the address in another letter case is the same trader', () => {
    expect(
      compared([
        { operation: 'getTraderPnl', path: PNL_PATH, data: { total: '1' } },
        { operation: 'getTraderPnl', path: PNL_PATH, checkpoint: '101', data: { total: '2' } },
      ]),
    ).toEqual([null, null])
    expect(
      compared([
        { operation: 'getTraderPnl', path: PNL_PATH, data: { total: '1' } },
        { operation: 'getTraderPnl', path: `/v1/traders/0x${'CD'.repeat(20)}/pnl`, data: { total: '2' } },
      ]),
    ).toEqual([null, 'differs'])
  })
})

describe('relations/trader-reads-agree, item by item', () => {
  const BALANCES = `/v1/traders/${TRADER}/balances`

  test("an item first read is a baseline that hides no other item's difference", () => {
    expect(
      compared([
        { operation: 'listTraderBalances', path: BALANCES, data: [{ token: 'a', balance: '1' }] },
        {
          operation: 'listTraderBalances',
          path: BALANCES,
          data: [
            { token: 'c', balance: '1' },
            { token: 'a', balance: '2' },
          ],
        },
      ]),
    ).toEqual([null, 'differs'])
  })

  test('a read without a checkpoint is not compared', () => {
    const read = { operation: 'getTraderPnl', path: PNL_PATH, checkpoint: null }
    expect(
      compared([
        { ...read, data: { total: '1' } },
        { ...read, data: { total: '2' } },
      ]),
    ).toEqual([null, null])
  })
})

describe("a list item's identity and a response's checkpoint", () => {
  test("an item is told by its list's identity member where that is a string, else by itself as JSON", () => {
    expect(itemIdentity('listMarkets', { id: 'm1', status: 'open' })).toBe('m1')
    expect(itemIdentity('listTraderBalances', { token: 't1', id: 'm1' })).toBe('t1')
    expect(itemIdentity('listMarkets', { id: 5 })).toBe('{"id":5}')
    expect(itemIdentity('listMarkets', { token: 't1' })).toBe('{"token":"t1"}')
    expect(itemIdentity('listMarkets', null)).toBe('null')
  })

  test('an item of an operation with no identity member is itself as JSON, whatever members it has', () => {
    const item = { '': 'a', undefined: 'b', id: 'c', token: 'd' }
    expect(itemIdentity('getVault', item)).toBe(JSON.stringify(item))
  })

  test('a checkpoint is a string member of a JSON object', () => {
    expect(checkpointOf(responseOf(200, {}, { checkpoint: '7', data: {} }))).toBe('7')
    expect(checkpointOf(responseOf(200, {}, { checkpoint: 7 }))).toBeUndefined()
    expect(checkpointOf(responseOf(200, {}, null))).toBeUndefined()
    expect(checkpointOf(responseOf(200))).toBeUndefined()
  })
})
