import { describe, expect, test } from 'vitest'
import { membersOf, relationRules, REQUEST_IDS_REMEMBERED, type ListWalk } from '../../src/checks/relations.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'

/**
 * The relation rules at the edges of what they compare: which x-request-ids count as the server's own, where two walks
 * of a list part, and how many members a difference names.
 */

const ruleOf = (id: string) => relationRules.find((rule) => rule.id === id)!

/** What the memory of a rule says of each response in turn: null (nothing to judge), 'holds', or the finding. */
function judged(
  id: string,
  responses: { headers: Record<string, string | string[]>; sent?: string; json?: unknown }[],
) {
  const memory = ruleOf(id).remember()
  return responses.map(({ headers, sent, json = { data: [] } }) => {
    const response = responseOf(200, headers, json)
    const exchange = exchangeOf(response, {
      headers: { accept: 'application/json', ...(sent === undefined ? {} : { 'x-request-id': sent }) },
    })
    const verdict = memory.response!(response, exchange)
    return verdict === null ? null : verdict === undefined ? 'holds' : verdict
  })
}

describe('relations/request-id-unique', () => {
  const UNIQUE = 'relations/request-id-unique'

  test('an ID given twice to requests that sent none breaks it; given once, it holds', () => {
    expect(
      judged(UNIQUE, [{ headers: { 'x-request-id': 'srv-1' } }, { headers: { 'x-request-id': 'srv-2' } }]),
    ).toEqual(['holds', 'holds'])
    expect(
      judged(UNIQUE, [{ headers: { 'x-request-id': 'srv-1' } }, { headers: { 'x-request-id': 'srv-1' } }]),
    ).toEqual([
      'holds',
      'x-request-id "srv-1" was carried by an earlier response too, to a request that did not send the same X-Request-ID',
    ])
  })

  test('an ID echoed from the request is the client’s, not the server’s: nothing to judge, however often', () => {
    const echoed = { headers: { 'x-request-id': 'client-7' }, sent: 'client-7' }
    expect(judged(UNIQUE, [echoed, echoed])).toEqual([null, null])
  })

  test('an ID the client sent in other capitals is the server’s own: given again to a request that sent none, it breaks', () => {
    const lowered = { headers: { 'x-request-id': 'client-7' }, sent: 'Client-7' }
    expect(judged(UNIQUE, [lowered, { headers: { 'x-request-id': 'client-7' } }])).toEqual([
      'holds',
      'x-request-id "client-7" was carried by an earlier response too, to a request that did not send the same X-Request-ID',
    ])
  })

  test('a response with two x-request-id values, or an empty one, has no ID of its own to judge', () => {
    const twice = { headers: { 'x-request-id': ['srv-1', 'srv-2'] } }
    expect(judged(UNIQUE, [twice, twice])).toEqual([null, null])
    expect(judged(UNIQUE, [{ headers: { 'x-request-id': '' } }])).toEqual([null])
  })

  test('the same ID derived from the same sent ID holds; from another sent ID, or none, it breaks', () => {
    const derived = (sent: string | undefined) => ({ headers: { 'x-request-id': 'derived' }, sent })
    expect(judged(UNIQUE, [derived('a'), derived('a')])).toEqual(['holds', 'holds'])
    expect(judged(UNIQUE, [derived('a'), derived('b')])[1]).toMatch(/^x-request-id "derived" was carried by an earlier/)
    expect(judged(UNIQUE, [derived(undefined), derived('a')])[1]).toMatch(/^x-request-id "derived" was carried/)
  })
})

describe('relations/same-resource-same-members', () => {
  test('a difference names four members at most, and says there are more only past four', () => {
    const resource = (members: string[]) => ({
      headers: {},
      json: { checkpoint: '9', data: Object.fromEntries(members.map((member) => [member, 1])) },
    })
    const differs = (count: number) => {
      const lost = Array.from({ length: count }, (_, i) => `m${i}`)
      return judged('relations/same-resource-same-members', [resource([...lost, 'kept']), resource(['kept'])])[1]
    }
    expect(differs(4)).toBe(
      'listMarkets /v1/markets read again at checkpoint "9" came without /data/m0 number, /data/m1 number, /data/m2 number, /data/m3 number',
    )
    expect(differs(5)).toMatch(/came without \/data\/m0 number, .*, \/data\/m3 number, \.\.\.$/)
  })

  test("a list is compared item by item: an item first read is a baseline that hides no other item's difference", () => {
    const list = (...data: unknown[]) => ({ headers: {}, json: { checkpoint: '9', data } })
    expect(
      judged('relations/same-resource-same-members', [
        list({ id: 'a', x: 1 }),
        list({ id: 'c', x: 1 }, { id: 'a', y: 1 }),
        list({ id: 'c', x: 2 }, { id: 'a', x: 2 }),
      ]),
    ).toEqual([
      null,
      'listMarkets /v1/markets item a read again at checkpoint "9" came without /x number and with /y number',
      'holds',
    ])
  })

  test('compares the reads of an operation of the contract only: a path of none is not compared', () => {
    const readsOf = (operation: string | undefined) => {
      const memory = ruleOf('relations/same-resource-same-members').remember()
      return [{ a: 1 }, { b: 1 }].map((data) => {
        const response = responseOf(200, {}, { checkpoint: '9', data })
        return memory.response!(response, exchangeOf(response, { operation, url: 'http://127.0.0.1:9/v1/vault' }))
      })
    }
    expect(readsOf(undefined)).toEqual([null, null])
    expect(readsOf('getVault')).toEqual([
      null,
      'getVault /v1/vault read again at checkpoint "9" came without /data/a number and with /data/b number',
    ])
  })
  test('reads without a checkpoint are not compared: nothing says they are of one state', () => {
    const read = (data: unknown) => ({ headers: {}, json: { data } })
    expect(judged('relations/same-resource-same-members', [read({ a: 1 }), read({ b: 1 })])).toEqual([null, null])
  })
})

