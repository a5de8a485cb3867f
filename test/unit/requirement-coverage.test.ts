import { describe, expect, test } from 'vitest'
import { missingInputReasons, needInputs } from '../../src/checks/needs.js'
import type { Need } from '../../src/checks/types.js'
import type { CheckOutcome, RequirementResult } from '../../src/core/report.js'
import { coverageOf, judgedSomething } from '../../src/engine/coverage.js'
import { reportOf, type ReportParts } from '../../src/engine/report-of.js'
import { operationCoverage } from '../../src/engine/responses-seen.js'
import { notAssessableWithout, PROFILE_KEYS, WRITES_NOT_ASSESSABLE } from '../../src/profile/profile.js'
import { INTENT_STATES_PROFILE, outcomeOf } from '../support/outcomes.js'

/**
 * How much a report judged: a requirement is assessed when one of its checks passed or failed (a crash judges nothing),
 * else it says why not and what would assess it; the share assessed is of the observable ones, rounded down
 * (src/engine/coverage.ts), and the report carries it (src/engine/report-of.ts).
 */

/** ERR-BODY-SCHEMA as traced: observable, with no profile key. */
const ERROR_BODY: RequirementResult = {
  id: 'ERR-BODY-SCHEMA',
  section: '7',
  level: 'MUST',
  rule: 'error bodies match the schema',
  quote: [],
  inferred: false,
  observable: true,
  checks: ['every-response/error-body'],
  status: 'skipped',
}

/** The coverage of ERR-BODY-SCHEMA alone, with these outcomes and profile. */
function errorBodyCoverage(outcomes: readonly CheckOutcome[], profile = INTENT_STATES_PROFILE, result = ERROR_BODY) {
  return coverageOf([result], outcomes, {}, profile).requirements[0]
}

/** ERR-BODY-SCHEMA's check skipped for each reason, which REMEDIES maps to what would assess it. */
function skippedFor(...reasons: string[]) {
  return errorBodyCoverage(reasons.map((reason) => outcomeOf('ERR-BODY-SCHEMA', 'skipped', { reason })))
}

describe('judgedSomething', () => {
  const judged = (status: CheckOutcome['status'], more: Partial<CheckOutcome> = {}) =>
    judgedSomething(outcomeOf('ERR-BODY-SCHEMA', status, more))

  test('a pass and a failure judged the target; a crash, a skip and a check not run did not', () => {
    expect(judged('passed')).toBe(true)
    expect(judged('failed')).toBe(true)
    expect(judged('failed', { crashed: false })).toBe(true)
    expect(judged('failed', { crashed: true }), 'a crash is the suite defect').toBe(false)
    expect(judged('skipped')).toBe(false)
    expect(judged('not run')).toBe(false)
  })

  test('a waived check judged the target when what it found was a pass or a failure', () => {
    expect(judged('waived', { waiver: { reason: 'r', outcome: 'passed' } })).toBe(true)
    expect(judged('waived', { waiver: { reason: 'r', outcome: 'failed' } })).toBe(true)
    expect(judged('waived', { waiver: { reason: 'r', outcome: 'failed' }, crashed: true })).toBe(false)
    expect(judged('waived', { waiver: { reason: 'r', outcome: 'skipped' } })).toBe(false)
    expect(judged('waived', { waiver: { reason: 'r', outcome: 'not run' } })).toBe(false)
    expect(judged('waived'), 'a waiver without what it found').toBe(false)
  })
})

