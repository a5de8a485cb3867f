import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { compareWithBaseline, comparisonLines, readBaseline } from '../../reporters/baseline.js'
import { UsageError } from '../../src/core/errors.js'
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

describe("a comparison's lines", () => {
  const none = { path: 'b.json', newlyFailing: [], fixed: [], stillFailing: [], unchanged: 0, changed: [], added: [] }

  test('each sum with the checks in it, a fixed check with its status now unless it passed', () => {
    expect(
      comparisonLines({
        path: 'b.json',
        startedAt: '2026-11-27T10:00:00.000Z',
        newlyFailing: ['a', 'g'],
        fixed: [
          { id: 'b', status: 'passed' },
          { id: 'h', status: 'skipped' },
        ],
        stillFailing: ['d'],
        unchanged: 2,
        changed: [{ id: 'c', was: 'passed', now: 'skipped' }],
        added: ['f'],
      }),
    ).toEqual([
      'compared with b.json (run of 2026-11-27T10:00:00.000Z):',
      'newly failing 2: a, g',
      'fixed 2: b, h (now skipped)',
      'unchanged 2, of which still failing 1: d',
      'otherwise changed 1: c (passed → skipped)',
      'not in the baseline 1: f',
    ])
  })

  test('empty sums with no list, and no time of a baseline that does not say when it ran', () => {
    expect(comparisonLines(none)).toEqual([
      'compared with b.json:',
      'newly failing 0',
      'fixed 0',
      'unchanged 0, of which still failing 0',
      'otherwise changed 0',
      'not in the baseline 0',
    ])
  })
})

describe('reading a baseline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ipts-baseline-'))
  const fileWith = (name: string, text: string) => {
    const path = join(dir, name)
    writeFileSync(path, text)
    return path
  }

  test("a report.json's checks and start, each status a check may have", async () => {
    const checks = ['passed', 'failed', 'skipped', 'waived', 'not run'].map((status, i) => ({ id: `c${i}`, status }))
    const path = fileWith('ok.json', JSON.stringify({ startedAt: '2026-11-27T10:00:00.000Z', checks, more: 1 }))
    expect(await readBaseline(path)).toEqual({ startedAt: '2026-11-27T10:00:00.000Z', checks })
  })

  test('a start that is not a string is left out', async () => {
    const path = fileWith('no-start.json', JSON.stringify({ startedAt: 5, checks: [] }))
    expect(await readBaseline(path)).toEqual({ startedAt: undefined, checks: [] })
  })

  test.each([
    ['absent', join(dir, 'absent.json'), /^--baseline: cannot read .*absent\.json \(ENOENT\)$/],
    ['a folder', dir, /^--baseline: cannot read .* \(EISDIR\)$/],
    ['not JSON', 'not-json', /^--baseline: .*not_json\.json is not JSON \(Unexpected token .*\)$/],
    ['null', 'null', /is not a report\.json of this tool \(no checks list of \{id, status\}\)$/],
    ['without checks', '{}', /is not a report\.json of this tool/],
    ['checks not a list', '{"checks":{}}', /is not a report\.json of this tool/],
    ['a check without an ID', '{"checks":[{"status":"passed"}]}', /is not a report\.json of this tool/],
    ['an ID not a string', '{"checks":[{"id":1,"status":"passed"}]}', /is not a report\.json of this tool/],
    ['a status not a string', '{"checks":[{"id":"a","status":1}]}', /is not a report\.json of this tool/],
    ['a status no check has', '{"checks":[{"id":"a","status":"broken"}]}', /is not a report\.json of this tool/],
    ['a null check', '{"checks":[null]}', /is not a report\.json of this tool/],
  ])('%s: a usage error naming --baseline and the file', async (_, given, message) => {
    const path = given.startsWith('/') ? given : fileWith(`${given.slice(0, 20).replace(/\W/g, '_')}.json`, given)
    const read = readBaseline(path)
    await expect(read).rejects.toThrow(UsageError)
    await expect(read).rejects.toThrow(message)
  })
})
