import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node'
import type { RunOptions } from '../runner/options.js'
import { reportOfRun } from '../runner/run-report.js'
import type { Target } from '../runner/target.js'
import { CheckCollector } from './collector.js'
import { publishReport, type Publication } from '../../reporters/publish.js'

/**
 * The reporter `npx vitest run` adds (vitest.config.ts): it collects the checks as the CLI does, writes the four
 * report files and exchanges.har, prints the summary, and makes the exit code the verdict's: a failed SHOULD check
 * alone does not fail the run.
 */
export class ReportFiles implements Reporter {
  private collector: CheckCollector
  private startedAt = new Date()

  constructor(
    private readonly target: Target,
    private readonly options: RunOptions,
    private readonly publication: Publication,
  ) {
    this.collector = new CheckCollector(undefined, target.settings.profile)
  }

  onTestRunStart(): void {
    this.collector = new CheckCollector(undefined, this.target.settings.profile)
    this.startedAt = new Date()
  }

  onTestCaseResult(testCase: TestCase): void {
    this.collector.onTestCaseResult(testCase)
  }

  async onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): Promise<void> {
    this.collector.onTestRunEnd(testModules, unhandledErrors)
    const report = reportOfRun({ ...this.target, startedAt: this.startedAt }, this.collector, this.options)
    const harPath = await this.target.writeHar()
    // vitest has already set exit code 1 for any failed test; the verdict decides instead, as it does for the CLI.
    process.exitCode = await publishReport(report, { ...this.publication, harPath })
  }
}
