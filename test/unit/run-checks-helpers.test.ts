import { afterEach, describe, expect, test, vi } from 'vitest'
import type { RunSettings } from '../../src/core/settings.js'
import type { Profile } from '../../src/profile/profile.js'
import { checksByConcern } from '../../src/checks/index.js'
import { createSharedState } from '../../src/http/shared-state.js'
import { NOT_SELECTED } from '../../src/engine/judged-outcomes.js'
import { EVERY_RESPONSE, exchangeJudges, RELATIONS, relationJudges } from '../../src/engine/judges.js'
import {
  cutShort,
  observingJudges,
  resamples,
  runChecks,
  writingOf,
  type EngineOptions,
} from '../../src/engine/run-checks.js'
import { TEST_SETTINGS } from '../support/run.js'

const STOPPED_AT = '2026-11-26T21:00:00.000Z'
const settingsOf = (given: Partial<RunSettings>) => given as RunSettings
const abortedWith = (reason: unknown) => {
  const controller = new AbortController()
  controller.abort(reason)
  return controller.signal
}

afterEach(() => {
  vi.useRealTimers()
})

describe('observingJudges', () => {
  test('every judge of an exchange judges a run that selects every check', () => {
    expect(observingJudges(undefined)).toEqual(exchangeJudges())
  })

  test('a run of one check keeps that check and the every-response rules, no other check', () => {
    const checkJudge = exchangeJudges().find((judge) => judge.concern !== EVERY_RESPONSE)!
    const kept = observingJudges([checkJudge.id]).map((judge) => judge.id)
    const everyResponse = exchangeJudges().filter((judge) => judge.concern === EVERY_RESPONSE)
    expect(everyResponse.length, 'the catalogue has every-response rules').toBeGreaterThan(0)
    expect(kept).toEqual([checkJudge.id, ...everyResponse.map((judge) => judge.id)])
  })

  test('a run of no check with a judgement keeps only the every-response rules', () => {
    expect(observingJudges(['no-such-check']).every((judge) => judge.concern === EVERY_RESPONSE)).toBe(true)
    expect(observingJudges(['no-such-check']).length).toBe(
      exchangeJudges().filter((judge) => judge.concern === EVERY_RESPONSE).length,
    )
  })
})

describe('cutShort', () => {
  const stoppedAt = () => STOPPED_AT

  test('nothing cuts a run without a stop signal or deadline', () => {
    expect(cutShort(settingsOf({}), undefined, stoppedAt)).toBeUndefined()
    expect(cutShort(settingsOf({}), new AbortController().signal, stoppedAt)).toBeUndefined()
  })

  test('an aborted stop signal cuts the run, named by its reason, at the time the stop was marked', () => {
    expect(cutShort(settingsOf({}), abortedWith('SIGINT'), stoppedAt)).toEqual({ by: 'SIGINT', at: STOPPED_AT })
    expect(cutShort(settingsOf({}), abortedWith(new Error('x')), stoppedAt)).toEqual({ by: 'abort', at: STOPPED_AT })
  })

  test('the stop signal is named before a deadline that has also passed', () => {
    const settings = settingsOf({ deadlineAt: Date.now() - 1000 })
    expect(cutShort(settings, abortedWith('SIGTERM'), stoppedAt)).toEqual({ by: 'SIGTERM', at: STOPPED_AT })
  })

  test('a deadline reached this very millisecond cuts the run at the deadline', () => {
    const deadlineAt = Date.parse(STOPPED_AT)
    vi.useFakeTimers({ now: deadlineAt })
    expect(cutShort(settingsOf({ deadlineAt }), undefined, stoppedAt)).toEqual({ by: 'max-duration', at: STOPPED_AT })
  })

  test('a deadline one millisecond ahead does not cut the run yet', () => {
    const deadlineAt = Date.parse(STOPPED_AT)
    vi.useFakeTimers({ now: deadlineAt - 1 })
    expect(cutShort(settingsOf({ deadlineAt }), undefined, stoppedAt)).toBeUndefined()
  })

  test('a deadline still ahead does not cut the run', () => {
    expect(cutShort(settingsOf({ deadlineAt: Date.now() + 60_000 }), undefined, stoppedAt)).toBeUndefined()
  })
})

describe('resamples', () => {
  test('a run of every check reads again', () => {
    expect(resamples(undefined)).toBe(true)
  })

  test('a run that selects one relation among other checks reads again', () => {
    expect(resamples(['auth/some-check', relationJudges()[0]!.id])).toBe(true)
  })

  test('a run of checks that are no relation does not read again', () => {
    expect(resamples(['auth/some-check'])).toBe(false)
    expect(resamples([])).toBe(false)
  })
})

