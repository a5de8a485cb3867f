import { describe, expect, test } from 'vitest'
import type { ListWalk } from '../../src/checks/relations.js'
import { RelationTally } from '../../src/engine/relations.js'
import { RUN_INTERRUPTED } from '../../src/http/client.js'
import type { Exchange } from '../../src/http/exchange.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'

const REQUEST_ID_RULE = 'relations/request-id-unique'
const WALKS_RULE = 'relations/list-walks-agree'
const SECRET = { value: 'secret-request-id-0123', placeholder: '$IPTS_API_KEY' }

const carrying = (requestId: string) => responseOf(200, { 'x-request-id': requestId }, {})
const answeredWith = (requestId: string, extra: Partial<Exchange> = {}): Exchange => ({
  ...exchangeOf(carrying(requestId)),
  ...extra,
})
const requestIdSeen = (tally: RelationTally) => tally.observations()[REQUEST_ID_RULE]!

describe('RelationTally.responses', () => {
  test('a request ID given twice is a violation of the second sample, counted once per relation', () => {
    const tally = new RelationTally(() => [])
    tally.responses([answeredWith('a'), answeredWith('b')], { round: 0 })
    expect(tally.violations()).toBe(0)
    expect(tally.violatedRules()).toBe(0)
    tally.responses([answeredWith('a')], { round: 1 }, 'auth/check')
    expect(requestIdSeen(tally)).toMatchObject({ applied: 3, violated: 1 })
    expect(tally.violations()).toBe(1)
    expect(tally.violatedRules()).toBe(1)
    const evidence = requestIdSeen(tally).violations[0]!
    expect(evidence.sentBy).toBe('auth/check')
    expect(evidence.sample?.round).toBe(1)
  })

  test('a retried attempt is a sample too, before the answer', () => {
    const tally = new RelationTally(() => [])
    tally.responses([answeredWith('a', { retries: [{ response: carrying('a') }] as never })], { round: 0 })
    expect(requestIdSeen(tally)).toMatchObject({ applied: 2, violated: 1 })
  })

  test('an exchange of no operation, one the run cut off and an unjudged response are no samples', () => {
    const tally = new RelationTally(() => [])
    const cut = {
      ...exchangeOf(undefined),
      error: { code: RUN_INTERRUPTED, message: 'interrupted' },
      retries: [{ response: carrying('a') }],
    } as unknown as Exchange
    tally.responses(
      [
        answeredWith('a', { operation: undefined }),
        cut,
        exchangeOf({ ...carrying('a'), notJudged: 'a redirect' }),
        answeredWith('a'),
      ],
      { round: 0 },
    )
    expect(requestIdSeen(tally)).toMatchObject({ applied: 1, violated: 0 })
  })

  test('an exchange that failed otherwise still shows its retried attempts', () => {
    const tally = new RelationTally(() => [])
    const failed = {
      ...exchangeOf(undefined),
      error: { code: 'ECONNRESET', message: 'reset' },
      retries: [{ response: carrying('a') }, { status: 500 }],
    } as unknown as Exchange
    tally.responses([failed, answeredWith('a')], { round: 0 })
    expect(requestIdSeen(tally)).toMatchObject({ applied: 2, violated: 1 })
    expect(requestIdSeen(tally), 'an attempt without a response is no sample').not.toHaveProperty('crash')
  })

  test('evidence is kept for the first three violations; each sample without a time is stamped now', () => {
    const tally = new RelationTally(() => [])
    const before = new Date().toISOString()
    tally.responses(
      ['a', 'a', 'a', 'a', 'a'].map((id) => answeredWith(id)),
      { round: 2 },
    )
    expect(requestIdSeen(tally)).toMatchObject({ applied: 5, violated: 4 })
    expect(tally.violations()).toBe(4)
    expect(requestIdSeen(tally).violations.length).toBe(3)
    const evidence = requestIdSeen(tally).violations[0]!
    const { sample } = evidence
    expect(evidence).not.toHaveProperty('sentBy')
    expect(evidence.request?.url, 'the evidence shows the exchange').toBe('http://127.0.0.1:9/v1/markets')
    expect(sample!.round).toBe(2)
    expect(sample!.at >= before && sample!.at <= new Date().toISOString()).toBe(true)
  })

  test("a sample's own time is its evidence's", () => {
    const tally = new RelationTally(() => [])
    const at = '2026-11-26T20:00:00.000Z'
    tally.responses([answeredWith('a'), answeredWith('a', { startedAt: at } as Partial<Exchange>)], { round: 3 })
    expect(requestIdSeen(tally).violations[0]!.sample).toEqual({ round: 3, at })
  })

  test('evidence is redacted with the secrets known then, and again with those given later', () => {
    const known = new RelationTally(() => [SECRET])
    known.responses([answeredWith(SECRET.value), answeredWith(SECRET.value)], { round: 0 })
    expect(JSON.stringify(requestIdSeen(known).violations)).not.toContain(SECRET.value)
    const later = new RelationTally(() => [])
    later.responses([answeredWith(SECRET.value), answeredWith(SECRET.value)], { round: 0 })
    expect(JSON.stringify(requestIdSeen(later).violations)).toContain(SECRET.value)
    later.redactKept([SECRET])
    expect(JSON.stringify(requestIdSeen(later).violations)).not.toContain(SECRET.value)
    expect(JSON.stringify(requestIdSeen(later).violations)).toContain(SECRET.placeholder)
  })
})

