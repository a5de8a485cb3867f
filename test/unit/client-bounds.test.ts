import { describe, expect, test } from 'vitest'
import { BREAKER_CELLS, CircuitBreaker, NOT_ANSWERING } from '../../src/http/circuit-breaker.js'
import type { Exchange } from '../../src/http/exchange.js'
import { Limiter } from '../../src/http/limiter.js'
import { EVERY_REQUEST, QuotaGate } from '../../src/http/quota-gate.js'
import { breakerCells, createSharedState, gateSlots, inFlightCounter } from '../../src/http/shared-state.js'

/**
 * The bounds the HTTP client holds a run to, each at its edges: the circuit breaker (how many unanswered requests in a
 * row, to one operation or to several, and what does not count), the concurrency limiter and the 429 gate, and that
 * each holds across the clients that share one run state.
 */

const answered = { response: { status: 200, headers: {}, body: '', truncated: false } } as unknown as Exchange
const unanswered = (code?: string) =>
  (code === undefined ? {} : { error: { code, message: code } }) as unknown as Exchange

function breaker(threshold = 3, knownKeys = ['a', 'b', 'c'], cells = breakerCells(createSharedState())) {
  return new CircuitBreaker(cells, threshold, knownKeys)
}

describe('the circuit breaker', () => {
  test('closes one operation at its threshold of unanswered requests in a row, not one before, and no other', () => {
    const b = breaker()
    b.record('a', unanswered('TIMEOUT'))
    b.record('a', unanswered('TIMEOUT'))
    expect(b.refusal('a'), 'two of three').toBeUndefined()
    b.record('a', unanswered('TIMEOUT'))
    expect(b.refusal('a')).toEqual({
      code: NOT_ANSWERING,
      message:
        'not sent: a stopped answering: 3 requests in a row ended without a response (the last one: no response in time)',
    })
    expect(b.refusal('b'), 'another operation').toBeUndefined()
    expect(b.signal.aborted, 'one operation closed is no trip of the target').toBe(false)
  })

  test('a response resets the count of the run and of its operation', () => {
    const b = breaker()
    b.record('a', unanswered('TIMEOUT'))
    b.record('b', unanswered('TIMEOUT'))
    b.record('a', answered)
    b.record('a', unanswered('TIMEOUT'))
    b.record('b', unanswered('TIMEOUT'))
    expect(b.refusal('a')).toBeUndefined()
    expect(b.refusal('c')).toBeUndefined()
    const other = breaker()
    other.record('a', unanswered('ECONNRESET'))
    other.record('c', answered)
    other.record('a', unanswered('ECONNRESET'))
    other.record('a', unanswered('ECONNRESET'))
    expect(other.refusal('a'), "a response to another operation leaves this one's count: a slow one closes").toEqual({
      code: NOT_ANSWERING,
      message:
        'not sent: a stopped answering: 3 requests in a row ended without a response (the last one: the connection was reset (ECONNRESET))',
    })
    expect(other.refusal('b'), "but resets the run's").toBeUndefined()
  })

  test('closes the whole target when the requests in a row span two operations, and cuts off those in flight', async () => {
    const b = breaker()
    b.record('a', unanswered('ECONNRESET'))
    b.record('b', unanswered('ECONNRESET'))
    expect(b.refusal('c'), 'two in a row').toBeUndefined()
    b.record('a', unanswered('ECONNRESET'))
    const refusal = {
      code: NOT_ANSWERING,
      message:
        'not sent: the target stopped answering: 3 requests in a row ended without a response (the last one: the connection was reset (ECONNRESET))',
    }
    expect(b.refusal('c')).toEqual(refusal)
    expect(b.refusal('a')).toEqual(refusal)
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(b.signal.aborted).toBe(true)
    expect(b.cutOffError().message).toBe(refusal.message.replace('not sent', 'cut off'))
  })

  test('three in a row to one operation close it alone; the count at the trip is the one reported', async () => {
    const b = breaker()
    for (let i = 0; i < 5; i++) b.record('a', unanswered('TIMEOUT'))
    expect(b.refusal('a')?.message).toMatch(/^not sent: a stopped answering: 3 requests in a row/)
    expect(b.refusal('b')).toBeUndefined()
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(b.signal.aborted).toBe(false)
  })

  test("the run's own endings neither count nor reset", () => {
    for (const code of ['RUN_TIME_BOUND', 'RUN_INTERRUPTED', 'CHECK_ENDED', NOT_ANSWERING]) {
      const b = breaker()
      for (let i = 0; i < 5; i++) b.record('a', unanswered(code))
      expect(b.refusal('a'), code).toBeUndefined()
      b.record('a', unanswered('TIMEOUT'))
      b.record('a', unanswered('TIMEOUT'))
      b.record('a', unanswered(code))
      b.record('a', unanswered('TIMEOUT'))
      expect(b.refusal('a')?.message, `${code} between timeouts`).toMatch(/^not sent: a stopped answering: 3 requests/)
    }
  })

  test('names the last ending in words; an ending it does not keep, or none, as timeouts and resets', () => {
    const words = (code: string | undefined) => {
      const b = breaker(1)
      b.record('a', unanswered(code))
      return b.refusal('a')?.message
    }
    expect(words('UND_ERR_CLOSED')).toBe(
      'not sent: a stopped answering: 1 requests in a row ended without a response (the last one: the connection was closed before the response was complete)',
    )
    expect(words('ETIMEDOUT')).toMatch(/\(the last one: the connection timed out \(ETIMEDOUT\)\)$/)
    expect(words('UND_ERR_INFO')).toMatch(/\(timeouts, resets\)$/)
    expect(words(undefined)).toMatch(/\(timeouts, resets\)$/)
  })

  test('counts a key outside the known ones on a slot of its own, the shared slots spread by hash', () => {
    const b = breaker(2, ['a'])
    b.record('/x', unanswered('TIMEOUT'))
    b.record('/x', unanswered('TIMEOUT'))
    expect(b.refusal('/x')?.message).toMatch(/^not sent: \/x stopped answering: 2 requests/)
    expect(b.refusal('a'), 'a known key has a slot of its own').toBeUndefined()
    const spread = ['/p0', '/p1', '/p2', '/p3', '/p4', '/p5', '/p6', '/p7'].filter(
      (key) => b.refusal(key) === undefined,
    )
    expect(spread.length, 'unknown keys land on more than one slot').toBeGreaterThan(0)
  })

  test('gives each of the first 16 known keys a slot of its own; a later one shares the last', () => {
    const known = Array.from({ length: 17 }, (_, i) => `op${i}`)
    const b = breaker(2, known)
    b.record('op16', unanswered('TIMEOUT'))
    b.record('op16', unanswered('TIMEOUT'))
    expect(b.refusal('op16')?.message).toMatch(/^not sent: op16 stopped answering: 2 requests/)
    expect(b.refusal('op15')?.message, 'the slot op16 shares').toMatch(/^not sent: op15 stopped answering/)
    expect(known.slice(0, 15).filter((key) => b.refusal(key) !== undefined)).toEqual([])
  })

  test("a breaker made on a run state that another worker's breaker tripped starts cut off", async () => {
    const cells = breakerCells(createSharedState())
    const first = breaker(2, ['a', 'b'], cells)
    first.record('a', unanswered('TIMEOUT'))
    first.record('b', unanswered('TIMEOUT'))
    const later = breaker(2, ['a', 'b'], cells)
    expect(later.signal.aborted).toBe(true)
    expect(later.refusal('a')?.message).toMatch(/^not sent: the target stopped answering: 2 requests/)
  })

  test('holds across the breakers of one run state, as in the workers of a run', () => {
    const cells = breakerCells(createSharedState())
    expect(cells.length).toBe(BREAKER_CELLS)
    const one = breaker(3, ['a', 'b'], cells)
    const two = breaker(3, ['a', 'b'], cells)
    one.record('a', unanswered('TIMEOUT'))
    two.record('a', unanswered('TIMEOUT'))
    one.record('a', unanswered('TIMEOUT'))
    expect(two.refusal('a')?.message).toMatch(/^not sent: a stopped answering: 3 requests/)
  })
})

