import { describe, expect, test } from 'vitest'
import { compareWithBaseline, comparisonLines } from '../../reporters/baseline.js'
import type { CheckStatus, Report } from '../../src/core/report.js'

const reportWith = (checks: [string, CheckStatus][]) =>
  ({ checks: checks.map(([id, status]) => ({ id, status })) }) as unknown as Report

describe('a comparison with a baseline', () => {
  test('puts every check in exactly one sum: newly failing, fixed, unchanged, otherwise changed, not in the baseline', () => {
    const baseline = {
      checks: [
        ['a', 'passed'],
        ['b', 'failed'],
        ['c', 'passed'],
        ['d', 'failed'],
        ['e', 'skipped'],
      ].map(([id, status]) => ({ id: id!, status: status as CheckStatus })),
    }
    const report = reportWith([
      ['a', 'failed'],
      ['b', 'passed'],
      ['c', 'skipped'],
      ['d', 'failed'],
      ['e', 'skipped'],
      ['f', 'passed'],
      ['g', 'failed'],
    ])
    const comparison = compareWithBaseline(baseline, 'before.json', report)
    expect(comparison.newlyFailing).toEqual(['a', 'g'])
    expect(comparison.fixed).toEqual([{ id: 'b', status: 'passed' }])
    expect(comparison.unchanged).toBe(2)
    expect(comparison.stillFailing).toEqual(['d'])
    expect(comparison.changed).toEqual([{ id: 'c', was: 'passed', now: 'skipped' }])
    expect(comparison.added).toEqual(['f'])
    const sum =
      comparison.newlyFailing.length +
      comparison.fixed.length +
      comparison.unchanged +
      comparison.changed.length +
      comparison.added.length
    expect(sum, 'the sums add up to the checks of the report').toBe(report.checks.length)
    expect(comparisonLines(comparison)).toContain('otherwise changed 1: c (passed → skipped)')
  })
})
