import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node'
import { exchangeRules } from '../src/checks/every-response.js'
import { requirementById } from '../src/contract/requirements.js'
import type { Evidence } from '../src/harness/evidence.js'
import type { Observations } from '../src/harness/observations.js'
import type { CheckOutcome } from './report.js'

const VIOLATIONS_KEPT_PER_RULE = 5
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
    const observations: Observations[] = []
    for (const module of testModules) {
      for (const error of module.errors()) this.errors.push(`${module.moduleId}: ${error.message}`)
      for (const testCase of module.children.allTests()) {
        const outcome = outcomeOf(testCase)
        if (!outcome) continue
        this.outcomes.push(outcome)
        const seen = testCase.meta().observations
        if (seen) observations.push(seen)
      }
    }
    for (const error of unhandledErrors) this.errors.push(`unhandled error: ${error.message}`)
    this.outcomes.push(...exchangeRuleOutcomes(observations))
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
    level: requirementById(meta.requirement).level,
    concern: meta.concern ?? testCase.module.moduleId,
    status: result.state,
    durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
  }
  if (meta.retried) outcome.retried = true
  if (meta.crashed) outcome.crashed = true
  // Every skip of the harness carries a note; a skip without one is a check that --check left out.
  if (result.state === 'skipped') outcome.reason = result.note || NOT_SELECTED
  if (result.state === 'failed') {
    outcome.reason = meta.evidence?.message ?? result.errors?.[0]?.message
    if (meta.evidence) outcome.evidence = meta.evidence
  }
  return outcome
}

function exchangeRuleOutcomes(observations: readonly Observations[]): CheckOutcome[] {
  return exchangeRules.map((rule) => {
    let applied = 0
    const violations: Evidence[] = []
    let violated = 0
    for (const seen of observations) {
      const entry = seen[rule.id]
      if (!entry) continue
      applied += entry.applied
      violated += entry.violations.length
      violations.push(...entry.violations.slice(0, VIOLATIONS_KEPT_PER_RULE - violations.length))
    }
    const outcome: CheckOutcome = {
      id: rule.id,
      title: rule.title,
      requirement: rule.requirement,
      level: requirementById(rule.requirement).level,
      concern: 'every-response',
      status: violations.length > 0 ? 'failed' : applied > 0 ? 'passed' : 'skipped',
    }
    if (outcome.status === 'skipped') outcome.reason = rule.notApplicable
    if (outcome.status === 'failed') {
      outcome.reason = `${violated === 1 ? 'one response' : `at least ${violated} responses`} of ${applied}: ${violations[0]!.message}`
      outcome.evidence = { ...violations[0]!, message: outcome.reason }
      if (violations.length > 1) outcome.evidence.others = violations.slice(1)
    }
    return outcome
  })
}
