import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node'
import { exchangeRules } from '../src/checks/every-response.js'
import { levelOf, ObservationTally } from './judged-outcomes.js'
import type { CheckOutcome } from './report.js'

/** The reason of a check skipped without a note of its own: only --check leaves checks out that way. */
export const NOT_SELECTED = 'not selected by --check'

/** A vitest reporter that turns the run's test cases into check outcomes, and the every-response observations into theirs. */
export class CheckCollector implements Reporter {
  readonly outcomes: CheckOutcome[] = []
  readonly errors: string[] = []

  constructor(private readonly onCheck?: (outcome: CheckOutcome) => void) {}

  onTestCaseResult(testCase: TestCase): void {
    const outcome = outcomeOf(testCase)
    if (outcome) this.onCheck?.(outcome)
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const tally = new ObservationTally()
    for (const module of testModules) {
      for (const error of module.errors()) this.errors.push(`${module.moduleId}: ${error.message}`)
      for (const testCase of module.children.allTests()) {
        const outcome = outcomeOf(testCase)
        if (!outcome) continue
        this.outcomes.push(outcome)
        const seen = testCase.meta().observations
        if (seen) tally.add(seen)
      }
    }
    for (const error of unhandledErrors) this.errors.push(`unhandled error: ${error.message}`)
    this.outcomes.push(...tally.outcomes(exchangeRules.map((rule) => ({ ...rule, concern: 'every-response' }))))
  }
}

function outcomeOf(testCase: TestCase): CheckOutcome | undefined {
  const meta = testCase.meta()
  const result = testCase.result()
  if (!meta.checkId || !meta.requirement || result.state === 'pending') return undefined
  const outcome: CheckOutcome = {
    id: meta.checkId,
    title: testCase.name,
    requirement: meta.requirement,
    ...levelOf(meta.requirement),
    concern: meta.concern ?? testCase.module.moduleId,
    status: result.state,
    durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
  }
  if (meta.retried) outcome.retried = true
  if (meta.crashed) outcome.crashed = true
  if (meta.inputs) outcome.inputs = { coverage: meta.inputs.coverage ?? 0, random: meta.inputs.random ?? 0 }
  // Every skip of the harness carries a note; a skip without one is a check that --check left out.
  if (result.state === 'skipped') outcome.reason = result.note || NOT_SELECTED
  if (result.state === 'skipped' && meta.notRun) {
    outcome.status = 'not run'
    if (meta.evidence) outcome.evidence = meta.evidence
  }
  if (result.state === 'failed') {
    outcome.reason = meta.evidence?.message ?? result.errors?.[0]?.message
    if (meta.evidence) outcome.evidence = meta.evidence
  }
  return outcome
}
