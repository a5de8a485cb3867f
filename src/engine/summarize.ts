import {
  belowMinimum,
  type CheckOutcome,
  type CheckStatus,
  type CoverageSummary,
  type Summary,
} from '../core/report.js'

/**
 * The run's verdict from its outcomes: a failed MUST, a failed SHOULD when strict, a check the circuit breaker left not
 * run, an error of the run, or less assessed than --min-assessed asks for fails it. A check the run's own interruption
 * cut off (a signal, --max-duration) is counted not run but fails nothing: the verdict is that of what ran. The one
 * place that decides it, whatever started the run.
 */
export function summarize(
  checks: readonly CheckOutcome[],
  strict: boolean,
  errors: readonly string[],
  coverage?: CoverageSummary,
): Summary {
  const count = (status: CheckStatus) => checks.filter((c) => c.status === status).length
  const failedMust = checks.filter((c) => c.status === 'failed' && c.level === 'MUST').length
  const failedShould = checks.filter((c) => c.status === 'failed' && c.level === 'SHOULD').length
  const notRun = count('not run')
  const notRunByTarget = checks.filter((c) => c.status === 'not run' && !c.interrupted).length
  const failing =
    failedMust > 0 ||
    (strict && failedShould > 0) ||
    notRunByTarget > 0 ||
    errors.length > 0 ||
    (coverage !== undefined && belowMinimum(coverage))
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