describe('the limiter', () => {
  test('runs at most its limit of tasks at once, across the limiters that share a counter, and each task once', async () => {
    const counter = inFlightCounter(createSharedState())
    const limiters = [new Limiter(2, counter), new Limiter(2, counter)]
    let running = 0
    let most = 0
    const done: number[] = []
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        limiters[i % 2]!.run(async () => {
          most = Math.max(most, ++running)
          await new Promise((resolve) => setTimeout(resolve, 5))
          running--
          done.push(i)
        }),
      ),
    )
    expect(most).toBe(2)
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(counter[0], 'every slot given back').toBe(0)
  })

  test('gives the slot back when a task fails', async () => {
    const limiter = new Limiter(1)
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(await limiter.run(() => Promise.resolve('next'))).toBe('next')
  })
})

describe('the 429 gate', () => {
  const now = 1_000_000

  test("holds a key's requests until the moment a 429 named, and no longer", () => {
    const gate = new QuotaGate(gateSlots(createSharedState()))
    gate.close('key-1', now + 1500)
    expect(gate.remainingMs('key-1', now)).toBe(1500)
    expect(gate.remainingMs('key-1', now + 1499)).toBe(1)
    expect(gate.remainingMs('key-1', now + 1500)).toBe(0)
    expect(gate.remainingMs('key-1', now + 5000)).toBe(0)
    expect(gate.remainingMs('key-2', now), 'another key').toBe(0)
  })

  test('keeps the longer of two closings, and rounds a fraction of a millisecond up', () => {
    const gate = new QuotaGate()
    gate.close('key-1', now + 2000)
    gate.close('key-1', now + 1000)
    expect(gate.remainingMs('key-1', now)).toBe(2000)
    gate.close('key-1', now + 3000.2)
    expect(gate.remainingMs('key-1', now)).toBe(3001)
  })

  test('every key has a slot: many keys closed one by one each read back closed', () => {
    const gate = new QuotaGate(gateSlots(createSharedState()))
    const keys = Array.from({ length: 300 }, (_, i) => `key-${i}`)
    for (const key of keys) gate.close(key, now + 100)
    expect(keys.filter((key) => gate.remainingMs(key, now) !== 100)).toEqual([])
  })

  test("the run's quota holds every key, across the gates that share a run state", () => {
    const state = createSharedState()
    new QuotaGate(gateSlots(state)).close(EVERY_REQUEST, now + 700)
    const other = new QuotaGate(gateSlots(state))
    expect(other.remainingMs('key-1', now)).toBe(700)
    expect(other.remainingMs('', now)).toBe(700)
    other.close('key-1', now + 900)
    expect(other.remainingMs('key-1', now)).toBe(900)
    expect(other.remainingMs('key-2', now)).toBe(700)
  })
})
