import { describe, expect, test } from 'vitest'
import { relationRules, type ListWalk } from '../../src/checks/relations.js'
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
