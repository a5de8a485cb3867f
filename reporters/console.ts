import type { CheckOutcome, Report } from './report.js'

/** The closing lines of a run: verdict, counts, failures with their requirement and level, and where the report is. */
export function summaryLines(report: Report, reportPaths: readonly string[]): string[] {
  const { summary } = report
  const lines = [
    `${summary.verdict === 'pass' ? 'PASS' : 'FAIL'}: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped, ${summary.waived} waived (${summary.failedMust} MUST and ${summary.failedShould} SHOULD failures) against ${report.target.baseUrl} in ${report.durationMs} ms, seed ${report.seed}`,
  ]
  for (const check of report.checks.filter((c) => c.status === 'failed')) lines.push(`  failed ${describe(check)}: ${check.reason ?? ''}`)
  for (const error of report.errors) lines.push(`  run error: ${error}`)
  for (const path of reportPaths) lines.push(`report: ${path}`)
  return lines
}

function describe(check: CheckOutcome): string {
  return `${check.id} [${check.requirement}, ${check.level}]`
}
