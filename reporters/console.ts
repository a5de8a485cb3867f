import { comparisonLines, type BaselineComparison } from './baseline.js'
import { oneLine } from './evidence-text.js'
import type { Colour } from './progress.js'
import { levelLabel } from '../src/contract/requirements.js'
import {
  assessedLine,
  interruptionLine,
  resamplingLine,
  provenance,
  type CheckOutcome,
  type Coverage,
  type Report,
} from '../src/core/report.js'

const FAILURES_LISTED = 20
const plain = (_: Colour, text: string) => text

/** "90 checks and 20 every-response rules": what the counts are counts of, as the progress counts the checks. */
function checksAndRules(checks: readonly CheckOutcome[]): string {
  const rules = checks.filter((c) => c.concern === 'every-response').length
  const relations = checks.filter((c) => c.concern === 'relations').length
  const between = relations > 0 ? `, ${relations} relations between responses` : ''
  return `${checks.length - rules - relations} checks and ${rules} every-response rules${between}`
}

/**
 * The closing lines of a run: verdict, counts, failures with their requirement and level, the baseline comparison, and
 * where the reports are.
 */
export function summaryLines(
  report: Report,
  reportPaths: readonly string[],
  comparison?: BaselineComparison,
  paint: (colour: Colour, text: string) => string = plain,
): string[] {
  const { summary } = report
  const verdict = summary.verdict === 'pass' ? paint('green', 'PASS') : paint('red', 'FAIL')
  const lines = [
    `${verdict}: ${summary.passed} passed, ${summary.failed} failed, ${summary.notRun > 0 ? `${summary.notRun} not run, ` : ''}${summary.skipped} skipped, ${summary.waived} waived (${summary.failedMust} MUST and ${summary.failedShould} SHOULD failures) of ${checksAndRules(report.checks)} against ${report.target.baseUrl} in ${report.durationMs} ms, ${provenance(report)}; ${assessedLine(report.coverage.summary)}`,
  ]
  const remedies = remediesLine(report.coverage)
  if (remedies) lines.push(`  ${remedies}`)
  if (report.resampling) lines.unshift(resamplingLine(report.resampling))
  const interrupted = interruptionLine(report)
  if (interrupted) lines.unshift(paint('yellow', interrupted))
  const failed = report.checks.filter((c) => c.status === 'failed')
  for (const check of failed.slice(0, FAILURES_LISTED))
    lines.push(`  ${check.crashed ? 'crashed' : 'failed'} ${describe(check)}: ${oneLine(check.reason)}`)
  if (failed.length > FAILURES_LISTED)
    lines.push(`  … and ${failed.length - FAILURES_LISTED} more failures (see the report)`)
  const notRun = report.checks.filter((c) => c.status === 'not run')
  if (notRun.length > 0) lines.push(`  not run: ${notRun.length} checks, ${oneLine(notRun[0]!.reason)}`)
  for (const error of report.errors) lines.push(`  run error: ${error}`)
  if (comparison) lines.push(...comparisonLines(comparison).map((line, i) => (i === 0 ? line : `  ${line}`)))
  for (const path of reportPaths) lines.push(`report: ${path}`)
  return lines
}

/**
 * What would assess the observable requirements left unassessed, most first, flags that always go together (a hash and
 * its receipt) named together: "not assessed for want of --intent-hash and --intent-receipt (16 requirements), ...".
 */
export function remediesLine(coverage: Coverage): string | undefined {
  const wanting = coverage.requirements.filter((r) => r.observable && !r.assessed)
  const inputs = groupedCounts(wanting.map((r) => ({ id: r.id, named: r.assessedWith?.inputs ?? [] })))
  const keys = groupedCounts(wanting.map((r) => ({ id: r.id, named: r.assessedWith?.profileKeys ?? [] })))
  if (inputs.length === 0 && keys.length === 0) return undefined
  const profile = keys.length > 0 ? `a deployment profile (--profile) that states ${keys.join(', ')}` : ''
  return `not assessed for want of ${[inputs.join(', '), profile].filter(Boolean).join('; and of ')}`
}

/**
 * "--intent-hash and --intent-receipt (16 requirements)": each name with the requirements that want it, names wanted by
 * the same ones together, most first.
 */
function groupedCounts(wanting: readonly { id: string; named: readonly string[] }[]): string[] {
  const wantedBy = new Map<string, string[]>()
  for (const { id, named } of wanting) for (const name of named) wantedBy.set(name, [...(wantedBy.get(name) ?? []), id])
  const groups = new Map<string, string[]>()
  for (const [name, ids] of wantedBy) groups.set(ids.join(' '), [...(groups.get(ids.join(' ')) ?? []), name])
  return [...groups]
    .map(([ids, names]) => ({ names: names.join(' and '), n: ids.split(' ').length }))
    .sort((a, b) => b.n - a.n || a.names.localeCompare(b.names))
    .map(({ names, n }) => `${names} (${n} ${n === 1 ? 'requirement' : 'requirements'})`)
}

function describe(check: CheckOutcome): string {
  return `${check.id} [${check.requirement}, ${levelLabel(check)}]`
}
