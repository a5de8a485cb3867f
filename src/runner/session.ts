import { compareWithBaseline, readBaseline, type Baseline } from '../../reporters/baseline.js'
import { summaryLines } from '../../reporters/console.js'
import { colourFor } from '../../reporters/progress.js'
import { writeReportsNow } from '../../reporters/write.js'
import type { CheckOutcome, Report } from '../core/report.js'
import { reportOf, type ReportParts } from '../engine/report-of.js'
import { redact, type Secret } from '../http/secrets.js'
import type { Waiver } from './options.js'

/** A process a signal ended exits 128 + the signal's number, as a shell reports it. */
export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const
export type StopSignal = keyof typeof SIGNAL_EXIT_CODES

/** What the engine found, or what the judgement of recorded traffic found: a report's parts but how they are judged. */
export type Findings = Omit<ReportParts, 'strict' | 'minAssessed'>

/** How the findings are judged: the same for a run, recorded traffic, `npx vitest run` and the API. */
export interface Judging {
  strict?: boolean
  /** The share of the observable requirements, in percent, the report must assess, else it fails (--min-assessed). */
  minAssessed?: number
  waivers?: readonly Waiver[]
}

/** Where and how a front end's report is shared: the report folder, the baseline, the console. */
export interface Publishing {
  reportDir: string
  /** A previous run's report.json (--baseline). */
  baseline?: string
  /** NO_COLOR, GITHUB_STEP_SUMMARY. */
  env: NodeJS.ProcessEnv
  stdout: NodeJS.WriteStream
}

/**
 * One run's ending, the same whatever front end started it (a run, check-har, the proxy, `npx vitest run`, the API):
 * the findings become the report once (waivers, coverage, verdict, secrets as placeholders), and the report is shared
 * once (the report files, the baseline compared, the summary in colour on a terminal, the exit code). It also turns
 * SIGINT and SIGTERM into a stop the front end passes to what it runs, and keeps secrets out of an error's message. A
 * front end parses its inputs, runs or judges, and prints its own progress; everything after is here.
 */
export class RunSession {
  private stoppedBy: StopSignal | undefined

  private constructor(
    private readonly judging: Judging,
    private readonly publishing: Publishing | undefined,
    private readonly baseline: { path: string; report: Baseline } | undefined,
  ) {}

  /** A session that shares its report: the baseline is read now, so that a bad one stops the run before it starts. */
  static async open(judging: Judging, publishing: Publishing): Promise<RunSession> {
    const baseline =
      publishing.baseline === undefined
        ? undefined
        : { path: publishing.baseline, report: await readBaseline(publishing.baseline) }
    return new RunSession(judging, publishing, baseline)
  }

  /** A session that only judges: the API returns the report and writes nothing. */
  static judgingOnly(judging: Judging): RunSession {
    return new RunSession(judging, undefined, undefined)
  }

  /**
   * The report of the findings: the waivers applied, summarised into a verdict, traced to the requirements, its
   * coverage, secrets as placeholders.
   */
  report(findings: Findings): Report {
    const { strict = false, minAssessed, waivers = [] } = this.judging
    return reportOf({ ...findings, strict, minAssessed, checks: applyWaivers(findings.checks, waivers) })
  }

  /**
   * Writes the report files (and the HAR, when the front end has one to write after them), compares with the baseline,
   * prints the summary and returns the exit code.
   */
  async publish(report: Report, har?: { path: string; write?(): Promise<unknown> }): Promise<number> {
    const paths = this.writeFiles(report)
    await har?.write?.()
    return this.printSummary(report, har ? [...paths, har.path] : paths)
  }

  /** publish, synchronously and without a HAR still to write: what a signal handler can do before the process ends. */
  publishNow(report: Report, harPath?: string): number {
    const paths = this.writeFiles(report)
    return this.printSummary(report, harPath ? [...paths, harPath] : paths)
  }

