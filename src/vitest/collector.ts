import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node'
import { checksByConcern } from '../checks/index.js'
import type { CheckOutcome, Interruption } from '../core/report.js'
import type { Profile } from '../profile/profile.js'
import { cutOff, notSelected, ObservationTally, runOutcomes } from '../engine/judged-outcomes.js'
import { exchangeJudges } from '../engine/judges.js'
import { addResponses, type ResponsesSeen } from '../engine/responses-seen.js'

const catalogue = Object.entries(checksByConcern).flatMap(([concern, checks]) =>
  checks.map((check) => ({ check, concern })),
)
const checkById = new Map<string, (typeof catalogue)[number]>(catalogue.map((entry) => [entry.check.id, entry]))

/** A check's outcome, and the test that ran it (what its run's observer found is in the test's meta). */
interface Ended {
  outcome: CheckOutcome
  testCase?: TestCase
}

/**
 * A vitest reporter that gathers the engine's outcome of each test, with what the run's observer found in every
 * exchange.
 */
export class CheckCollector implements Reporter {
  readonly outcomes: CheckOutcome[] = []
  readonly errors: string[] = []
  readonly responses: ResponsesSeen = {}
  /** Set when a signal stopped the run before its end (interruptedBy). */
  interrupted?: Interruption
  /** The tests ended so far, by check ID: what an interrupted run reports as run. */
  private readonly ended = new Map<string, Ended>()

  constructor(
    private readonly onCheck?: (outcome: CheckOutcome) => void,
    /**
     * The run's deployment profile: a rule that holds responses to a fact it does not state is skipped as not
     * assessable.
     */
    private readonly profile?: Profile,
    /** The checks the run selected (--check); undefined: all. */
    private readonly only?: readonly string[],
  ) {}

  onTestCaseResult(testCase: TestCase): void {
    const outcome = outcomeOf(testCase)
    if (!outcome) return
    this.ended.set(outcome.id, { outcome, testCase })
    this.onCheck?.(outcome)
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const ended: Ended[] = []
    for (const module of testModules) {
      for (const error of module.errors()) this.errors.push(`${module.moduleId}: ${error.message}`)
      for (const testCase of module.children.allTests()) {
        const outcome = outcomeOf(testCase)
        if (outcome) ended.push({ outcome, testCase })
      }
    }
    for (const error of unhandledErrors) this.errors.push(`unhandled error: ${error.message}`)
    this.add(ended)
  }

  /**
   * The run stopped before its end (a signal): the checks ended so far as they ended, every other one not run with the
   * interruption's reason, in the catalogue's order. Synchronous, for a signal handler.
   */
  interruptedBy(interruption: Interruption): void {
    this.interrupted = interruption
    const selected = (id: string) => this.only === undefined || this.only.includes(id)
    this.add(
      catalogue.map(
        ({ check, concern }) =>
          this.ended.get(check.id) ?? {
            outcome: selected(check.id) ? cutOff(check, concern, interruption.by) : notSelected(check, concern),
          },
      ),
    )
  }

  /** The outcomes with what the observer found in their tests' exchanges, then the every-response rules. */
  private add(ended: readonly Ended[]): void {
    const tally = new ObservationTally()
    for (const { testCase } of ended) {
      const seen = testCase?.meta().observations
      if (seen) tally.add(seen)
      addResponses(this.responses, testCase?.meta().responses)
    }
    this.outcomes.push(
      ...runOutcomes(
        ended.map(({ outcome }) => outcome),
        tally,
        exchangeJudges(),
        this.profile,
      ),
    )
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
