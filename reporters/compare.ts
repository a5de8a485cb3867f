import { readFile } from 'node:fs/promises'
import { packageJson } from '../src/core/package-root.js'
import { UsageError } from '../src/core/errors.js'
import type { CheckOutcome, Report, Resampling } from '../src/core/report.js'

/**
 * What compare reads of each report.json: enough to label its column and give each check and requirement its outcome.
 */
export interface ComparedReport {
  target: Report['target']
  startedAt: string
  summary: { verdict: 'pass' | 'fail'; failedMust: number; failedShould: number }
  checks: (Pick<CheckOutcome, 'id' | 'title' | 'requirement' | 'level' | 'status' | 'samples'> & {
    evidence?: { sample?: { at?: unknown } }
  })[]
  requirements: { id: string; level: string; status: string }[]
  resampling?: Resampling
}

/** What a column says of the reads after its report's checks: the last sweep, or a soak's rounds. */
export type ColumnResampling = Pick<Resampling, 'kind' | 'rounds' | 'requests' | 'durationMs'>

export interface ComparisonColumn {
  /** Target and time, as the column heads; the file when two columns would otherwise read alike. */
  label: string
  path: string
  target: string
  startedAt: string
  verdict: 'pass' | 'fail'
  failedMust: number
  failedShould: number
  resampling?: ColumnResampling
}

/** Where a check first failed over the reports, in the order of their start: its column, and when. */
export interface FirstFailure {
  column: number
  /** When that report's run started. */
  startedAt: string
  /** When the first sample that showed it was sent, where that report says so. */
  at?: string
}

export interface ComparisonRow {
  kind: 'check' | 'requirement'
  id: string
  /** For a check, the requirement it cites; for a requirement, its level. */
  requirement?: string
  level: string
  title?: string
  /** True when the reports do not all agree on this row. */
  differs: boolean
  /** One per column, in column order; null where that report has no such row. */
  outcomes: (string | null)[]
  /**
   * For a check any report judged over many samples: per column, how many samples showed its violation of how many
   * (a failed every-response rule or relation), null where that report does not count them (it passed, or is older).
   */
  samples?: (CheckOutcome['samples'] | null)[]
  /** For a check that failed in any report: the earliest report, by start, in which it failed. */
  firstFailed?: FirstFailure
}

/** compare.json: several runs side by side (specs/compare.schema.json). */
export interface Comparison {
  tool: { name: string; version: string }
  columns: ComparisonColumn[]
  summary: { reports: number; rows: number; differing: number }
  /** Requirements and checks, the rows that differ first, each group in the order of the first report that has them. */
  rows: ComparisonRow[]
}

/** Reads one report.json for compare; anything else is a usage error naming the file. */
export async function readComparedReport(path: string): Promise<ComparedReport> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new UsageError(`compare: cannot read ${path} (${(error as { code?: string }).code ?? 'error'})`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`compare: ${path} is not JSON (${(error as Error).message.split('\n')[0]})`)
  }
  const missing = missingMember(parsed)
  if (missing) throw new UsageError(`compare: ${path} is not a report.json of this tool (${missing})`)
  return parsed as ComparedReport
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
const hasStrings = (value: unknown, ...names: string[]) =>
  isObject(value) && names.every((name) => typeof value[name] === 'string')

function missingMember(report: unknown): string | undefined {
  if (!isObject(report)) return 'not an object'
  if (!isObject(report.tool) || report.tool.name !== packageJson.name) return `tool.name is not ${packageJson.name}`
  if (!hasStrings(report.target, 'baseUrl')) return 'no target.baseUrl'
  if (typeof report.startedAt !== 'string') return 'no startedAt'
  if (!isObject(report.summary) || (report.summary.verdict !== 'pass' && report.summary.verdict !== 'fail'))
    return 'no summary.verdict'
  if (
    !Array.isArray(report.checks) ||
    !report.checks.every((c) => hasStrings(c, 'id', 'requirement', 'level', 'status'))
  )
    return 'no checks list of {id, requirement, level, status}'
  if (!Array.isArray(report.requirements) || !report.requirements.every((r) => hasStrings(r, 'id', 'level', 'status')))
    return 'no requirements list of {id, level, status}'
  return undefined
}

