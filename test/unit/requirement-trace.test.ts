import { describe, expect, test } from 'vitest'
import { allChecks } from '../../src/checks/index.js'
import { exchangeRules } from '../../src/checks/every-response.js'
import type { Requirement } from '../../src/contract/requirements.js'
import type { RequirementResult } from '../../src/core/report.js'
import { notAssessedReason, requirementCounts, traceRequirements } from '../../src/engine/traceability.js'
import { INTENT_STATES_PROFILE, outcomeOf } from '../support/outcomes.js'

/**
 * Each requirement is traced to the checks of the catalogue that cite it and those that ran for it, and its status is
 * the first of failed, not run, waived, passed, skipped among their outcomes (src/engine/traceability.ts).
 */

/** An observable MUST requirement made by hand; `more` changes any field. */
function requirementOf(id: string, more: Partial<Requirement> = {}): Requirement {
  return {
    id,
    section: '9.9',
    level: 'MUST',
    rule: `the rule of ${id}`,
    quote: [`the quote of ${id}`],
    observable: true,
    ...more,
  } as Requirement
}

/** A requirement the contract leaves unshown, which the profile's intent states make assessable. */
const INTENT_STATES = requirementOf('STATE-INTENT-VALUES', {
  observable: false,
  reason: 'Not shown.',
  profile: 'intentStates',
})

function traced(requirement: Requirement, ...outcomes: Parameters<typeof traceRequirements>[0]) {
  return traceRequirements(outcomes, undefined, [requirement])[0]!
}

function statusOf(...outcomes: Parameters<typeof traceRequirements>[0]) {
  const { status, reason } = traced(requirementOf('ERR-BODY-SCHEMA'), ...outcomes)
  return { status, reason }
}

describe('the checks of a requirement', () => {
  test('every check and every-response rule of the catalogue that cites it, then those that ran, each once', () => {
    const cataloguedIds = [...allChecks, ...exchangeRules]
      .filter((check) => check.requirement === 'ERR-BODY-SCHEMA')
      .map((check) => check.id)
    expect(cataloguedIds, 'the catalogue cites ERR-BODY-SCHEMA in a check and a rule').toContain(
      'every-response/error-body',
    )
    expect(cataloguedIds).toContain('errors/unauthorized-error-body')
    const result = traced(
      requirementOf('ERR-BODY-SCHEMA'),
      outcomeOf('ERR-BODY-SCHEMA', 'passed', { id: 'errors/unauthorized-error-body' }),
      outcomeOf('ERR-BODY-SCHEMA', 'passed', { id: 'unit/added-by-a-run' }),
      outcomeOf('OTHER-REQUIREMENT', 'failed', { id: 'unit/of-another-requirement', reason: 'elsewhere' }),
    )
    expect(result.checks).toEqual([...cataloguedIds, 'unit/added-by-a-run'])
    expect(result.status, "another requirement's failure is not this one's").toBe('passed')
  })

  test('a requirement no check of the catalogue cites has the checks that ran for it only', () => {
    const result = traced(requirementOf('UNIT-UNCATALOGUED'), outcomeOf('UNIT-UNCATALOGUED', 'passed'))
    expect(result.checks).toEqual(['unit/passed'])
  })
})

describe('the fields of a traced requirement', () => {
  test("the requirement's own fields as they are; inferred only when the requirement says true", () => {
    const plain = requirementOf('UNIT-PLAIN', { level: 'SHOULD' })
    expect(traced(plain)).toEqual({
      id: 'UNIT-PLAIN',
      section: '9.9',
      level: 'SHOULD',
      rule: 'the rule of UNIT-PLAIN',
      quote: ['the quote of UNIT-PLAIN'],
      inferred: false,
      observable: true,
      checks: [],
      status: 'uncovered',
      reason: 'no check of the suite covers this requirement',
    })
    expect(traced(requirementOf('UNIT-INFERRED', { inferred: true })).inferred).toBe(true)
  })
})

