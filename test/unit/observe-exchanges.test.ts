import { describe, expect, test } from 'vitest'
import type { ExchangeJudge, Finding } from '../../src/checks/exchange-judge.js'
import type { RequirementId } from '../../src/contract/catalogue-ids.js'
import { observe } from '../../src/engine/observations.js'
import type { ResponsesSeen } from '../../src/engine/responses-seen.js'
import type { Exchange, ExchangeResponse } from '../../src/http/exchange.js'
import { standIn } from '../../src/http/listed-material.js'
import type { Profile } from '../../src/profile/profile.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'

const SECRET = { value: 'key-0123456789', placeholder: '$IPTS_API_KEY' }

/** A rule made by hand: it applies to every response and finds what `finding` says of it. */
function ruleOf(
  id: string,
  finding: (response: ExchangeResponse) => Finding | undefined,
  extra: Partial<ExchangeJudge> = {},
): ExchangeJudge {
  return {
    id,
    requirement: 'REQ' as RequirementId,
    title: id,
    notApplicable: 'never applied',
    applies: () => true,
    violation: (response) => finding(response),
    ...extra,
  }
}

const violatedAt = (status: number) => ruleOf('status', (response) => (response.status === status ? 'bad' : undefined))
const answered = (status: number, extra: Partial<Exchange> = {}): Exchange => ({
  ...exchangeOf(responseOf(status, {}, {})),
  ...extra,
})

