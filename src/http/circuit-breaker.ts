import { setMaxListeners } from 'node:events'
import type { Exchange } from './exchange.js'
import { endingInWords } from './transport-errors.js'

/** Atomics.waitAsync (Node 16+), missing from the ES2022 library typings this project compiles against. */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      array: Int32Array<SharedArrayBuffer>,
      index: number,
      value: number,
    ): { async: boolean; value: Promise<unknown> | string }
  }
).waitAsync

/**
 * Requests are counted per key (an operation, or a path): each known key has a slot of its own, other keys are hashed
 * onto the rest.
 */
export const BREAKER_SLOTS = 16
/**
 * Cells: the run's consecutive unanswered requests, the slots they touched (a bit mask), the count when the whole
 * breaker tripped (0: closed), how the last unanswered request ended; then per slot its consecutive unanswered requests
 * and the count when it tripped.
 */
const CONSECUTIVE = 0
const TOUCHED = 1
const TRIPPED_AT = 2
const LAST_ENDING = 3
const SLOT_COUNT = 4
const SLOT_TRIPPED_AT = SLOT_COUNT + BREAKER_SLOTS
export const BREAKER_CELLS = SLOT_TRIPPED_AT + BREAKER_SLOTS

/** The code of an exchange the breaker did not send, or cut off: checks that meet it are reported not run. */
export const NOT_ANSWERING = 'TARGET_NOT_ANSWERING'

/**
 * How an unanswered request ended, as a number a shared cell can hold: its index here plus one; 0 for any other code.
 */
const UNANSWERED_ENDINGS = [
  'TIMEOUT',
  'ECONNRESET',
  'UND_ERR_SOCKET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'UND_ERR_CLOSED',
]

/**
 * Codes of requests that ended without a response for reasons of the run, not of the target (CHECK_ENDED: cut off as
 * its check ended).
 */
const RUN_ENDINGS = new Set(['RUN_TIME_BOUND', 'RUN_INTERRUPTED', 'CHECK_ENDED', NOT_ANSWERING])

/**
 * Stops sending to a target that stopped answering. A request that ends without a response (a timeout, a reset, a body
 * that never completes) counts; any response resets the count. When `threshold` requests in a row to one operation go
 * unanswered, that operation is closed; when they span two operations or more, the whole target is, and requests in
 * flight are cut off. A target slow on one operation only thus closes that operation, never the others. The cells live
 * on the run's shared state, so the breaker holds across workers.
 */
export class CircuitBreaker {
  private readonly cutOff = new AbortController()

  constructor(
    private readonly cells: Int32Array<SharedArrayBuffer>,
    private readonly threshold: number,
    private readonly knownKeys: readonly string[] = [],
  ) {
    // Every request of the run listens to it while in flight, and stops listening when it settles.
    setMaxListeners(0, this.cutOff.signal)
    this.watchTrip()
  }

  /** Aborted when the whole breaker trips, in whichever worker: requests in flight are cut off. */
  get signal(): AbortSignal {
    return this.cutOff.signal
  }

  /** Why a request to `key` is not sent, or undefined when it may be. */
  refusal(key: string): NonNullable<Exchange['error']> | undefined {
    const all = Atomics.load(this.cells, TRIPPED_AT)
    if (all > 0) return this.stoppedAnswering('the target', all, 'not sent')
    const one = Atomics.load(this.cells, SLOT_TRIPPED_AT + this.slotOf(key))
    return one > 0 ? this.stoppedAnswering(key, one, 'not sent') : undefined
  }

  /** Why an exchange cut off by the trip ended, for the client to report. */
  cutOffError(): NonNullable<Exchange['error']> {
    return this.stoppedAnswering('the target', Atomics.load(this.cells, TRIPPED_AT), 'cut off')
  }

  /** Counts how a request to `key` ended. */
  record(key: string, exchange: Exchange): void {
    if (exchange.response) {
      Atomics.store(this.cells, CONSECUTIVE, 0)
      Atomics.store(this.cells, TOUCHED, 0)
      Atomics.store(this.cells, SLOT_COUNT + this.slotOf(key), 0)
      return
    }
    const code = exchange.error?.code ?? ''
    if (RUN_ENDINGS.has(code)) return
    Atomics.store(this.cells, LAST_ENDING, UNANSWERED_ENDINGS.indexOf(code) + 1)
    const slot = this.slotOf(key)
    const inRow = Atomics.add(this.cells, CONSECUTIVE, 1) + 1
    const touched = Atomics.or(this.cells, TOUCHED, 1 << slot) | (1 << slot)
    const toSlot = Atomics.add(this.cells, SLOT_COUNT + slot, 1) + 1
    if (toSlot >= this.threshold) Atomics.compareExchange(this.cells, SLOT_TRIPPED_AT + slot, 0, toSlot)
    if (
      inRow >= this.threshold &&
      bitCount(touched) >= 2 &&
      Atomics.compareExchange(this.cells, TRIPPED_AT, 0, inRow) === 0
    ) {
      Atomics.notify(this.cells, TRIPPED_AT)
    }
  }

  private stoppedAnswering(what: string, count: number, done: string): NonNullable<Exchange['error']> {
    const last = UNANSWERED_ENDINGS[Atomics.load(this.cells, LAST_ENDING) - 1]
    const ending = last === undefined ? 'timeouts, resets' : `the last one: ${endingInWords(last)}`
    return {
      code: NOT_ANSWERING,
      message: `${done}: ${what} stopped answering: ${count} requests in a row ended without a response (${ending})`,
    }
  }

  private slotOf(key: string): number {
    const known = this.knownKeys.indexOf(key)
    if (known >= 0 && known < BREAKER_SLOTS) return known
    let hash = 0
    for (let i = 0; i < key.length; i++) hash = (Math.imul(hash, 31) + key.charCodeAt(i)) | 0
    const shared = Math.max(BREAKER_SLOTS - this.knownKeys.length, 1)
    return BREAKER_SLOTS - shared + ((hash >>> 0) % shared)
  }

  private watchTrip(): void {
    const waiting = waitAsync(this.cells, TRIPPED_AT, 0)
    // A pending wait does not keep a process alive.
    if (waiting.async) void (waiting.value as Promise<unknown>).then(() => this.cutOff.abort())
    else this.cutOff.abort()
  }
}

function bitCount(mask: number): number {
  let count = 0
  for (let bits = mask; bits !== 0; bits &= bits - 1) count++
  return count
}
