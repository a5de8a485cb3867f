import fc from 'fast-check'
import type { CheckContext } from './types.js'
import type { Exchange } from '../http/exchange.js'
import type { CoverageCase } from '../generators/coverage.js'

/** What one generated input showed against the property, with the exchange that shows it. */
export interface Breach {
  problem: string
  exchange?: Exchange
}

export interface PropertyOptions<T> {
  /**
   * Inputs that cannot be judged (an HTTP client cannot send them, say) are skipped and counted; `why` says what they
   * were.
   */
  skip?: { test(value: T): boolean; why: string }
  /** The fixed coverage phase: examined in full before the random phase, the same whatever the seed. */
  coverage?: readonly CoverageCase<T>[]
}

/** A replay path that names a coverage case instead of a fast-check path: `coverage:<index>`. */
const COVERAGE_PATH = /^coverage:(\d+)$/

export function coveragePath(index: number): string {
  return `coverage:${index}`
}

/**
 * Property executions allowed per run of settings.runs: after the runs themselves, the rest go to shrinking a
 * failure, so that a property sends at most runs × this many requests per request it makes for one input.
 */
const EXECUTIONS_PER_RUN = 4

/**
 * Checks `examine` first for every fixed coverage case, then for `settings.runs` generated inputs from `settings.seed`
 * (or replays the one input at `settings.replayPath`), and fails the check with the first failing coverage case, or
 * the shrunk counterexample, the seed and the path.
 */
export async function checkProperty<T>(
  ctx: CheckContext,
  arbitrary: fc.Arbitrary<T>,
  examine: (value: T) => Promise<Breach | undefined>,
  options: PropertyOptions<T> = {},
): Promise<void> {
  // Stryker disable next-line StringLiteral: equivalent: any text but coverage:<index> matches no coverage case
  const replayedCase = COVERAGE_PATH.exec(ctx.settings.replayPath ?? '')
  if (replayedCase || ctx.settings.replayPath === undefined) {
    await coveragePhase(ctx, examine, options, replayedCase ? Number(replayedCase[1]) : undefined)
    if (replayedCase) return
  }
  await randomPhase(ctx, arbitrary, examine, options)
}

/**
 * Examines every coverage case concurrently (within the client's bound) and fails with the first breach in the list's
 * order, so that the verdict and its evidence do not depend on which answer came first.
 */
async function coveragePhase<T>(
  ctx: CheckContext,
  examine: (value: T) => Promise<Breach | undefined>,
  options: PropertyOptions<T>,
  only?: number,
): Promise<void> {
  const all = (options.coverage ?? []).map((entry, index) => ({ ...entry, index }))
  const chosen = only === undefined ? all : all.filter((entry) => entry.index === only)
  if (only !== undefined && chosen.length === 0)
    ctx.fail(`--replay-path ${coveragePath(only)} names no coverage case: this check has ${all.length}`)
  const judged = chosen.filter((entry) => !options.skip?.test(entry.value))
  const skipped = chosen.length - judged.length
  ctx.countInputs('coverage', judged.length)
  // Every case is awaited, so that an input whose read was not assessed (every attempt a transient 5xx) does not hide
  // another's breach.
  const settled = await Promise.allSettled(judged.map((entry) => examine(entry.value)))
  const breaches = settled.map((result) => (result.status === 'fulfilled' ? result.value : undefined))
  const at = breaches.findIndex((breach) => breach !== undefined)
  if (at < 0) {
    const lost = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected')
    if (lost) throw lost.reason
    return
  }
  const { label, value, index } = judged[at]!
  const breach = breaches[at]!
  const skippedNote = skipped > 0 ? `; ${skipped} coverage inputs skipped (${options.skip!.why})` : ''
  const path = coveragePath(index)
  const message = `${breach.problem}; coverage input ${index} (${label}) ${shown(value)} (fixed coverage phase, the same for every seed; path ${path}${skippedNote})`
  ctx.fail(message, {
    exchange: breach.exchange,
    counterexample: { seed: ctx.settings.seed, path, value, runs: judged.length },
  })
}