describe('a relation that throws', () => {
  test('is a crash, the first kept, and counts as a relation that has shown a violation', () => {
    const tally = new RelationTally(() => [])
    const headless = { ...exchangeOf(responseOf(200)), response: { status: 200 } } as unknown as Exchange
    tally.responses([headless, headless], { round: 0 })
    expect(requestIdSeen(tally).crash).toMatch(/^TypeError: /)
    expect(requestIdSeen(tally)).toMatchObject({ applied: 0, violated: 0 })
    expect(tally.violatedRules()).toBe(1)
    expect(tally.violations()).toBe(0)
  })
})

describe('a crash that names a secret', () => {
  test('is redacted with the secrets given later, as the evidence is', () => {
    const tally = new RelationTally(() => [])
    const sent = answeredWith('srv-1')
    const headers = {
      get 'x-request-id'(): string {
        throw new Error(`unreadable header ${SECRET.value}`)
      },
    }
    tally.responses([{ ...sent, request: { ...sent.request, headers } as never }], { round: 0 })
    expect(requestIdSeen(tally).crash).toContain(SECRET.value)
    tally.redactKept([SECRET])
    expect(requestIdSeen(tally).crash).not.toContain(SECRET.value)
    expect(requestIdSeen(tally).crash).toContain(`unreadable header ${SECRET.placeholder}`)
  })
})

describe('RelationTally.walk', () => {
  const walkOf = (identities: string[]): ListWalk => ({
    operation: 'listMarkets',
    resource: 'listMarkets /v1/markets',
    first: exchangeOf(responseOf(200, {}, {})),
    identities,
    checkpoint: 'c1',
    complete: true,
  })

  test('two walks at one checkpoint that differ are a violation of the walks relation alone', () => {
    const tally = new RelationTally(() => [])
    tally.walk(walkOf(['m1', 'm2']), { round: 1 }, 'sweep')
    tally.walk(walkOf(['m2', 'm1']), { round: 2 }, 'sweep')
    const seen = tally.observations()[WALKS_RULE]!
    expect(seen).toMatchObject({ applied: 1, violated: 1 })
    expect(seen.violations[0]!.sentBy).toBe('sweep')
    expect(requestIdSeen(tally), 'a walk is no response').toMatchObject({ applied: 0, violated: 0 })
    expect(tally.violatedRules()).toBe(1)
  })
})
