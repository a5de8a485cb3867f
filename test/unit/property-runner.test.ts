import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { CheckContext } from '../../src/checks/types.js'
import { CheckFailure, CheckSkipped } from '../../src/checks/types.js'
import { checkProperty } from '../../src/checks/property.js'
import type { RunSettings } from '../../src/core/settings.js'
import { FIXED_SEED } from '../support/run.js'

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
    const failure = await failureOf(
      checkProperty(contextFor({}), fc.nat(1000), async (n) => (n >= 10 ? { problem: `${n} is too big` } : undefined)),
    )
    expect(failure.details.counterexample).toMatchObject({ seed: FIXED_SEED, value: 10 })
    expect(failure.message).toContain('10 is too big')
    expect(failure.message).toContain(`seed ${FIXED_SEED}, path ${failure.details.counterexample!.path}`)
  })

  test('examines at most 4 × runs inputs however long shrinking would go on', async () => {
    let examined = 0
    const failure = await failureOf(
      checkProperty(
        contextFor({ runs: 10 }),
        fc.string({ minLength: 200 }),
        async (text) => (examined++, text.length > 0 ? { problem: 'not empty' } : undefined),
      ),
    )
    expect(examined).toBeLessThanOrEqual(40)
    expect((failure.details.counterexample!.value as string).length, 'a failure that was really seen').toBeGreaterThan(
      0,
    )
  })

  test('replays exactly the input at the given path', async () => {
    const examine = async (n: number) => (n >= 1000 && n % 2 === 1 ? { problem: 'odd, and 1000 or more' } : undefined)
    const first = await failureOf(checkProperty(contextFor({}), fc.nat(100_000), examine))
    const seen: number[] = []
    const replayed = await failureOf(
      checkProperty(
        contextFor({ replayPath: first.details.counterexample!.path }),
        fc.nat(100_000),
        async (n) => (seen.push(n), examine(n)),
      ),
    )
    expect(replayed.details.counterexample!.value).toBe(first.details.counterexample!.value)
    expect(seen, 'only the one input').toEqual([first.details.counterexample!.value])
  })

  test('counts skipped inputs in the failure message', async () => {
    const failure = await failureOf(
      checkProperty(contextFor({}), fc.nat(100), async (n) => (n > 50 ? { problem: 'big' } : undefined), {
        skip: { test: (n) => n % 2 === 1, why: 'odd' },
      }),
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

describe('checkProperty: the coverage phase', () => {
  const cases = [
    { label: 'zero', value: 0 },
    { label: 'one', value: 1 },
    { label: 'two', value: 2 },
  ]

  test('examines every coverage case before the generated inputs, counting each phase', async () => {
    const seen: number[] = []
    const ctx = contextFor({ runs: 5 })
    await checkProperty(ctx, fc.constant(100), async (n) => void seen.push(n), { coverage: cases })
    expect(seen).toEqual([0, 1, 2, 100, 100, 100, 100, 100])
    expect(ctx.inputs).toEqual({ coverage: 3, random: 5 })
  })

  test('fails with the first breaching case in the list, whichever answers first, naming its index, label, value and path', async () => {
    const exchange = { operation: 'x' } as never
    const examine = async (n: number) => {
      await new Promise((resolve) => setTimeout(resolve, n === 2 ? 0 : 20))
      return n >= 1 ? { problem: `${n} breaks it`, exchange } : undefined
    }
    const failure = await failureOf(
      checkProperty(contextFor({ runs: 5 }), fc.constant(100), examine, { coverage: cases }),
    )
    expect(failure.message).toBe(
      '1 breaks it; coverage input 1 (one) 1 (fixed coverage phase, the same for every seed; path coverage:1)',
    )
    expect(failure.details.counterexample).toEqual({ seed: FIXED_SEED, path: 'coverage:1', value: 1, runs: 3 })
    expect(failure.details.exchange).toBe(exchange)
  })

  test("an error of a case's examination is the error of the check, after every case, unless a case breaches", async () => {
    const seen: number[] = []
    const examine = (breaching: number) => async (n: number) => {
      seen.push(n)
      if (n === 0) throw new Error('the read of case 0 was not assessed')
      return n === breaching ? { problem: `${n} breaks it` } : undefined
    }
    const error = await checkProperty(contextFor({ runs: 5 }), fc.constant(100), examine(-1), {
      coverage: cases,
    }).catch((e: unknown) => e)
    expect((error as Error).message).toBe('the read of case 0 was not assessed')
    expect(seen, 'every case examined, no generated input').toEqual([0, 1, 2])
    const failure = await failureOf(
      checkProperty(contextFor({ runs: 5 }), fc.constant(100), examine(2), { coverage: cases }),
    )
    expect(failure.message).toMatch(/^2 breaks it; coverage input 2 \(two\)/)
  })

  test('skips the cases it cannot judge, saying how many, and keeps the index of each case', async () => {
    const ctx = contextFor({})
    const failure = await failureOf(
      checkProperty(ctx, fc.constant(100), async (n) => (n === 2 ? { problem: 'two' } : undefined), {
        coverage: cases,
        skip: { test: (n) => n < 2, why: 'too small' },
      }),
    )
    expect(failure.message).toBe(
      'two; coverage input 2 (two) 2 (fixed coverage phase, the same for every seed; path coverage:2; 2 coverage inputs skipped (too small))',
    )
    expect(ctx.inputs).toEqual({ coverage: 1 })
  })

  test('shows a long value by its start and length, a value of 200 characters whole', async () => {
    const long = 'a'.repeat(300)
    const failure = await failureOf(
      checkProperty(contextFor({}), fc.constant(''), async (s) => (s ? { problem: 'p' } : undefined), {
        coverage: [{ label: 'long', value: long }],
      }),
    )
    expect(failure.message).toBe(
      `p; coverage input 0 (long) "${'a'.repeat(199)}… (302 characters) (fixed coverage phase, the same for every seed; path coverage:0)`,
    )
    const edge = 'b'.repeat(198)
    const whole = await failureOf(
      checkProperty(contextFor({}), fc.constant(''), async (s) => (s ? { problem: 'p' } : undefined), {
        coverage: [{ label: 'edge', value: edge }],
      }),
    )
    expect(whole.message).toBe(
      `p; coverage input 0 (edge) "${edge}" (fixed coverage phase, the same for every seed; path coverage:0)`,
    )
  })

  test('replays one coverage case alone, without the generated inputs', async () => {
    const seen: number[] = []
    const ctx = contextFor({ replayPath: 'coverage:2' })
    const failure = await failureOf(
      checkProperty(ctx, fc.constant(100), async (n) => (seen.push(n), n === 2 ? { problem: 'two' } : undefined), {
        coverage: cases,
      }),
    )
    expect(seen).toEqual([2])
    expect(failure.details.counterexample).toMatchObject({ path: 'coverage:2', runs: 1 })
    const passing: number[] = []
    await checkProperty(contextFor({ replayPath: 'coverage:0' }), fc.constant(100), async (n) => void passing.push(n), {
      coverage: cases,
    })
    expect(passing).toEqual([0])
    // An index of more than one digit: the eleventh of twelve cases.
    const many = Array.from({ length: 12 }, (_, value) => ({ label: `case ${value}`, value }))
    const eleventh: number[] = []
    await checkProperty(
      contextFor({ replayPath: 'coverage:10' }),
      fc.constant(100),
      async (n) => void eleventh.push(n),
      {
        coverage: many,
      },
    )
    expect(eleventh).toEqual([10])
  })

  test('a replayed coverage path that names no case fails, saying how many there are', async () => {
    const failure = await failureOf(
      checkProperty(contextFor({ replayPath: 'coverage:3' }), fc.constant(100), async () => undefined, {
        coverage: cases,
      }),
    )
    expect(failure.message).toBe('--replay-path coverage:3 names no coverage case: this check has 3')
  })

  test('a fast-check replay path skips the coverage phase', async () => {
    const seen: number[] = []
    const first = await failureOf(
      checkProperty(contextFor({}), fc.nat(1000), async (n) => (n > 10 ? { problem: 'big' } : undefined)),
    )
    await failureOf(
      checkProperty(
        contextFor({ replayPath: first.details.counterexample!.path }),
        fc.nat(1000),
        async (n) => (seen.push(n), n > 10 ? { problem: 'big' } : undefined),
        { coverage: cases },
      ),
    )
    expect(seen).toEqual([first.details.counterexample!.value])
  })

  test('a replay path only of the form coverage:<digits> names a coverage case; any other is no coverage replay', async () => {
    for (const replayPath of ['xcoverage:1', 'coverage:1:0', 'coverage:']) {
      const seen: number[] = []
      await checkProperty(contextFor({ replayPath }), fc.constant(100), async (n) => void seen.push(n), {
        coverage: cases,
      }).catch(() => undefined)
      expect(
        seen.filter((n) => n < 100),
        replayPath,
      ).toEqual([])
    }
  })

  test('one coverage case skipped is said too', async () => {
    const failure = await failureOf(
      checkProperty(contextFor({}), fc.constant(100), async (n) => (n === 2 ? { problem: 'two' } : undefined), {
        coverage: cases,
        skip: { test: (n) => n === 0, why: 'zero' },
      }),
    )
    expect(failure.message).toBe(
      'two; coverage input 2 (two) 2 (fixed coverage phase, the same for every seed; path coverage:2; 1 coverage inputs skipped (zero))',
    )
  })
})

describe('checkProperty: the random phase', () => {
  test('counts the generated inputs examined', async () => {
    const ctx = contextFor({ runs: 7 })
    await checkProperty(ctx, fc.nat(), async () => undefined)
    expect(ctx.inputs).toEqual({ coverage: 0, random: 7 })
  })

  test('an error of the examination is the error of the check', async () => {
    const error = await checkProperty(contextFor({}), fc.nat(), async () => {
      throw new Error('the client broke')
    }).catch((e: unknown) => e)
    expect((error as Error).message).toBe('the client broke')
  })

  test('a property whose every input is skipped could not be checked', async () => {
    const failure = await failureOf(
      checkProperty(contextFor({ runs: 5 }), fc.nat(), async () => undefined, {
        skip: { test: () => true, why: 'unsendable' },
      }),
    )
    expect(failure.message).toMatch(
      /^the property could not be checked: \d+ generated inputs skipped; \d+ generated inputs skipped \(unsendable\)$/,
    )
  })

  test('the failure names the shrunk input, the runs and shrinks, the seed and the path, with the breach seen', async () => {
    const exchange = { operation: 'y' } as never
    const failure = await failureOf(
      checkProperty(contextFor({}), fc.nat(1000), async (n) =>
        n >= 10 ? { problem: `${n} is too big`, exchange } : undefined,
      ),
    )
    const { path, runs } = failure.details.counterexample!
    expect(failure.message).toMatch(
      new RegExp(
        `^10 is too big; generated input 10 \\(after ${runs} runs, shrunk \\d+ times; seed ${FIXED_SEED}, path ${path}\\)$`,
      ),
    )
    expect(failure.details.exchange).toBe(exchange)
  })
})

describe('checkProperty: its bounds', () => {
  test('examines exactly 4 × runs inputs when shrinking would go on, and fails with an input it examined', async () => {
    const examined = new Set<string>()
    const ctx = contextFor({ runs: 10 })
    const failure = await failureOf(
      checkProperty(
        ctx,
        fc.string({ minLength: 200 }),
        async (text) => (examined.add(text), { problem: `${text.length} characters` }),
      ),
    )
    expect(examined.size).toBe(40)
    expect(ctx.inputs.random).toBe(40)
    expect(examined.has(failure.details.counterexample!.value as string), 'the counterexample was examined').toBe(true)
  })

  test('never examines an input it skips, in the first runs or after', async () => {
    const seen: number[] = []
    await checkProperty(contextFor({ runs: 20 }), fc.nat(100), async (n) => void seen.push(n), {
      skip: { test: (n) => n % 2 === 1, why: 'odd' },
    })
    expect(seen.length).toBeGreaterThan(0)
    expect(seen.filter((n) => n % 2 === 1)).toEqual([])
  })

  test('the first error of an examination is the error of the check, however many follow', async () => {
    const order = fc.sample(fc.nat(), { seed: FIXED_SEED, numRuns: 25 })
    const error = await checkProperty(contextFor({}), fc.nat(), async (n) => {
      throw new Error(`input ${n}`)
    }).catch((e: unknown) => e)
    expect((error as Error).message).toBe(`input ${order[0]}`)
  })
})