describe('the coverage of a requirement', () => {
  test('assessed when one of its checks judged something, whatever the others did', () => {
    const outcomes = [
      outcomeOf('ERR-BODY-SCHEMA', 'skipped', { reason: 'no API key given (--api-key)' }),
      outcomeOf('ERR-BODY-SCHEMA', 'passed'),
    ]
    expect(errorBodyCoverage(outcomes)).toEqual({
      id: 'ERR-BODY-SCHEMA',
      level: 'MUST',
      observable: true,
      assessed: true,
    })
  })

  test("another requirement's outcomes neither assess it nor give it their reasons", () => {
    expect(
      errorBodyCoverage([
        outcomeOf('OTHER-REQUIREMENT', 'passed'),
        outcomeOf('OTHER-REQUIREMENT', 'skipped', { reason: 'no trader address given (--trader)' }),
      ]),
    ).toEqual({
      id: 'ERR-BODY-SCHEMA',
      level: 'MUST',
      observable: true,
      assessed: false,
      reason: 'none of its checks judged anything',
    })
  })

  test("not assessed: its checks' reasons, each once, in order, empty ones left out", () => {
    const outcomes = [
      outcomeOf('ERR-BODY-SCHEMA', 'skipped', { reason: 'first reason' }),
      outcomeOf('ERR-BODY-SCHEMA', 'not run', { reason: '' }),
      outcomeOf('ERR-BODY-SCHEMA', 'skipped', { reason: 'second reason' }),
      outcomeOf('ERR-BODY-SCHEMA', 'failed', { reason: 'first reason', crashed: true }),
      outcomeOf('ERR-BODY-SCHEMA', 'not run'),
    ]
    expect(errorBodyCoverage(outcomes)).toEqual({
      id: 'ERR-BODY-SCHEMA',
      level: 'MUST',
      observable: true,
      assessed: false,
      reason: 'first reason; second reason',
    })
  })

  test("no reason among its checks: the requirement's own reason, else that none of its checks judged anything", () => {
    const silent = [outcomeOf('ERR-BODY-SCHEMA', 'not run')]
    expect(errorBodyCoverage(silent, undefined, { ...ERROR_BODY, reason: 'none of its checks ran' })).toMatchObject({
      assessed: false,
      reason: 'none of its checks ran',
    })
    expect(errorBodyCoverage(silent)?.reason).toBe('none of its checks judged anything')
  })

  test('a requirement not assessable: observable only when a profile key would assess it, which it names', () => {
    const unshown = { status: 'not-assessable', reason: 'Not shown.', checks: [], quote: [] }
    const coverage = coverageOf(
      [
        { ...ERROR_BODY, ...unshown, id: 'LIM-PAGE-SIZE', observable: false },
        { ...ERROR_BODY, ...unshown, id: 'SHAPE-OTHER-RECORDS', observable: false },
      ] as RequirementResult[],
      [outcomeOf('LIM-PAGE-SIZE', 'passed')],
      {},
    )
    expect(coverage.requirements).toEqual([
      {
        id: 'LIM-PAGE-SIZE',
        level: 'MUST',
        observable: true,
        assessed: false,
        reason: 'Not shown.',
        assessedWith: { profileKeys: ['pagination'] },
      },
      { id: 'SHAPE-OTHER-RECORDS', level: 'MUST', observable: false, assessed: false, reason: 'Not shown.' },
    ])
  })
})

describe('what would assess a requirement', () => {
  test.each(Object.keys(missingInputReasons) as Need[])('a check skipped without the input %s: its flags', (need) => {
    expect(skippedFor(missingInputReasons[need])?.assessedWith).toEqual({ inputs: needInputs[need] })
  })

  test('the intent: both flags that give it', () => {
    expect(skippedFor(missingInputReasons.intent)?.assessedWith).toEqual({
      inputs: ['--intent-hash', '--intent-receipt'],
    })
  })

  test.each(PROFILE_KEYS.filter((key) => key !== 'intentStates'))(
    'a check not assessable without the profile key %s: the key',
    (key) => {
      expect(skippedFor(notAssessableWithout(key))?.assessedWith).toEqual({ profileKeys: [key] })
    },
  )

  test('a key the profile already states is not named; with nothing else to name, nothing is', () => {
    expect(skippedFor(notAssessableWithout('intentStates'))).not.toHaveProperty('assessedWith')
    expect(skippedFor(notAssessableWithout('intentStates'), notAssessableWithout('quota'))?.assessedWith).toEqual({
      profileKeys: ['quota'],
    })
  })

  test('a check that sends writes: the opt-in and the profile key', () => {
    expect(skippedFor(WRITES_NOT_ASSESSABLE)?.assessedWith).toEqual({
      inputs: ['--allow-writes'],
      profileKeys: ['writes'],
    })
  })

  test('several reasons: every input and key they name, each once, in order', () => {
    const assessedWith = skippedFor(
      missingInputReasons.trader,
      notAssessableWithout('writes'),
      missingInputReasons.apiKey,
      WRITES_NOT_ASSESSABLE,
      notAssessableWithout('quota'),
    )?.assessedWith
    expect(assessedWith).toEqual({
      inputs: ['--trader', '--api-key', '--allow-writes'],
      profileKeys: ['writes', 'quota'],
    })
  })

  test('a reason that names no input or key names nothing', () => {
    const coverage = skippedFor('the target answered nothing to judge')
    expect(coverage).toEqual({
      id: 'ERR-BODY-SCHEMA',
      level: 'MUST',
      observable: true,
      assessed: false,
      reason: 'the target answered nothing to judge',
    })
  })
})

