import type { CheckOutcome, CheckStatus, Summary } from '../core/report.js'

/** The run's verdict from its outcomes: a failed MUST, a failed SHOULD when strict, a check not run or an error of the run fails it. */
export function summarize(checks: readonly CheckOutcome[], strict: boolean, errors: readonly string[]): Summary {
  const count = (status: CheckStatus) => checks.filter((c) => c.status === status).length
  const failedMust = checks.filter((c) => c.status === 'failed' && c.level === 'MUST').length
  const failedShould = checks.filter((c) => c.status === 'failed' && c.level === 'SHOULD').length
  const notRun = count('not run')
  const failing = failedMust > 0 || (strict && failedShould > 0) || notRun > 0 || errors.length > 0
  return {
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    waived: count('waived'),
    notRun,
    total: checks.length,
    failedMust,
    failedShould,
    verdict: failing ? 'fail' : 'pass',
  }
}