describe('observe', () => {
  test('a retried attempt is judged too, as an attempt sent again, without a rule that judges the answer', async () => {
    const exchange = answered(200, { retries: [{ response: responseOf(500, {}, {}) }] as never })
    const shape = ruleOf('shape', (response) => (response.status === 500 ? 'bad' : undefined))
    const answerRule = ruleOf('answer', (response) => (response.status === 500 ? 'bad' : undefined), {
      judgesAnswer: true,
    })
    const observations = observe([exchange], {}, [], [shape, answerRule])
    expect(observations.shape).toMatchObject({ applied: 2, violated: 1 })
    expect(observations.shape!.violations[0]!.response?.status).toBe(500)
    expect(observations.shape!.violations[0]!.retries ?? [], 'an attempt was sent no retries of its own').toEqual([])
    expect(observations.answer).toMatchObject({ applied: 1, violated: 0 })
  })

  test('a rule that judges the answer skips a transient 503, a shape rule does not', () => {
    const shape = violatedAt(503)
    const answerRule = { ...violatedAt(503), id: 'answer', judgesAnswer: true }
    const observations = observe([answered(503)], {}, [], [shape, answerRule])
    expect(observations.status).toMatchObject({ applied: 1, violated: 1 })
    expect(observations.answer).toBeUndefined()
  })

  test('an exchange with no operation, an unanswered one and an unjudged one are counted but not judged', () => {
    const responses: ResponsesSeen = {}
    const rule = ruleOf('any', () => 'bad')
    const unjudged = exchangeOf({ ...responseOf(200), notJudged: 'a redirect' })
    const observations = observe(
      [exchangeOf(responseOf(200), { operation: undefined }), exchangeOf(undefined), unjudged, answered(200)],
      {},
      [],
      [rule],
      undefined,
      responses,
    )
    expect(observations.any).toMatchObject({ applied: 1, violated: 1 })
    expect(responses).toEqual({ listMarkets: { statuses: { 'no response': 1, '200': 2 }, judged: 1 } })
  })

  test('an unanswered or unjudged exchange observed without counting responses is passed over', () => {
    const unjudged = exchangeOf({ ...responseOf(200), notJudged: 'a redirect' })
    expect(observe([exchangeOf(undefined), unjudged], {}, [], [ruleOf('any', () => 'bad')])).toEqual({})
  })

  test('a recording with stand-ins where the rule finds nothing is judged and passes', () => {
    const recorded = exchangeOf({ ...responseOf(200, {}, {}), standIns: true })
    expect(observe([recorded], {}, [], [ruleOf('none', () => undefined)]).none).toEqual({
      applied: 1,
      violated: 0,
      violations: [],
    })
  })

  test('a response no rule applied to is counted not judged', () => {
    const responses: ResponsesSeen = {}
    observe([answered(200)], {}, [], [ruleOf('never', () => 'bad', { applies: () => false })], undefined, responses)
    expect(responses).toEqual({ listMarkets: { statuses: { '200': 1 }, judged: 0 } })
  })

  test('a rule that holds to a profile key applies only when the profile states it, and cites it', () => {
    const rule = ruleOf('errors', () => 'bad', { profile: 'errorCodes' })
    expect(observe([answered(200)], {}, [], [rule])).toEqual({})
    const profile = { values: { errorCodes: ['E1'] }, source: 'p.yaml' } as unknown as Profile
    const evidence = observe([answered(200)], { profile }, [], [rule]).errors!.violations[0]!
    expect(evidence.profile).toEqual({ key: 'errorCodes', value: ['E1'], source: 'p.yaml' })
  })

  test('a rule that throws is a crash, redacted, the first kept, and applied to nothing', () => {
    let calls = 0
    const rule = ruleOf('crashing', () => {
      calls += 1
      throw new Error(`boom ${calls} ${SECRET.value}`)
    })
    const observations = observe([answered(200), answered(200)], {}, [SECRET], [rule])
    expect(observations.crashing).toEqual({
      applied: 0,
      violated: 0,
      violations: [],
      crash: 'Error: boom 1 $IPTS_API_KEY',
    })
  })

  test("a finding about a recording's stand-in is set aside, counted unrecorded; another is judged", () => {
    const headers = { 'x-custom': standIn('header', 'value') }
    const recorded: Exchange = {
      ...exchangeOf({ ...responseOf(200, headers, {}), standIns: true }),
    }
    const aboutHeader = ruleOf('header', () => 'x-custom is wrong')
    const aboutStatus = ruleOf('status', () => ({ message: 'status is wrong' }))
    const observations = observe([recorded, recorded], {}, [], [aboutHeader, aboutStatus])
    expect(observations.header).toEqual({ applied: 0, violated: 0, violations: [], unrecorded: 2 })
    expect(observations.status).toMatchObject({ applied: 2, violated: 2 })
  })

  test('a finding without stand-ins in the response is judged whatever it names', () => {
    const headers = { 'x-custom': standIn('header', 'value') }
    const rule = ruleOf('header', () => 'x-custom is wrong')
    expect(observe([exchangeOf(responseOf(200, headers, {}))], {}, [], [rule]).header).toMatchObject({
      applied: 1,
      violated: 1,
    })
  })

  test('evidence is kept for the first three violations, or the room the caller has left', () => {
    const rule = ruleOf('any', () => 'bad')
    const four = [answered(200), answered(200), answered(200), answered(200)]
    expect(observe(four, {}, [], [rule]).any).toMatchObject({ applied: 4, violated: 4 })
    expect(observe(four, {}, [], [rule]).any!.violations.length).toBe(3)
    const roomy = observe(four, {}, [], [rule], undefined, undefined, 0, () => 1)
    expect(roomy.any!.violations.length).toBe(1)
  })

  test("evidence names the finding, its schema violations, the check that sent it and the sample's round", () => {
    const violations = [
      { schema: 'S', keyword: 'type', instancePath: '/a', schemaPath: '#/type', message: 'm', params: {} },
    ]
    const rule = ruleOf('schema', () => ({ message: 'body is wrong', violations }))
    const timed = answered(200, { startedAt: '2026-11-26T21:00:00.000Z' } as Partial<Exchange>)
    const evidence = observe([timed], {}, [], [rule], 'auth/check', undefined, 2).schema!.violations[0]!
    expect(evidence.message).toBe('body is wrong')
    expect(evidence.schemaViolations).toEqual([expect.objectContaining({ keyword: 'type', instancePath: '/a' })])
    expect(evidence.sentBy).toBe('auth/check')
    expect(evidence.sample).toEqual({ round: 2, at: '2026-11-26T21:00:00.000Z' })
  })

  test('evidence of a plain finding has no violations, no sender and no sample when none is known', () => {
    const evidence = observe([answered(200)], {}, [], [ruleOf('any', () => 'bad')]).any!.violations[0]!
    expect(evidence.message).toBe('bad')
    expect(evidence).not.toHaveProperty('schemaViolations')
    expect(evidence).not.toHaveProperty('sentBy')
    expect(evidence).not.toHaveProperty('sample')
    expect(evidence).not.toHaveProperty('profile')
  })
})