describe('the share assessed', () => {
  /** The summary of `assessed` passed requirements of `observable` observable ones, and one unobservable. */
  function summaryOf(assessed: number, observable: number, minAssessed?: number) {
    const ids = ['ERR-BODY-SCHEMA', 'ERR-404-UNKNOWN', 'ERR-VALIDATION', 'AUTH-401-MISSING-KEY']
    const results = ids.slice(0, observable).map((id) => ({ ...ERROR_BODY, id }))
    const unobservable = {
      ...ERROR_BODY,
      id: 'SHAPE-OTHER-RECORDS',
      observable: false,
      status: 'not-assessable',
    } as const
    const outcomes = [...ids.slice(0, assessed), 'SHAPE-OTHER-RECORDS'].map((id) => outcomeOf(id, 'passed'))
    return coverageOf([...results, unobservable], outcomes, {}, undefined, minAssessed).summary
  }

  test('assessed of observable, in percent, rounded down to one decimal', () => {
    expect(summaryOf(1, 3)).toEqual({ assessed: 1, observable: 3, percent: 33.3 })
    expect(summaryOf(2, 3), 'rounded down, not to the nearest').toEqual({ assessed: 2, observable: 3, percent: 66.6 })
    expect(summaryOf(3, 4)).toEqual({ assessed: 3, observable: 4, percent: 75 })
    expect(summaryOf(4, 4)).toEqual({ assessed: 4, observable: 4, percent: 100 })
    expect(summaryOf(0, 4)).toEqual({ assessed: 0, observable: 4, percent: 0 })
  })

  test('no observable requirement: 0%', () => {
    expect(summaryOf(0, 0)).toEqual({ assessed: 0, observable: 0, percent: 0 })
  })

  test('the minimum --min-assessed asked for, only when it was given', () => {
    expect(summaryOf(1, 2, 80)).toEqual({ assessed: 1, observable: 2, percent: 50, minimum: 80 })
    expect(summaryOf(1, 2, 0)).toEqual({ assessed: 1, observable: 2, percent: 50, minimum: 0 })
    expect(summaryOf(1, 2)).not.toHaveProperty('minimum')
  })

  test("the operations: every operation's responses", () => {
    const responses = { listMarkets: { statuses: { '200': 2 }, judged: 2 } }
    expect(coverageOf([], [], responses).operations).toEqual(operationCoverage(responses))
  })
})

describe('reportOf', () => {
  const SECRET = { value: 'ipts_full_0a1b2c3d4e5f60718293a4b5c6d7e8f9', placeholder: '$IPTS_API_KEY' }

  function partsOf(more: Partial<ReportParts> = {}): ReportParts {
    return {
      target: { baseUrl: 'http://127.0.0.1:9', embedded: false },
      strict: false,
      checks: [outcomeOf('ERR-BODY-SCHEMA', 'passed')],
      errors: [`a suite file that did not load, with ${SECRET.value} in it`],
      startedAt: new Date(Date.now() - 5000),
      secrets: [SECRET],
      responses: {},
      ...more,
    }
  }

  test('a report without the optional parts: none of their members', () => {
    const report = reportOf(partsOf())
    for (const member of ['seed', 'runs', 'traffic', 'resampling', 'profile', 'interrupted'])
      expect(report, member).not.toHaveProperty(member)
    expect(report.strict).toBe(false)
    expect(report.target).toEqual({ baseUrl: 'http://127.0.0.1:9', embedded: false })
  })

  test('how long the run took: from its start to now', () => {
    const { durationMs } = reportOf(partsOf())
    expect(durationMs).toBeGreaterThanOrEqual(5000)
    expect(durationMs).toBeLessThan(65_000)
  })

  test('the optional parts as they were given', () => {
    const traffic = {
      source: 'har',
      exchanges: 3,
      judged: 2,
      outsideV1: 1,
      otherV1: 0,
      withoutResponse: 0,
      withoutBody: 0,
    } as const
    const resampling = { kind: 'last sweep', rounds: 1, requests: 4, quotaRefusals: 0, durationMs: 12 } as const
    const interrupted = { by: 'SIGINT', at: '2026-11-26T20:00:00.000Z' } as const
    const report = reportOf(
      partsOf({ seed: 0, runs: 25, traffic, resampling, interrupted, profile: INTENT_STATES_PROFILE }),
    )
    expect(report.seed, 'a seed of 0 is a seed').toBe(0)
    expect(report.runs).toBe(25)
    expect(report.traffic).toEqual(traffic)
    expect(report.resampling).toEqual(resampling)
    expect(report.interrupted).toEqual(interrupted)
    expect(report.profile).toEqual({ source: 'unit-profile.yaml', values: { intentStates: ['created', 'settled'] } })
  })

  test('the requirements traced against the profile, their coverage held to the minimum, secrets as placeholders', () => {
    const report = reportOf(partsOf({ minAssessed: 90, profile: INTENT_STATES_PROFILE }))
    expect(report.requirements.find((r) => r.id === 'STATE-INTENT-VALUES')?.profile).toEqual({
      key: 'intentStates',
      value: ['created', 'settled'],
    })
    expect(report.coverage.summary.minimum).toBe(90)
    expect(report.coverage.summary.assessed).toBe(1)
    expect(report.summary.verdict, 'one requirement assessed is below 90%').toBe('fail')
    expect(report.errors).toEqual(['a suite file that did not load, with $IPTS_API_KEY in it'])
  })
})
