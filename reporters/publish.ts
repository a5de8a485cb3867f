import { compareWithBaseline, type Baseline } from './baseline.js'
import { summaryLines } from './console.js'
import { colourFor } from './progress.js'
import type { Report } from '../src/core/report.js'
import { writeReports } from './write.js'

export interface Publication {
  reportDir: string
  /** A previous run's report, read before the run so that a bad one stops it early. */
  baseline?: { path: string; report: Baseline }
  env: NodeJS.ProcessEnv
  stdout: NodeJS.WriteStream
  /** The run's exchanges.har, listed with the report files when the run wrote one. */
  harPath?: string
}

/**
 * The end of a run, from the CLI or from `npx vitest run`: the report files written, the baseline compared, the summary
 * printed. Returns the exit code.
 */
export async function publishReport(report: Report, to: Publication): Promise<number> {
  const comparison = to.baseline && compareWithBaseline(to.baseline.report, to.baseline.path, report)
  const paths = [
    ...(await writeReports(report, to.reportDir, comparison, to.env.GITHUB_STEP_SUMMARY || undefined)),
    ...(to.harPath ? [to.harPath] : []),
  ]
  to.stdout.write(`${summaryLines(report, paths, comparison, colourFor(to.stdout, to.env)).join('\n')}\n`)
  return exitCodeOf(report)
}

/**
 * 130 and 143 for a run a SIGINT or a SIGTERM interrupted, whatever the verdict (as a shell reports a process the
 * signal ended); else 0 when the verdict is pass, 1 when not.
 */
export function exitCodeOf(report: Pick<Report, 'summary' | 'interrupted'>): number {
  const signal = report.interrupted?.by
  if (signal === 'SIGINT' || signal === 'SIGTERM') return SIGNAL_EXIT_CODES[signal]
  return report.summary.verdict === 'pass' ? 0 : 1
}

export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const
