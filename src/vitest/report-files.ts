import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node'
import type { RunOptions } from '../runner/options.js'
import { findingsOfRun } from '../runner/run-report.js'
import type { RunSession, StopSignal } from '../runner/session.js'
import type { Target } from '../runner/target.js'
import { CheckCollector } from './collector.js'

/**
 * The reporter `npx vitest run` adds (vitest.config.ts): it collects the checks as the CLI does and hands them to the
 * run session, which writes the four report files and exchanges.har, prints the summary, and makes the exit code the
 * verdict's: a failed SHOULD check alone does not fail the run. On SIGINT or SIGTERM, vitest ends the process a
 * millisecond later: the session writes the reports of the checks ended so far at once, marked interrupted.
 */
export class ReportFiles implements Reporter {
  private collector: CheckCollector
  private startedAt = new Date()
  private signals: { release(): void } | undefined

  constructor(
    private readonly target: Target,
    private readonly options: RunOptions,
    private readonly session: RunSession,
  ) {
    this.collector = this.newCollector()
  }

  onTestRunStart(): void {
    this.collector = this.newCollector()
    this.startedAt = new Date()
    this.signals = this.session.stopOnSignals((by) => this.publishInterrupted(by))
  }

  onTestCaseResult(testCase: TestCase): void {
    this.collector.onTestCaseResult(testCase)
  }

  async onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): Promise<void> {
    this.signals?.release()
    this.collector.onTestRunEnd(testModules, unhandledErrors)
    const report = this.session.report(
      findingsOfRun({ ...this.target, startedAt: this.startedAt }, this.collector, this.options),
    )
    const harPath = await this.target.writeHar()
    // vitest has already set exit code 1 for any failed test; the verdict decides instead, as it does for the CLI.
    process.exitCode = await this.session.publish(report, harPath ? { path: harPath } : undefined)
  }

  private publishInterrupted(by: StopSignal): void {
    this.collector.interruptedBy({ by, at: new Date().toISOString() })
    const report = this.session.report(
      findingsOfRun({ ...this.target, startedAt: this.startedAt }, this.collector, this.options),
    )
    try {
      process.exitCode = this.session.publishNow(report)
    } catch (error) {
      process.stderr.write(`ipts-conformance: ${(error as Error).message}\n`)
    }
  }

  private newCollector(): CheckCollector {
    return new CheckCollector(undefined, this.target.settings.profile, this.options.only)
  }
}
