import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { compareReports, readComparedReport, type ComparedReport } from '../../reporters/compare.js'
import { UsageError } from '../../src/core/errors.js'

/**
 * What compare reads of each report.json, the one line that names a file it cannot compare and why, and how it lines
 * the reports up.
 */

const dir = mkdtempSync(join(tmpdir(), 'ipts-compare-reports-'))
let files = 0
const fileWith = (text: string) => {
  const path = join(dir, `report-${files++}.json`)
  writeFileSync(path, text)
  return path
}

const check = { id: 'auth/missing-key', requirement: 'AUTH-1', level: 'MUST', status: 'passed' }
const requirement = { id: 'AUTH-1', level: 'MUST', status: 'passed' }
const report = {
  tool: { name: 'ipts-conformance', version: '1.0.0' },
  target: { baseUrl: 'https://x.example' },
  startedAt: '2026-11-27T10:00:00.000Z',
  summary: { verdict: 'pass', failedMust: 0, failedShould: 0 },
  checks: [check],
  requirements: [requirement],
}

describe('reading a report to compare', () => {
  test('a report.json of this tool, as it is', async () => {
    expect(await readComparedReport(fileWith(JSON.stringify(report)))).toEqual(report)
    const failing = { ...report, summary: { ...report.summary, verdict: 'fail' } }
    expect(await readComparedReport(fileWith(JSON.stringify(failing)))).toEqual(failing)
  })

  test.each<[string, unknown, string]>([
    ['an array', [], 'not an object'],
    ['null', null, 'not an object'],
    ['no tool', { ...report, tool: undefined }, 'tool.name is not ipts-conformance'],
    ["another tool's", { ...report, tool: { name: 'other' } }, 'tool.name is not ipts-conformance'],
    ['no target', { ...report, target: undefined }, 'no target.baseUrl'],
    ['a target without its URL', { ...report, target: { baseUrl: 1 } }, 'no target.baseUrl'],
    ['no start', { ...report, startedAt: 5 }, 'no startedAt'],
    ['no summary', { ...report, summary: undefined }, 'no summary.verdict'],
    ['a verdict of neither kind', { ...report, summary: { verdict: 'maybe' } }, 'no summary.verdict'],
    ['no checks', { ...report, checks: {} }, 'no checks list of {id, requirement, level, status}'],
    ...(['id', 'requirement', 'level', 'status'] as const).map(
      (name) =>
        [
          `a check without its ${name}`,
          { ...report, checks: [check, { ...check, [name]: 1 }] },
          'no checks list of {id, requirement, level, status}',
        ] as [string, unknown, string],
    ),
    ['no requirements', { ...report, requirements: 'x' }, 'no requirements list of {id, level, status}'],
    ...(['id', 'level', 'status'] as const).map(
      (name) =>
        [
          `a requirement without its ${name}`,
          { ...report, requirements: [requirement, { ...requirement, [name]: null }] },
          'no requirements list of {id, level, status}',
        ] as [string, unknown, string],
    ),
  ])('%s: a usage error naming the file and what it lacks', async (_, content, lack) => {
    const path = fileWith(JSON.stringify(content))
    const read = readComparedReport(path)
    await expect(read).rejects.toThrow(UsageError)
    await expect(read).rejects.toThrow(`compare: ${path} is not a report.json of this tool (${lack})`)
  })

  test('a file that cannot be read, or is not JSON: its error code, or the first line of the parser’s message', async () => {
    await expect(readComparedReport(join(dir, 'absent.json'))).rejects.toThrow(
      `compare: cannot read ${join(dir, 'absent.json')} (ENOENT)`,
    )
    const text = '{"checks": ['
    const path = fileWith(text)
    const parserSays = (() => {
      try {
        return JSON.parse(text)
      } catch (error) {
        return (error as Error).message.split('\n')[0]
      }
    })()
    await expect(readComparedReport(path)).rejects.toThrow(`compare: ${path} is not JSON (${parserSays})`)
  })
})

