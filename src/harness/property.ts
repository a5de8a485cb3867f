import fc from 'fast-check'
import type { CheckContext } from '../checks/types.js'
import type { Exchange } from '../http/exchange.js'

/** What one generated input showed against the property, with the exchange that shows it. */
export interface Breach {
  problem: string
  exchange?: Exchange
}

export interface PropertyOptions<T> {
  /** Inputs that cannot be judged (an HTTP client cannot send them, say) are skipped and counted; `why` says what they were. */
  skip?: { test(value: T): boolean; why: string }
}

/**
 * Property executions allowed per run of settings.runs: after the runs themselves, the rest go to shrinking a
 * failure, so that a property sends at most runs × this many requests per request it makes for one input.
 */
const EXECUTIONS_PER_RUN = 4

/**
 * Checks `examine` for `settings.runs` generated inputs from `settings.seed` (or replays the one input at
 * `settings.replayPath`), and fails the check with the shrunk counterexample, the seed and the path.
 */
export async function checkProperty<T>(ctx: CheckContext, arbitrary: fc.Arbitrary<T>, examine: (value: T) => Promise<Breach | undefined>, options: PropertyOptions<T> = {}): Promise<void> {
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
      return true
    }
  })
  const details = await fc.check(property, { seed, numRuns: runs, ...(replayPath === undefined ? {} : { path: replayPath, endOnFailure: true }) })
  if (aborted !== undefined) throw aborted
  if (!details.failed) return
  const skippedNote = skipped > 0 ? `; ${skipped} generated inputs skipped (${options.skip!.why})` : ''
  if (details.counterexample === null || !lastBreach) {
    ctx.fail(`the property could not be checked: ${details.numSkips} generated inputs skipped${skippedNote}`)
  }
  const [value] = details.counterexample as [T]
  const path = details.counterexamplePath!
  const message = `${lastBreach!.problem}; generated input ${fc.stringify(value)} (after ${details.numRuns} runs, shrunk ${details.numShrinks} times; seed ${seed}, path ${path}${skippedNote})`
  ctx.fail(message, { exchange: lastBreach!.exchange, counterexample: { seed, path, value, runs: details.numRuns } })
}

/**
 * fast-check runs a property's inputs one after another. The inputs of the first runs are known in advance
 * (fc.sample with the same seed and run count yields the same values as fc.check), so they are examined
 * concurrently up front, within the client's concurrency bound, and the property awaits those answers in order.
 * Shrinking and replays still go one input at a time.
 */
function prefetch<T>(arbitrary: fc.Arbitrary<T>, examine: (value: T) => Promise<Breach | undefined>, settings: { seed: number; runs: number; replayPath?: string }, options: PropertyOptions<T>): Map<string, Promise<Breach | undefined>[]> {
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
