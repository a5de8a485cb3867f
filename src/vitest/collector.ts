import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node'
import { checksByConcern } from '../checks/index.js'
import type { CheckOutcome } from '../core/report.js'
import type { Profile } from '../profile/profile.js'
import { notSelected, ObservationTally, runOutcomes } from '../engine/judged-outcomes.js'
import { exchangeJudges } from '../engine/judges.js'
import { addResponses, type ResponsesSeen } from '../engine/responses-seen.js'

const checkById = new Map(
  Object.entries(checksByConcern).flatMap(([concern, checks]) =>
    checks.map((check) => [check.id, { check, concern }] as const),
  ),
)

/**
 * A vitest reporter that gathers the engine's outcome of each test, with what the run's observer found in every
 * exchange.
 */
export class CheckCollector implements Reporter {
  readonly outcomes: CheckOutcome[] = []
  readonly errors: string[] = []
  readonly responses: ResponsesSeen = {}

  constructor(
    private readonly onCheck?: (outcome: CheckOutcome) => void,
    /**
     * The run's deployment profile: a rule that holds responses to a fact it does not state is skipped as not
     * assessable.
     */
    private readonly profile?: Profile,
  ) {}

  onTestCaseResult(testCase: TestCase): void {
    const outcome = outcomeOf(testCase)
    if (outcome) this.onCheck?.(outcome)
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const tally = new ObservationTally()
    const checks: CheckOutcome[] = []
    for (const module of testModules) {
      for (const error of module.errors()) this.errors.push(`${module.moduleId}: ${error.message}`)
      for (const testCase of module.children.allTests()) {
        const outcome = outcomeOf(testCase)
        if (!outcome) continue
        checks.push(outcome)
        const seen = testCase.meta().observations
        if (seen) tally.add(seen)
        addResponses(this.responses, testCase.meta().responses)
      }
    }
    for (const error of unhandledErrors) this.errors.push(`unhandled error: ${error.message}`)
    this.outcomes.push(...runOutcomes(checks, tally, exchangeJudges(), this.profile))
  }
}

/** The engine's outcome; a test that vitest left out (--check, through its name pattern) is a check not selected. */
function outcomeOf(testCase: TestCase): CheckOutcome | undefined {
  const result = testCase.result()
  if (result.state === 'pending') return undefined
  const { outcome, checkId } = testCase.meta()
  if (outcome) return outcome
  const listed = checkById.get(checkId ?? '')
  if (!listed || result.state !== 'skipped') return undefined
  return notSelected(listed.check, listed.concern)
}
