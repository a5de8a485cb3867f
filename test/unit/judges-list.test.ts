import { describe, expect, test } from 'vitest'
import { exchangeRules } from '../../src/checks/every-response.js'
import { checksByConcern } from '../../src/checks/index.js'
import { relationRules } from '../../src/checks/relations.js'
import { everyResponseJudges, exchangeJudges, relationJudges } from '../../src/engine/judges.js'

describe('the judges of an exchange', () => {
  test('are each check that one recorded exchange decides, in its concern, then the every-response rules', () => {
    const recordedChecks = Object.entries(checksByConcern).flatMap(([concern, checks]) =>
      checks.filter((check) => check.recorded).map((check) => `${concern} ${check.id}`),
    )
    expect(recordedChecks.length, 'the catalogue has checks one exchange decides').toBeGreaterThan(0)
    expect(exchangeJudges().map((judge) => `${judge.concern} ${judge.id}`)).toEqual([
      ...recordedChecks,
      ...exchangeRules.map((rule) => `every-response ${rule.id}`),
    ])
  })

  test('the every-response rules alone, in the concern a report names them by', () => {
    expect(everyResponseJudges().map((judge) => [judge.concern, judge.id])).toEqual(
      exchangeRules.map((rule) => ['every-response', rule.id]),
    )
  })

  test('the relations, named as a report names them', () => {
    expect(relationJudges()).toEqual(
      relationRules.map(({ id, title, requirement, notApplicable }) => ({
        id,
        title,
        requirement,
        notApplicable,
        concern: 'relations',
      })),
    )
  })
})
