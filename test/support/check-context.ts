import type { OperationId } from '../../src/contract/operations.js'
import type { Exchange } from '../../src/http/exchange.js'
import type { RunSettings } from '../../src/core/settings.js'
import { CheckFailure, CheckSkipped, type CallOptions, type CheckContext } from '../../src/checks/types.js'
import { FIXED_SEED } from './run.js'
import { exchangeOf } from './hand-made.js'

/** One call a check made through a scripted context. */
export interface Call {
  operation: OperationId
  options?: CallOptions
}

/**
 * A check context whose calls answer with the given function; fail and skip throw as the engine's do, once computes
 * once by key, and the count of generated inputs is not kept.
 */
export function scriptedContext(
  settings: Partial<RunSettings>,
  answer: (call: Call) => Exchange['response'] | Exchange,
): { ctx: CheckContext; calls: Call[]; schemas: string[] } {
  const calls: Call[] = []
  const schemas: string[] = []
  // What ctx.once computed, by key: a result the checks of a run share is computed once, as the engine does.
  const computed = new Map<string, Promise<unknown>>()
  const ctx: Partial<CheckContext> = {
    settings: { seed: FIXED_SEED, runs: 10, cursorParam: 'cursor', limitParam: 'limit', ...settings } as RunSettings,
    exchanges: [],
    inputs: {},
    async call(operation, options) {
      calls.push({ operation, options })
      const made = answer({ operation, options })
      return made && 'request' in made ? made : exchangeOf(made, { operation })
    },
    expectSchema: (schema) => void schemas.push(schema),
    countInputs: () => undefined,
    once: (key, compute) => {
      if (!computed.has(key)) computed.set(key, compute())
      return computed.get(key) as ReturnType<typeof compute>
    },
    fail: (message, details) => {
      throw new CheckFailure(message, details)
    },
    skip: (reason) => {
      throw new CheckSkipped(reason)
    },
  }
  return { ctx: ctx as CheckContext, calls, schemas }
}

/** The error a promise rejects with, or undefined when it resolves. */
export function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  )
}

/** A check's run as a line: 'passed', or the name and message of what it threw (CheckFailure, CheckSkipped, ...). */
export async function verdictOfRun(run: Promise<void>): Promise<string> {
  const error = (await rejectionOf(run)) as Error | undefined
  return error ? `${error.name}: ${error.message}` : 'passed'
}