  /**
   * SIGINT and SIGTERM (Ctrl-C, a CI cancel) stop what the front end runs: the returned signal aborts with the signal's
   * name as its reason, onStop (if any) is called at once, and the exit code becomes the signal's. A second signal
   * ends the process at once. release() removes the handlers.
   */
  stopOnSignals(onStop?: (by: StopSignal) => void): { signal: AbortSignal; release(): void } {
    const stop = new AbortController()
    const onSignal = (name: StopSignal) => {
      if (stop.signal.aborted) process.exit(SIGNAL_EXIT_CODES[name])
      process.stderr.write(
        `ipts-conformance: ${name}: stopping; writing the reports of what ran (send it again to quit at once)\n`,
      )
      this.stoppedBy = name
      stop.abort(name)
      onStop?.(name)
    }
    const onInt = () => onSignal('SIGINT')
    const onTerm = () => onSignal('SIGTERM')
    process.on('SIGINT', onInt).on('SIGTERM', onTerm)
    const launcher = watchNpmLauncher(() => stop.signal.aborted)
    return {
      signal: stop.signal,
      release: () => {
        clearInterval(launcher)
        process.off('SIGINT', onInt).off('SIGTERM', onTerm)
      },
    }
  }

  /**
   * 130 and 143 when a SIGINT or a SIGTERM stopped it (as a shell reports a process the signal ended), whatever the
   * verdict; else 0 when the verdict is pass, 1 when not.
   */
  exitCode(report: Pick<Report, 'summary' | 'interrupted'>): number {
    const by = report.interrupted?.by
    const signal = by === 'SIGINT' || by === 'SIGTERM' ? by : this.stoppedBy
    if (signal) return SIGNAL_EXIT_CODES[signal]
    return report.summary.verdict === 'pass' ? 0 : 1
  }

  private writeFiles(report: Report): string[] {
    const to = this.published()
    const comparison = this.comparison(report)
    return writeReportsNow(report, to.reportDir, comparison, to.env.GITHUB_STEP_SUMMARY || undefined)
  }

  private printSummary(report: Report, paths: readonly string[]): number {
    const to = this.published()
    to.stdout.write(
      `${summaryLines(report, paths, this.comparison(report), colourFor(to.stdout, to.env)).join('\n')}\n`,
    )
    return this.exitCode(report)
  }

  private comparison(report: Report) {
    return this.baseline && compareWithBaseline(this.baseline.report, this.baseline.path, report)
  }

  private published(): Publishing {
    if (!this.publishing) throw new Error('this session only judges: it has no report folder to publish to')
    return this.publishing
  }
}

/** How often a process npm launched looks whether its launcher is still there. */
const LAUNCHER_POLL_MS = 250

/**
 * npx and npm scripts run a command through `sh -c`, and pass SIGINT and SIGTERM on to that shell only. A shell that
 * does not exec its command (dash: Debian's and Ubuntu's /bin/sh) ends on the signal and leaves this process running,
 * told nothing, while npx exits with the signal. So a process npm launched (npm_lifecycle_event set) takes the end of
 * the process that started it for that signal: it raises SIGTERM on itself, unless it is already stopping (a Ctrl-C in
 * a terminal reaches it directly). Without npm nothing is watched: a run under nohup outlives its terminal.
 */
function watchNpmLauncher(stopping: () => boolean): NodeJS.Timeout | undefined {
  if (process.env.npm_lifecycle_event === undefined) return undefined
  const launcher = process.ppid
  const watch = setInterval(() => {
    if (process.ppid === launcher || stopping()) return
    clearInterval(watch)
    process.kill(process.pid, 'SIGTERM')
  }, LAUNCHER_POLL_MS)
  return watch.unref()
}

/**
 * Runs a front end's work; an error it throws reaches the console without the keys and receipts given to the run, or
 * learned from its traffic by then (secrets is asked when the error comes).
 */
export async function withSecretsRedacted<T>(secrets: () => readonly Secret[], work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof Error) error.message = redact(error.message, secrets())
    throw error
  }
}

function applyWaivers(outcomes: readonly CheckOutcome[], waivers: readonly Waiver[]): CheckOutcome[] {
  return outcomes.map((outcome) => {
    const waiver = waivers.find((w) => w.check === outcome.id)
    return waiver
      ? {
          ...outcome,
          status: 'waived',
          waiver: { reason: waiver.reason, outcome: outcome.status as 'passed' | 'failed' | 'skipped' | 'not run' },
        }
      : outcome
  })
}