async function randomPhase<T>(
  ctx: CheckContext,
  arbitrary: fc.Arbitrary<T>,
  examine: (value: T) => Promise<Breach | undefined>,
  options: PropertyOptions<T>,
): Promise<void> {
  const { seed, runs, replayPath } = ctx.settings
  const budget = runs * EXECUTIONS_PER_RUN
  let skipped = 0
  let lastBreach: Breach | undefined
  let aborted: unknown
  const examined = prefetch(arbitrary, examine, ctx.settings, options)
  // Every examination counts against the budget, those made up front included.
  let executions = [...examined.values()].reduce((sum, answers) => sum + answers.length, 0)
  const property = fc.asyncProperty(arbitrary, async (value) => {
    if (options.skip?.test(value)) {
      skipped++
      fc.pre(false)
    }
    // Stryker disable next-line BooleanLiteral: equivalent: the abort is thrown whatever fast-check concludes
    if (aborted !== undefined) return true
    const answer = examined.get(fc.stringify(value))?.shift()
    // Past the budget: the smallest failure so far stands.
    if (answer === undefined && ++executions > budget) return true
    try {
      const breach = await (answer ?? examine(value))
      if (breach) lastBreach = breach
      return breach === undefined
    } catch (error) {
      aborted = error
      // Stryker disable next-line BooleanLiteral: equivalent: the abort is thrown whatever fast-check concludes
      return true
    }
  })
  const details = await fc.check(property, {
    seed,
    numRuns: runs,
    ...(replayPath === undefined ? {} : { path: replayPath, endOnFailure: true }),
  })
  ctx.countInputs('random', Math.min(executions, budget))
  if (aborted !== undefined) throw aborted
  if (!details.failed) return
  const skippedNote = skipped > 0 ? `; ${skipped} generated inputs skipped (${options.skip!.why})` : ''
  // A run that failed recorded its breach; without one every input was skipped, and fast-check has no counterexample.
  if (!lastBreach) {
    ctx.fail(`the property could not be checked: ${details.numSkips} generated inputs skipped${skippedNote}`)
  }
  const [value] = details.counterexample as [T]
  const path = details.counterexamplePath!
  const message = `${lastBreach!.problem}; generated input ${fc.stringify(value)} (after ${details.numRuns} runs, shrunk ${details.numShrinks} times; seed ${seed}, path ${path}${skippedNote})`
  ctx.fail(message, { exchange: lastBreach!.exchange, counterexample: { seed, path, value, runs: details.numRuns } })
}

const SHOWN_VALUE_CHARS = 200

/** A value as a message shows it: whole when short, else its start and its length (the evidence keeps it whole). */
function shown(value: unknown): string {
  const text = fc.stringify(value)
  return text.length <= SHOWN_VALUE_CHARS ? text : `${text.slice(0, SHOWN_VALUE_CHARS)}… (${text.length} characters)`
}

/**
 * fast-check runs a property's inputs one after another. The inputs of the first runs are known in advance
 * (fc.sample with the same seed and run count yields the same values as fc.check), so they are examined
 * concurrently up front, within the client's concurrency bound, and the property awaits those answers in order.
 * Shrinking and replays still go one input at a time.
 */
function prefetch<T>(
  arbitrary: fc.Arbitrary<T>,
  examine: (value: T) => Promise<Breach | undefined>,
  settings: { seed: number; runs: number; replayPath?: string },
  options: PropertyOptions<T>,
): Map<string, Promise<Breach | undefined>[]> {
  const examined = new Map<string, Promise<Breach | undefined>[]>()
  if (settings.replayPath !== undefined) return examined
  for (const value of fc.sample(arbitrary, { seed: settings.seed, numRuns: settings.runs })) {
    if (options.skip?.test(value)) continue
    const answer = examine(value)
    // Awaited by the property in its turn; until then a rejection must not count as unhandled.
    answer.catch(() => undefined)
    const key = fc.stringify(value)
    examined.set(key, [...(examined.get(key) ?? []), answer])
  }
  return examined
}