describe('writingOf', () => {
  const writes = { operations: {} } as unknown as NonNullable<Profile['values']['writes']>
  const profileOf = (values: Partial<Profile['values']>, baseDir?: string) =>
    ({ values, ...(baseDir ? { baseDir } : {}) }) as unknown as Profile
  const baseDirOf = (writing: ReturnType<typeof writingOf>) =>
    (writing!.bodies as unknown as { baseDir: string }).baseDir

  test('a run without --allow-writes does not write, whatever its profile states', () => {
    expect(writingOf(settingsOf({ allowWrites: false, profile: profileOf({ writes }) }), [])).toBeUndefined()
  })

  test('a run with --allow-writes and no profile, or a profile without writes, does not write', () => {
    expect(writingOf(settingsOf({ allowWrites: true }), [])).toBeUndefined()
    expect(writingOf(settingsOf({ allowWrites: true, profile: profileOf({}) }), [])).toBeUndefined()
  })

  test('a run with --allow-writes and a profile that states writes writes within --max-writes', () => {
    const secret = { name: 'apiKey', value: 'k-1234567890' } as never
    const writing = writingOf(
      settingsOf({ allowWrites: true, maxWrites: 3, profile: profileOf({ writes }, '/profiles') }),
      [secret],
    )
    expect(writing?.budget.max).toBe(3)
    expect(writing?.secrets.all()).toEqual([secret])
    expect(baseDirOf(writing)).toBe('/profiles')
  })

  test("a profile without a directory reads its signing commands' files from the working directory", () => {
    const writing = writingOf(settingsOf({ allowWrites: true, profile: profileOf({ writes }) }), [])
    expect(baseDirOf(writing)).toBe(process.cwd())
  })
})

/**
 * Runs that send nothing: every check left out by --check, or cut off before it began. The client's target is a port
 * nothing listens on, so a run that sent a request would show it.
 */
describe('runChecks without a request', () => {
  const catalogueIds = Object.values(checksByConcern).flatMap((checks) => checks.map((check) => check.id))
  const [firstCheck, secondCheck] = catalogueIds as [string, string]
  const run = (settings: Partial<RunSettings>, options: EngineOptions) =>
    runChecks(
      {
        settings: settingsOf({ ...TEST_SETTINGS, baseUrl: 'http://127.0.0.1:9', ...settings }),
        shared: createSharedState(),
      },
      options,
    )

  test('a run of no check reports each check not selected, in catalogue order, then the rules', async () => {
    const progress: string[] = []
    const result = await run(
      {},
      { only: ['no-such-check'], onCheck: (outcome) => progress.push(outcome.id), resampling: {} },
    )
    expect(progress, 'onCheck hears every check as it ends').toEqual(catalogueIds)
    expect(result.outcomes.slice(0, catalogueIds.length).map((outcome) => [outcome.id, outcome.reason])).toEqual(
      catalogueIds.map((id) => [id, NOT_SELECTED]),
    )
    expect(result.outcomes.map((outcome) => outcome.id).slice(catalogueIds.length)).toEqual(
      [...exchangeJudges(), ...relationJudges()]
        .filter((judge) => judge.concern === EVERY_RESPONSE || judge.concern === RELATIONS)
        .map((judge) => judge.id),
    )
    expect(result.errors).toEqual([])
    expect(result.interrupted, 'a run of no check is not interrupted').toBeUndefined()
    expect(result.resampling, 'a run of no relation reads nothing again').toBeUndefined()
  })

  test('a run already stopped cuts off each selected check and names the stop', async () => {
    const before = new Date().toISOString()
    const result = await run({}, { only: [firstCheck, secondCheck], stop: abortedWith('SIGINT'), resampling: {} })
    const byId = new Map(result.outcomes.map((outcome) => [outcome.id, outcome]))
    for (const id of [firstCheck, secondCheck]) {
      expect(byId.get(id), id).toMatchObject({ status: 'not run', interrupted: true, reason: 'interrupted by SIGINT' })
    }
    expect(byId.get(catalogueIds[2]!)?.reason).toBe(NOT_SELECTED)
    expect(result.interrupted?.by).toBe('SIGINT')
    expect(result.interrupted!.at >= before && result.interrupted!.at <= new Date().toISOString()).toBe(true)
    expect(result.resampling, 'a stopped run reads nothing again').toBeUndefined()
  })

  test('a run past its deadline cuts off each selected check, interrupted at the deadline', async () => {
    const deadlineAt = Date.now() - 1000
    const result = await run({ deadlineAt }, { only: [firstCheck] })
    expect(result.outcomes[0]).toMatchObject({ id: firstCheck, status: 'not run', interrupted: true })
    expect(result.interrupted).toEqual({ by: 'max-duration', at: new Date(deadlineAt).toISOString() })
  })

  test('a run past its deadline that selects no check is not interrupted', async () => {
    const result = await run({ deadlineAt: Date.now() - 1000 }, { only: ['no-such-check'] })
    expect(result.interrupted).toBeUndefined()
  })

  test('a run stopped as it goes is interrupted at the moment of the stop, not when the run noticed it', async () => {
    const stopAt = Date.parse(STOPPED_AT)
    vi.useFakeTimers({ now: stopAt, toFake: ['Date'] })
    const controller = new AbortController()
    const result = await run(
      {},
      {
        only: ['no-such-check'],
        stop: controller.signal,
        onCheck: () => {
          controller.abort('SIGINT')
          vi.setSystemTime(stopAt + 60_000)
        },
      },
    )
    expect(result.interrupted).toEqual({ by: 'SIGINT', at: STOPPED_AT })
  })

  test('a run stopped as it goes is interrupted though no check it selects was cut off', async () => {
    const controller = new AbortController()
    const result = await run(
      {},
      { only: ['no-such-check'], stop: controller.signal, onCheck: () => controller.abort('SIGTERM') },
    )
    expect(result.interrupted?.by).toBe('SIGTERM')
  })
})
