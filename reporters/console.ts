import { comparisonLines, type BaselineComparison } from './baseline.js'
import { oneLine } from './evidence-text.js'
import type { Colour } from './progress.js'
import { levelLabel } from '../src/contract/requirements.js'
import { interruptionLine, provenance, type CheckOutcome, type Report } from '../src/core/report.js'

const FAILURES_LISTED = 20
const plain = (_: Colour, text: string) => text

/** "90 checks and 20 every-response rules": what the counts are counts of, as the progress counts the checks. */
function checksAndRules(checks: readonly CheckOutcome[]): string {
  const rules = checks.filter((c) => c.concern === 'every-response').length
  return `${checks.length - rules} checks and ${rules} every-response rules`
}

/** The closing lines of a run: verdict, counts, failures with their requirement and level, the baseline comparison, and where the reports are. */
export function summaryLines(report: Report, reportPaths: readonly string[], comparison?: BaselineComparison, paint: (colour: Colour, text: string) => string = plain): string[] {
  const { summary } = report
  const verdict = summary.verdict === 'pass' ? paint('green', 'PASS') : paint('red', 'FAIL')
  const lines = [
    `${verdict}: ${summary.passed} passed, ${summary.failed} failed, ${summary.notRun > 0 ? `${summary.notRun} not run, ` : ''}${summary.skipped} skipped, ${summary.waived} waived (${summary.failedMust} MUST and ${summary.failedShould} SHOULD failures) of ${checksAndRules(report.checks)} against ${report.target.baseUrl} in ${report.durationMs} ms, ${provenance(report)}`,
  ]
  const interrupted = interruptionLine(report)
  if (interrupted) lines.unshift(paint('yellow', interrupted))
  const failed = report.checks.filter((c) => c.status === 'failed')
  for (const check of failed.slice(0, FAILURES_LISTED)) lines.push(`  ${check.crashed ? 'crashed' : 'failed'} ${describe(check)}: ${oneLine(check.reason)}`)
  if (failed.length > FAILURES_LISTED) lines.push(`  … and ${failed.length - FAILURES_LISTED} more failures (see the report)`)
  const notRun = report.checks.filter((c) => c.status === 'not run')
  if (notRun.length > 0) lines.push(`  not run: ${notRun.length} checks, ${oneLine(notRun[0]!.reason)}`)
  for (const error of report.errors) lines.push(`  run error: ${error}`)
  if (comparison) lines.push(...comparisonLines(comparison).map((line, i) => (i === 0 ? line : `  ${line}`)))
  for (const path of reportPaths) lines.push(`report: ${path}`)
  return lines
}

function describe(check: CheckOutcome): string {
  return `${check.id} [${check.requirement}, ${levelLabel(check)}]`
}