describe('what the relations remember and compare', () => {
  test('the request IDs remembered are the 100,000 most recent (docs/checks.md)', () => {
    expect(REQUEST_IDS_REMEMBERED).toBe(100_000)
  })

  test('a member is named by its JSON pointer, ~ and / escaped', () => {
    expect([...membersOf({ 'a~b': 1, 'c/d': 'x', e: [{ f: null }] })]).toEqual([
      '/a~0b number',
      '/c~1d string',
      '/e array',
      '/e/*/f null',
    ])
  })

  test('a resource read at another checkpoint is a new baseline, not a comparison', () => {
    const at = (checkpoint: string, data: unknown) => ({ headers: {}, json: { checkpoint, data } })
    expect(
      judged('relations/same-resource-same-members', [at('9', { a: 1 }), at('10', { b: 1 }), at('10', { b: 2 })]),
    ).toEqual([null, null, 'holds'])
  })

  test('values that differ are quoted up to 200 characters of their JSON', () => {
    const memory = ruleOf('relations/trader-reads-agree').remember()
    const read = (data: unknown) => {
      const response = responseOf(200, {}, { data, checkpoint: '7' })
      const url = `http://127.0.0.1:9/v1/traders/0x${'ab'.repeat(20)}/pnl`
      return memory.response!(response, exchangeOf(response, { operation: 'getTraderPnl', url }))
    }
    const long = { total: 'x'.repeat(300) }
    expect(read({ total: '1' })).toBeNull()
    expect(read(long)).toBe(
      `getTraderPnl /v1/traders/0x${'ab'.repeat(20)}/pnl read again at checkpoint "7" has other values: ${JSON.stringify(long).slice(0, 200)}`,
    )
  })
})

describe('relations/list-walks-agree', () => {
  const walk = (identities: string[], pageSize?: string): ListWalk => ({
    operation: 'listMarkets',
    resource: 'GET /v1/markets',
    ...(pageSize === undefined ? {} : { pageSize }),
    first: exchangeOf(responseOf(200)),
    identities,
    checkpoint: '9',
    complete: true,
  })
  const walked = (walks: ListWalk[]) => {
    const memory = ruleOf('relations/list-walks-agree').remember()
    return walks.map((w) => memory.walk!(w))
  }

  test('a walk that yields an item twice breaks it; one cut short is not judged', () => {
    expect(walked([walk(['a', 'b', 'a'])])).toEqual([
      'a walk of GET /v1/markets in the list\'s own page size yields "a" twice',
    ])
    expect(walked([{ ...walk(['a', 'a']), complete: false }])).toEqual([null])
    expect(walked([walk(['a', 'b']), { ...walk(['b', 'a']), complete: false }])).toEqual([null, null])
  })

  test('a walk at another checkpoint is a new baseline, not a comparison', () => {
    expect(
      walked([walk(['a', 'b']), { ...walk(['b', 'a']), checkpoint: '10' }, { ...walk(['b']), checkpoint: '10' }]),
    ).toEqual([
      null,
      null,
      expect.stringMatching(/at checkpoint "10" differs .*: item 2 is the end of the list where it was "a"/),
    ])
  })

  test('a second walk of as many items in another order parts at the first item that differs', () => {
    expect(walked([walk(['a', 'b', 'c']), walk(['a', 'c', 'b'], '1')])[1]).toMatch(
      /: item 2 is "c" where it was "b" \(3 items, were 3\)$/,
    )
  })

  test('walks without a checkpoint are not compared', () => {
    const unmarked = (identities: string[]) => ({ ...walk(identities), checkpoint: undefined })
    expect(walked([unmarked(['a', 'b']), unmarked(['b'])])).toEqual([null, null])
  })

  test('the same items in the same order hold; a second walk with one item more, or one fewer, parts at the end', () => {
    expect(walked([walk(['a', 'b']), walk(['a', 'b'], '1')])).toEqual([null, undefined])
    expect(walked([walk(['a', 'b']), walk(['a', 'b', 'c'], '1')])[1]).toBe(
      'a walk of GET /v1/markets in pages of 1 at checkpoint "9" differs from one in the list\'s own page size: item 3 is "c" where it was the end of the list (3 items, were 2)',
    )
    expect(walked([walk(['a', 'b', 'c']), walk(['a', 'b'], '1')])[1]).toMatch(
      /: item 3 is the end of the list where it was "c" \(2 items, were 3\)$/,
    )
  })
})
