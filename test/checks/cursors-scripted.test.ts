import { describe, expect, test } from 'vitest'
import { cursorsChecks, otherTrader } from '../../src/checks/cursors.js'
import type { Check } from '../../src/checks/types.js'
import type { RunSettings } from '../../src/core/settings.js'
import type { Exchange } from '../../src/http/exchange.js'
import { responseOf } from '../support/hand-made.js'
import { rejectionOf, scriptedContext, verdictOfRun, type Call } from '../support/check-context.js'

const check = (id: string): Check => cursorsChecks.find((c) => c.id === id)!

/** A check's verdict on scripted answers, and the calls it made. */
async function judged(id: string, answer: (call: Call) => Exchange['response'], settings: Partial<RunSettings> = {}) {
  const { ctx, calls } = scriptedContext({ apiKey: 'k', maxPages: 10, ...settings }, answer)
  return { verdict: await verdictOfRun(check(id).run(ctx)), calls }
}

const page = (ids: string[], cursor: string | null) => responseOf(200, {}, { data: ids.map((id) => ({ id })), cursor })
const queryOf = (call: Call) => call.options?.query ?? {}

describe('the first pages of a list', () => {
  test('a whole list of three items on one page is asked again for two, half rounded up', async () => {
    const { calls } = await judged('cursors/markets-walk-ends', (call) =>
      queryOf(call).limit === '2'
        ? page(['a', 'b'], queryOf(call).cursor === undefined ? 'next' : null)
        : queryOf(call).cursor === 'next'
          ? page(['c'], null)
          : page(['a', 'b', 'c'], null),
    )
    expect(calls.map((call) => queryOf(call))).toEqual([{}, { limit: '2' }, { limit: '2', cursor: 'next' }])
  })

  test('pages of one item where the first cursor gives the first page again: the cursor is ignored', async () => {
    const { verdict } = await judged('cursors/markets-walk-ends', () => page(['a'], 'next'))
    expect(verdict).toBe(
      'CheckSkipped: listMarkets ignores ?cursor= (its first cursor sent there gave the first page again) — set --cursor-param (the contract does not show its name)',
    )
  })
})

describe('cursors/issued-cursor-opaque', () => {
  test('a cursor that starts with digits but is not all digits is no bare integer', async () => {
    const answer = (call: Call) => (queryOf(call).cursor === undefined ? page(['a'], '12ab') : page(['b'], null))
    expect((await judged('cursors/issued-cursor-opaque', answer)).verdict).toBe('passed')
    const integer = (call: Call) => (queryOf(call).cursor === undefined ? page(['a'], '-12') : page(['b'], null))
    expect((await judged('cursors/issued-cursor-opaque', integer)).verdict).toBe(
      'CheckFailure: cursor is not opaque: listMarkets issued "-12", a bare integer, which a client could build',
    )
  })
})

describe('cursors/hand-built-cursor-refused', () => {
  test("the coverage cases send the identifiers of the first page's first three items", async () => {
    const answer = (call: Call) => {
      const cursor = queryOf(call).cursor
      if (cursor === undefined) return page(['a', 'b', 'c', 'd'], 'next')
      return cursor === 'next' ? page(['e'], null) : responseOf(400, {}, { error: 'bad cursor', code: 'bad_cursor' })
    }
    const { verdict, calls } = await judged('cursors/hand-built-cursor-refused', answer, { runs: 0 })
    expect(verdict).toBe('passed')
    const sent = calls.map((call) => queryOf(call).cursor)
    expect(sent).toEqual(expect.arrayContaining(['a', 'b', 'c']))
    expect(sent).not.toContain('d')
  })
})

describe('cursors/items-unique', () => {
  test('an item whose id is no string is told by its whole value', async () => {
    const answer = (call: Call) =>
      queryOf(call).cursor === undefined
        ? responseOf(200, {}, { data: [{ id: 5 }], cursor: 'next' })
        : responseOf(200, {}, { data: [{ id: 5 }, { id: 6 }], cursor: null })
    expect((await judged('cursors/items-unique', answer)).verdict).toBe(
      'CheckFailure: page 2 of listMarkets repeats the market with id {"id":5}, already met in the walk',
    )
  })
})

describe('otherTrader', () => {
  test('--second-trader that is the configured trader in another letter case is no other trader', async () => {
    const trader = `0x${'ab'.repeat(20)}`
    const { ctx } = scriptedContext({ trader, secondTrader: trader.toUpperCase().replace('0X', '0x') }, () => undefined)
    expect(((await rejectionOf(otherTrader(ctx))) as Error).message).toMatch(/^no other trader is known: /)
    const { ctx: another } = scriptedContext({ trader, secondTrader: `0x${'cd'.repeat(20)}` }, () => undefined)
    expect(await otherTrader(another)).toBe(`0x${'cd'.repeat(20)}`)
  })
})
