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
  let executions = 0
  let skipped = 0
  let lastBreach: Breach | undefined
  let aborted: unknown
  const property = fc.asyncProperty(arbitrary, async (value) => {
    if (options.skip?.test(value)) {
      skipped++
      fc.pre(false)
    }
    // Past the budget, or once the check was skipped or failed from inside: the smallest failure so far stands.
    if (aborted !== undefined || ++executions > budget) return true
    try {
      const breach = await examine(value)
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
