import { readFile } from 'node:fs/promises'
import { UsageError } from '../src/core/errors.js'
import type { CheckStatus, Report } from '../src/core/report.js'

/** What a previous report.json must hold to be compared with: each check's ID and status. */
export interface Baseline {
  startedAt?: string
  checks: { id: string; status: CheckStatus }[]
}

/** How this run differs from the baseline, check by check. */
export interface BaselineComparison {
  path: string
  startedAt?: string
  /** Failed now, and did not fail (or did not exist) in the baseline. */
  newlyFailing: string[]
  /** Failed in the baseline, and do not fail now; with the status they have now. */
  fixed: { id: string; status: CheckStatus }[]
  /** Failed in both. */
  stillFailing: string[]
  /** Same status in both runs, failures included. */
  unchanged: number
  /** Another status now, neither failing nor fixed (passed to skipped, skipped to not run, ...). */
  changed: { id: string; was: CheckStatus; now: CheckStatus }[]
  /** Not in the baseline, and not failing now. */
  added: string[]
}

const STATUSES: readonly string[] = ['passed', 'failed', 'skipped', 'waived', 'not run']

/** Reads a previous report.json; anything unreadable or not shaped like a report is a usage error naming --baseline. */
export async function readBaseline(path: string): Promise<Baseline> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new UsageError(`--baseline: cannot read ${path} (${(error as { code?: string }).code ?? 'error'})`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`--baseline: ${path} is not JSON (${(error as Error).message.split('\n')[0]})`)
  }
  const checks = (parsed as { checks?: unknown } | null)?.checks
  if (!Array.isArray(checks) || !checks.every(isCheckEntry))
    throw new UsageError(`--baseline: ${path} is not a report.json of this tool (no checks list of {id, status})`)
  const startedAt = (parsed as { startedAt?: unknown }).startedAt
  return { startedAt: typeof startedAt === 'string' ? startedAt : undefined, checks }
}

function isCheckEntry(entry: unknown): entry is Baseline['checks'][number] {
  const { id, status } = (entry ?? {}) as Record<string, unknown>
  return typeof id === 'string' && STATUSES.includes(status as string)
}

/** Puts each check of the report in exactly one of newly failing, fixed, unchanged, changed and added. */
export function compareWithBaseline(baseline: Baseline, path: string, report: Report): BaselineComparison {
  const before = new Map(baseline.checks.map((c) => [c.id, c.status]))
  const comparison: BaselineComparison = {
    path,
    startedAt: baseline.startedAt,
    newlyFailing: [],
    fixed: [],
    stillFailing: [],
    unchanged: 0,
    changed: [],
    added: [],
  }
  for (const { id, status } of report.checks) {
    const was = before.get(id)
    if (status === 'failed' && was === 'failed') comparison.stillFailing.push(id)
    if (status === was) comparison.unchanged++
    else if (status === 'failed') comparison.newlyFailing.push(id)
    else if (was === 'failed') comparison.fixed.push({ id, status })
    else if (was === undefined) comparison.added.push(id)
    else comparison.changed.push({ id, was, now: status })
  }
  return comparison
}

/** The comparison in a few lines, for the console and report.md. */
export function comparisonLines(comparison: BaselineComparison): string[] {
  const list = (ids: readonly string[]) => (ids.length > 0 ? `: ${ids.join(', ')}` : '')
  const fixed = comparison.fixed.map((f) => (f.status === 'passed' ? f.id : `${f.id} (now ${f.status})`))
  return [
    `compared with ${comparison.path}${comparison.startedAt ? ` (run of ${comparison.startedAt})` : ''}:`,
    `newly failing ${comparison.newlyFailing.length}${list(comparison.newlyFailing)}`,
    `fixed ${fixed.length}${list(fixed)}`,
    `unchanged ${comparison.unchanged}, of which still failing ${comparison.stillFailing.length}${list(comparison.stillFailing)}`,
    `otherwise changed ${comparison.changed.length}${list(comparison.changed.map((c) => `${c.id} (${c.was} → ${c.now})`))}`,
    `not in the baseline ${comparison.added.length}${list(comparison.added)}`,
  ]
}