describe('a requirement the contract leaves unshown', () => {
  test('is not assessable without a profile, whatever its checks found, and names the key that would assess it', () => {
    const result = traced(INTENT_STATES, outcomeOf('STATE-INTENT-VALUES', 'failed', { reason: 'unlisted state' }))
    expect(result.status).toBe('not-assessable')
    expect(result.reason).toBe('Not shown. A deployment profile that states `intentStates` assesses it (--profile).')
    expect(result).not.toHaveProperty('profile')
  })

  test("is judged by its checks against a profile that states its key, and carries the key and the profile's value", () => {
    const [result] = traceRequirements(
      [outcomeOf('STATE-INTENT-VALUES', 'failed', { reason: 'unlisted state' })],
      INTENT_STATES_PROFILE,
      [INTENT_STATES],
    )
    expect(result).toMatchObject({
      status: 'failed',
      reason: 'unit/failed: unlisted state',
      observable: false,
      profile: { key: 'intentStates', value: ['created', 'settled'] },
    })
  })

  test('stays not assessable against a profile that does not state its key', () => {
    const profile = { source: 'unit-profile.yaml', values: { marketStatuses: ['open'] } }
    const [result] = traceRequirements([outcomeOf('STATE-INTENT-VALUES', 'passed')], profile, [INTENT_STATES])
    expect(result!.status).toBe('not-assessable')
    expect(result).not.toHaveProperty('profile')
  })

  test('an observable requirement without a key carries no profile, whatever the profile states', () => {
    const [result] = traceRequirements([outcomeOf('ERR-BODY-SCHEMA', 'passed')], INTENT_STATES_PROFILE, [
      requirementOf('ERR-BODY-SCHEMA'),
    ])
    expect(result!.status).toBe('passed')
    expect(result).not.toHaveProperty('profile')
  })

  test('why it is not assessed: its reason, or "not observable from outside"; then the key that would assess it', () => {
    expect(notAssessedReason(requirementOf('UNIT-A', { observable: false, reason: 'A rule for clients.' }))).toBe(
      'A rule for clients.',
    )
    expect(notAssessedReason(requirementOf('UNIT-B', { observable: false }))).toBe('not observable from outside')
    expect(notAssessedReason(requirementOf('UNIT-C', { observable: false, profile: 'quota' }))).toBe(
      'not observable from outside A deployment profile that states `quota` assesses it (--profile).',
    )
    const unshown = requirementOf('UNIT-D', { observable: false })
    expect(traced(unshown)).toMatchObject({ status: 'not-assessable', reason: 'not observable from outside' })
  })
})

describe('the status of an observable requirement', () => {
  test('with no outcome of its checks: skipped, none of them ran', () => {
    expect(statusOf()).toEqual({ status: 'skipped', reason: 'none of its checks ran in this run' })
  })

  test('a failure decides, whatever comes before it, with the failing check and its message', () => {
    expect(
      statusOf(
        outcomeOf('ERR-BODY-SCHEMA', 'passed', { id: 'unit/first' }),
        outcomeOf('ERR-BODY-SCHEMA', 'not run', { reason: 'cut short' }),
        outcomeOf('ERR-BODY-SCHEMA', 'failed', { id: 'unit/second', reason: 'no error member' }),
        outcomeOf('ERR-BODY-SCHEMA', 'failed', { id: 'unit/third', reason: 'another' }),
      ),
    ).toEqual({ status: 'failed', reason: 'unit/second: no error member' })
  })

  test('not run comes before waived, waived before passed, passed before skipped', () => {
    const waived = outcomeOf('ERR-BODY-SCHEMA', 'waived', {
      reason: 'the finding',
      waiver: { reason: 'known defect', outcome: 'failed' },
    })
    const passed = outcomeOf('ERR-BODY-SCHEMA', 'passed', { reason: 'a passing note' })
    const skipped = outcomeOf('ERR-BODY-SCHEMA', 'skipped', { reason: 'no API key given (--api-key)' })
    const notRun = outcomeOf('ERR-BODY-SCHEMA', 'not run', { reason: 'cut short' })
    expect(statusOf(skipped, passed, waived, notRun)).toEqual({ status: 'not run', reason: 'unit/not run: cut short' })
    expect(statusOf(skipped, passed, waived)).toEqual({ status: 'waived', reason: 'unit/waived: known defect' })
    expect(statusOf(skipped, passed), 'a pass has no reason').toEqual({ status: 'passed', reason: undefined })
    expect(statusOf(skipped)).toEqual({ status: 'skipped', reason: 'unit/skipped: no API key given (--api-key)' })
  })

  test('an outcome without a reason gives a status without one', () => {
    const result = traced(requirementOf('ERR-BODY-SCHEMA'), outcomeOf('ERR-BODY-SCHEMA', 'waived'))
    expect(result.status).toBe('waived')
    expect(result).not.toHaveProperty('reason')
    expect(statusOf(outcomeOf('ERR-BODY-SCHEMA', 'skipped'))).toEqual({ status: 'skipped', reason: undefined })
  })
})

describe('requirement counts', () => {
  test('each status counted, those no requirement ended in as 0', () => {
    const ended = (status: RequirementResult['status']) => ({ status }) as RequirementResult
    expect(requirementCounts([ended('passed'), ended('failed'), ended('passed'), ended('uncovered')])).toEqual({
      passed: 2,
      failed: 1,
      skipped: 0,
      'not-assessable': 0,
      uncovered: 1,
      waived: 0,
      'not run': 0,
    })
  })
})
