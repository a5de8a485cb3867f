import { describe, expect, test } from 'vitest'
import { relationRules } from '../../src/checks/relations.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'

/**
 * relations/trader-reads-agree at the edges of what it compares: the trader reads only, a 200 only, the same checkpoint
 * only, the address in any letter case.
 */

const rule = relationRules.find((r) => r.id === 'relations/trader-reads-agree')!
const TRADER = `0x${'cd'.repeat(20)}`
const PNL_PATH = `/v1/traders/${TRADER}/pnl`

/** What the memory says of each read in turn: null (nothing compared), 'agrees', or the finding. */
function compared(reads: { operation: string; path: string; status?: number; checkpoint?: string; data: unknown }[]) {
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
