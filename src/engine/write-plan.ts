import type { Check } from '../checks/types.js'
import type { RunSettings } from '../core/settings.js'
import { stated } from '../profile/profile.js'

/** What a run may write, said before its first write: the operations it calls and the submissions it sends at most. */
export interface WritePlan {
  /** The profile's write operations, as `name: METHOD path` (and the path of its chained cancellation). */
  operations: string[]
  /** The write checks that will run, each with the most submissions it sends. */
  checks: { id: string; submissions: number }[]
  /** The sum of those, within --max-writes: the most orders the run can create. */
  submissions: number
  maxWrites?: number
}

/**
 * The most submissions a write check sends against the run's profile; 0 for a check that sends none, or a run that may
 * not write.
 */
export function declaredWrites(check: Check, settings: RunSettings): number {
  const operations = settings.profile?.values.writes?.operations
  return check.writes && operations && settings.allowWrites ? check.writes(operations) : 0
}

/**
 * The run's plan of writes: undefined when it sends none (no --allow-writes, no writes in its profile, no write check
 * selected or within --max-writes). Checks are taken in catalogue order while they fit in --max-writes, as the run's
 * budget takes them.
 */
export function writePlan(
  checks: readonly Check[],
  settings: RunSettings,
  only?: readonly string[],
): WritePlan | undefined {
  if (!settings.allowWrites || !stated(settings.profile, 'writes')) return undefined
  const budget = new WriteBudget(settings.maxWrites)
  const planned = checks
    .filter((check) => !only || only.includes(check.id))
    .map((check) => ({ id: check.id, submissions: declaredWrites(check, settings) }))
    .filter(({ submissions }) => submissions > 0 && budget.take(submissions))
  if (planned.length === 0) return undefined
  const operations = Object.entries(settings.profile!.values.writes!.operations).map(
    ([name, op]) => `${name}: ${op.method} ${op.path}${op.cancels?.path ? ` and ${op.method} ${op.cancels.path}` : ''}`,
  )
  return {
    operations,
    checks: planned,
    submissions: planned.reduce((sum, check) => sum + check.submissions, 0),
    ...(settings.maxWrites === undefined ? {} : { maxWrites: settings.maxWrites }),
  }
}

/** The plan as the lines a run prints before its first write. */
export function writePlanLines(plan: WritePlan): string[] {
  const bound = plan.maxWrites === undefined ? '' : ` (--max-writes ${plan.maxWrites})`
  return [
    `Writes (--allow-writes): ${plan.checks.length} checks send at most ${plan.submissions} submissions${bound}, each of which may create an order, to:`,
    ...plan.operations.map((operation) => `  ${operation}`),
  ]
}

/** --max-writes over a run: a write check takes its declared submissions before it starts, or is skipped. */
export class WriteBudget {
  private left: number

  constructor(readonly max: number | undefined) {
    this.left = max ?? Infinity
  }

  take(submissions: number): boolean {
    if (submissions > this.left) return false
    this.left -= submissions
    return true
  }

  /** Why a check that did not fit is skipped. */
  refusal(submissions: number): string {
    return `skipped: it sends up to ${submissions} submissions, more than the ${this.left} left of --max-writes ${this.max}`
  }
}