/** Lines up the reports: one column each, one row per requirement and per check, the rows that differ first. */
export function compareReports(inputs: readonly { path: string; report: ComparedReport }[]): Comparison {
  const labels = inputs.map(
    ({ report }) =>
      `${report.target.baseUrl}${report.target.switchedOn?.length ? ` (${report.target.switchedOn.join(', ')})` : ''} @ ${report.startedAt}`,
  )
  const columns = inputs.map(({ path, report }, i) => ({
    label: labels.indexOf(labels[i]!) === labels.lastIndexOf(labels[i]!) ? labels[i]! : `${labels[i]} (${path})`,
    path,
    target: report.target.baseUrl,
    startedAt: report.startedAt,
    verdict: report.summary.verdict,
    failedMust: report.summary.failedMust,
    failedShould: report.summary.failedShould,
    ...(isObject(report.resampling) ? { resampling: columnResampling(report.resampling) } : {}),
  }))
  const requirementRows = rowsOf(
    inputs.map(({ report }) => report.requirements),
    (r) => ({ kind: 'requirement' as const, id: r.id, level: r.level }),
  )
  const checkRows = rowsOf(
    inputs.map(({ report }) => report.checks),
    (c) => ({ kind: 'check' as const, id: c.id, requirement: c.requirement, level: c.level, title: c.title }),
  ).map((row) => ({ ...row, ...overTime(row.id, inputs) }))
  const all = [...requirementRows, ...checkRows]
  const rows = [...all.filter((row) => row.differs), ...all.filter((row) => !row.differs)]
  return {
    tool: { name: packageJson.name, version: packageJson.version },
    columns,
    summary: { reports: inputs.length, rows: rows.length, differing: rows.filter((r) => r.differs).length },
    rows,
  }
}

const columnResampling = ({ kind, rounds, requests, durationMs }: Resampling): ColumnResampling => ({
  kind,
  rounds,
  requests,
  durationMs,
})

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0

/**
 * A check over the reports in the order of their start, as a user watching a deployment reads them: where it first
 * failed and when its first sample came there, and per report how many samples showed it of how many.
 */
function overTime(
  id: string,
  inputs: readonly { report: ComparedReport }[],
): Pick<ComparisonRow, 'samples' | 'firstFailed'> {
  const checks = inputs.map(({ report }) => report.checks.find((check) => check.id === id))
  const samples = checks.map((check) =>
    isCount(check?.samples?.showed) && isCount(check.samples.of)
      ? { showed: check.samples.showed, of: check.samples.of }
      : null,
  )
  // Stable: of reports that started at the same time, the first column first.
  const failed = checks
    .flatMap((check, column) =>
      check?.status === 'failed' ? [{ check, column, startedAt: inputs[column]!.report.startedAt }] : [],
    )
    .sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt))
  const first = failed[0]
  const at = first?.check.evidence?.sample?.at
  return {
    ...(samples.some((counted) => counted !== null) ? { samples } : {}),
    ...(first
      ? {
          firstFailed: {
            column: first.column,
            startedAt: first.startedAt,
            ...(typeof at === 'string' ? { at } : {}),
          },
        }
      : {}),
  }
}

function rowsOf<T extends { id: string; status: string }>(
  lists: readonly (readonly T[])[],
  describe: (item: T) => Omit<ComparisonRow, 'differs' | 'outcomes'>,
): ComparisonRow[] {
  const byId = new Map<string, Omit<ComparisonRow, 'differs' | 'outcomes'>>()
  for (const list of lists) for (const item of list) if (!byId.has(item.id)) byId.set(item.id, describe(item))
  return [...byId].map(([id, row]) => {
    const outcomes = lists.map((list) => list.find((item) => item.id === id)?.status ?? null)
    return { ...row, differs: outcomes.some((o) => o !== outcomes[0]), outcomes }
  })
}