describe('lining reports up', () => {
  const at = (hour: number) => `2026-11-27T${String(hour).padStart(2, '0')}:00:00.000Z`
  const reportOf = (
    hour: number,
    checks: Partial<ComparedReport['checks'][number]>[],
    more: Partial<ComparedReport> = {},
  ) =>
    ({
      ...report,
      startedAt: at(hour),
      checks: checks.map((c) => ({ ...check, title: 't', ...c })),
      requirements: [requirement],
      ...more,
    }) as unknown as ComparedReport

  test('a column per report labelled by target, what it switched on and start, the file where two would read alike', () => {
    const { columns, tool } = compareReports([
      {
        path: 'a.json',
        report: reportOf(10, [], { target: { baseUrl: 'u', embedded: true, switchedOn: ['fault f', 'allowance g'] } }),
      },
      { path: 'b.json', report: reportOf(10, []) },
      { path: 'c.json', report: reportOf(10, []) },
      { path: 'd.json', report: reportOf(11, [], { target: { baseUrl: 'u', embedded: true, switchedOn: [] } }) },
    ])
    expect(tool.name).toBe('ipts-conformance')
    expect(columns.map((c) => c.label)).toEqual([
      `u (fault f, allowance g) @ ${at(10)}`,
      `https://x.example @ ${at(10)} (b.json)`,
      `https://x.example @ ${at(10)} (c.json)`,
      `u @ ${at(11)}`,
    ])
  })

  test("each column's verdict, failures by level and what it read after its checks, only where the report says", () => {
    const soak = { kind: 'soak', rounds: 3, requests: 90, quotaRefusals: 0, durationMs: 60_000, rate: 10 } as const
    const [withReads, without] = compareReports([
      {
        path: 'a.json',
        report: reportOf(10, [], { summary: { verdict: 'fail', failedMust: 2, failedShould: 1 }, resampling: soak }),
      },
      { path: 'b.json', report: reportOf(11, []) },
    ]).columns
    expect(withReads).toEqual({
      label: `https://x.example @ ${at(10)}`,
      path: 'a.json',
      target: 'https://x.example',
      startedAt: at(10),
      verdict: 'fail',
      failedMust: 2,
      failedShould: 1,
      resampling: { kind: 'soak', rounds: 3, requests: 90, durationMs: 60_000 },
    })
    expect(without).not.toHaveProperty('resampling')
  })

  test('a row per requirement, then per check, in the order the reports first hold them; those that differ first', () => {
    const comparison = compareReports([
      { path: 'a.json', report: reportOf(10, [{ id: 'c1' }, { id: 'c2', status: 'failed' }]) },
      { path: 'b.json', report: reportOf(11, [{ id: 'c3' }, { id: 'c1' }, { id: 'c2', status: 'failed' }]) },
    ])
    expect(comparison.rows.map((r) => [r.kind, r.id, r.differs, r.outcomes])).toEqual([
      ['check', 'c3', true, [null, 'passed']],
      ['requirement', 'AUTH-1', false, ['passed', 'passed']],
      ['check', 'c1', false, ['passed', 'passed']],
      ['check', 'c2', false, ['failed', 'failed']],
    ])
    expect(comparison.summary).toEqual({ reports: 2, rows: 4, differing: 1 })
    expect(comparison.rows[0]).toMatchObject({ requirement: 'AUTH-1', level: 'MUST', title: 't' })
    const renamed = compareReports([
      { path: 'a.json', report: reportOf(10, [{ id: 'c1', title: 'as first named' }]) },
      { path: 'b.json', report: reportOf(11, [{ id: 'c1', title: 'renamed since', level: 'SHOULD' }]) },
    ])
    expect(renamed.rows[1], 'a row is described as the first report has it').toMatchObject({
      id: 'c1',
      title: 'as first named',
      level: 'MUST',
      differs: false,
    })
  })

  test('where a check first failed: the earliest report by start, the column first on a tie, the time of its first sample', () => {
    const sample = (hour: number) => ({ evidence: { sample: { at: at(hour) } } })
    const { rows } = compareReports([
      { path: 'a.json', report: reportOf(12, [{ id: 'c', status: 'failed', ...sample(12) }]) },
      { path: 'b.json', report: reportOf(9, [{ id: 'c', status: 'passed' }]) },
      { path: 'c.json', report: reportOf(10, [{ id: 'c', status: 'failed', ...sample(10) }]) },
      { path: 'd.json', report: reportOf(10, [{ id: 'c', status: 'failed' }]) },
    ])
    expect(rows.find((r) => r.id === 'c')!.firstFailed).toEqual({ column: 2, startedAt: at(10), at: at(10) })
    const [untimed] = compareReports([
      { path: 'd.json', report: reportOf(10, [{ id: 'c', status: 'failed', evidence: { sample: { at: 5 } } }]) },
    ]).rows.filter((r) => r.kind === 'check')
    expect(untimed!.firstFailed).toEqual({ column: 0, startedAt: at(10) })
    const [withoutSample] = compareReports([
      { path: 'd.json', report: reportOf(10, [{ id: 'c', status: 'failed', evidence: {} }]) },
    ]).rows.filter((r) => r.kind === 'check')
    expect(withoutSample!.firstFailed).toEqual({ column: 0, startedAt: at(10) })
    const [passing] = compareReports([{ path: 'a.json', report: reportOf(10, [{ id: 'c' }]) }]).rows.filter(
      (r) => r.kind === 'check',
    )
    expect(passing).not.toHaveProperty('firstFailed')
    expect(passing).not.toHaveProperty('samples')
  })

  test('samples counted per report only where both counts are whole and not negative', () => {
    const counted = (samples: unknown) => ({ id: 'c', status: 'failed', samples }) as ComparedReport['checks'][number]
    const { rows } = compareReports(
      [
        { showed: 2, of: 5 },
        { showed: 0, of: 0 },
        { showed: -1, of: 5 },
        { showed: 1.5, of: 5 },
        { showed: 1 },
        undefined,
      ].map((samples, i) => ({ path: `${i}.json`, report: reportOf(10, [counted(samples)]) })),
    )
    expect(rows.find((r) => r.id === 'c')!.samples).toEqual([
      { showed: 2, of: 5 },
      { showed: 0, of: 0 },
      null,
      null,
      null,
      null,
    ])
  })
})
