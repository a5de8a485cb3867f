import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { CheckContext } from '../src/checks/types.js'
import { CheckFailure, CheckSkipped } from '../src/checks/types.js'
import { checkProperty } from '../src/checks/property.js'
import type { RunSettings } from '../src/core/settings.js'
import { FIXED_SEED } from './support/run.js'

/** Just enough of a check context for the property runner: settings, input counts, fail and skip. */
function contextFor(settings: Partial<RunSettings>): CheckContext {
  const inputs: CheckContext['inputs'] = {}
  const context: Partial<CheckContext> = {
    settings: { seed: FIXED_SEED, runs: 25, ...settings } as RunSettings,
    inputs,
    countInputs: (phase, count) => void (inputs[phase] = (inputs[phase] ?? 0) + count),
    fail: (message, details) => {
      throw new CheckFailure(message, details)
    },
    skip: (reason) => {
      throw new CheckSkipped(reason)
    },
  }
  return context as CheckContext
}

async function failureOf(promise: Promise<void>): Promise<CheckFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect((error as CheckFailure | undefined)?.code, 'the property fails the check').toBe('IPTS_CHECK_FAILED')
  return error as CheckFailure
}

describe('checkProperty', () => {
  test('passes when every input holds, examining exactly `runs` inputs', async () => {
    let examined = 0
    await checkProperty(contextFor({ runs: 25 }), fc.nat(), async () => void examined++)
    expect(examined).toBe(25)
  })

  test('examines the inputs of its runs concurrently, in the order fast-check runs them', async () => {
    let inFlight = 0
    let mostInFlight = 0
    const started: number[] = []
    await checkProperty(contextFor({ runs: 10 }), fc.nat(), async (n) => {
      started.push(n)
      mostInFlight = Math.max(mostInFlight, ++inFlight)
      await new Promise((resolve) => setTimeout(resolve, 5))
      inFlight--
      return undefined
    })
    expect(mostInFlight, 'the inputs were examined one after another').toBeGreaterThan(1)
    expect(started, 'not the inputs fc.check runs').toEqual(fc.sample(fc.nat(), { seed: FIXED_SEED, numRuns: 10 }))
  })

  test('fails with the shrunk counterexample, the seed and the path', async () => {
    const failure = await failureOf(checkProperty(contextFor({}), fc.nat(1000), async (n) => (n >= 10 ? { problem: `${n} is too big` } : undefined)))
    expect(failure.details.counterexample).toMatchObject({ seed: FIXED_SEED, value: 10 })
    expect(failure.message).toContain('10 is too big')
    expect(failure.message).toContain(`seed ${FIXED_SEED}, path ${failure.details.counterexample!.path}`)
  })

  test('examines at most 4 × runs inputs however long shrinking would go on', async () => {
    let examined = 0
    const failure = await failureOf(
      checkProperty(contextFor({ runs: 10 }), fc.string({ minLength: 200 }), async (text) => (examined++, text.length > 0 ? { problem: 'not empty' } : undefined)),
    )
    expect(examined).toBeLessThanOrEqual(40)
    expect((failure.details.counterexample!.value as string).length, 'a failure that was really seen').toBeGreaterThan(0)
  })

  test('replays exactly the input at the given path', async () => {
    const examine = async (n: number) => (n >= 1000 && n % 2 === 1 ? { problem: 'odd, and 1000 or more' } : undefined)
    const first = await failureOf(checkProperty(contextFor({}), fc.nat(100_000), examine))
    const seen: number[] = []
    const replayed = await failureOf(checkProperty(contextFor({ replayPath: first.details.counterexample!.path }), fc.nat(100_000), async (n) => (seen.push(n), examine(n))))
    expect(replayed.details.counterexample!.value).toBe(first.details.counterexample!.value)
    expect(seen, 'only the one input').toEqual([first.details.counterexample!.value])
  })

  test('counts skipped inputs in the failure message', async () => {
    const failure = await failureOf(
      checkProperty(contextFor({}), fc.nat(100), async (n) => (n > 50 ? { problem: 'big' } : undefined), { skip: { test: (n) => n % 2 === 1, why: 'odd' } }),
    )
    expect(failure.message).toMatch(/; \d+ generated inputs skipped \(odd\)/)
  })

  test('lets a skip from inside the property skip the check', async () => {
    const error = await checkProperty(contextFor({}), fc.nat(), async () => {
      throw new CheckSkipped('no intent given')
    }).catch((e: unknown) => e)
    expect((error as CheckSkipped).code).toBe('IPTS_CHECK_SKIPPED')
  })
})
