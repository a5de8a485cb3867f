import { describe, expect, test } from 'vitest'
import type { Check } from '../../src/checks/types.js'
import type { RunSettings } from '../../src/core/settings.js'
import { declaredWrites, WriteBudget, writePlan, writePlanLines } from '../../src/engine/write-plan.js'
import type { Profile, WriteOperation } from '../../src/profile/profile.js'

const operations = {
  place: { method: 'POST', path: '/v1/orders', cancels: { path: '/v1/orders/cancel' } },
  amend: { method: 'PUT', path: '/v1/orders/amend' },
} as unknown as Record<string, WriteOperation>

const checkOf = (id: string, submissions?: number) =>
  ({ id, ...(submissions === undefined ? {} : { writes: () => submissions }) }) as unknown as Check

const settingsOf = (given: { allowWrites?: boolean; maxWrites?: number; writes?: boolean } = {}) =>
  ({
    allowWrites: given.allowWrites ?? true,
    ...(given.maxWrites === undefined ? {} : { maxWrites: given.maxWrites }),
    profile: { values: given.writes === false ? {} : { writes: { operations } } } as unknown as Profile,
  }) as RunSettings

describe('declaredWrites', () => {
  test("a write check declares its submissions against the profile's operations", () => {
    let given: unknown
    const check = { id: 'w', writes: (ops: unknown) => ((given = ops), 4) } as unknown as Check
    expect(declaredWrites(check, settingsOf())).toBe(4)
    expect(given).toBe(operations)
  })

  test('a check that writes nothing, a run without --allow-writes or without writes in its profile: none', () => {
    expect(declaredWrites(checkOf('r'), settingsOf())).toBe(0)
    expect(declaredWrites(checkOf('w', 4), settingsOf({ allowWrites: false }))).toBe(0)
    expect(declaredWrites(checkOf('w', 4), settingsOf({ writes: false }))).toBe(0)
  })
})

describe('writePlan', () => {
  const checks = [checkOf('read'), checkOf('a', 2), checkOf('b', 3), checkOf('c', 1)]

  test('a run that may write plans each write check in catalogue order, with the operations it calls', () => {
    expect(writePlan(checks, settingsOf())).toStrictEqual({
      operations: ['place: POST /v1/orders and POST /v1/orders/cancel', 'amend: PUT /v1/orders/amend'],
      checks: [
        { id: 'a', submissions: 2 },
        { id: 'b', submissions: 3 },
        { id: 'c', submissions: 1 },
      ],
      submissions: 6,
    })
  })

  test('checks are taken while they fit in --max-writes, a later smaller one still fits', () => {
    const plan = writePlan(checks, settingsOf({ maxWrites: 3 }))
    expect(plan?.checks.map((check) => check.id)).toEqual(['a', 'c'])
    expect(plan?.submissions).toBe(3)
    expect(plan?.maxWrites).toBe(3)
  })

  test('only the selected checks are planned', () => {
    expect(writePlan(checks, settingsOf(), ['b'])?.checks).toEqual([{ id: 'b', submissions: 3 }])
  })

  test('no plan without --allow-writes, without writes in the profile, or with no write check that fits', () => {
    expect(writePlan(checks, settingsOf({ allowWrites: false }))).toBeUndefined()
    expect(writePlan(checks, settingsOf({ writes: false }))).toBeUndefined()
    expect(writePlan(checks, settingsOf(), ['read'])).toBeUndefined()
    expect(writePlan(checks, settingsOf({ maxWrites: 0 }))).toBeUndefined()
  })
})

describe('writePlanLines', () => {
  test('the plan as printed, with the bound when one is given', () => {
    const plan = { operations: ['place: POST /v1/orders'], checks: [{ id: 'a', submissions: 2 }], submissions: 2 }
    expect(writePlanLines({ ...plan, maxWrites: 5 })).toEqual([
      'Writes (--allow-writes): 1 checks send at most 2 submissions (--max-writes 5), ' +
        'each of which may create an order, to:',
      '  place: POST /v1/orders',
    ])
    expect(writePlanLines(plan)[0]).toBe(
      'Writes (--allow-writes): 1 checks send at most 2 submissions, each of which may create an order, to:',
    )
  })
})

describe('WriteBudget', () => {
  test('takes submissions while they fit, exactly to the bound, and says why one that does not is refused', () => {
    const budget = new WriteBudget(3)
    expect(budget.take(2)).toBe(true)
    expect(budget.take(2)).toBe(false)
    expect(budget.refusal(2)).toBe('skipped: it sends up to 2 submissions, more than the 1 left of --max-writes 3')
    expect(budget.take(1)).toBe(true)
    expect(budget.take(1)).toBe(false)
  })

  test('without --max-writes, every check fits', () => {
    expect(new WriteBudget(undefined).take(1_000_000)).toBe(true)
  })
})
