import { BREAKER_CELLS } from './circuit-breaker.js'

/**
 * What every client of a run shares, whichever worker thread it lives in: the number of requests in flight, the
 * 429 gate (per key, and for the run) and the circuit breaker's counts. One SharedArrayBuffer, handed to the workers
 * with the settings, so that the concurrency bound and the quota gate hold for the whole run even when concern files
 * run in parallel workers.
 */
const GATE_SLOTS = 64
const GATE_OFFSET = 8

const BREAKER_OFFSET = GATE_OFFSET + 8 * GATE_SLOTS

export function createSharedState(): SharedArrayBuffer {
  return new SharedArrayBuffer(BREAKER_OFFSET + 4 * BREAKER_CELLS)
}

/** One Int32: requests in flight. */
export function inFlightCounter(state: SharedArrayBuffer): Int32Array<SharedArrayBuffer> {
  return new Int32Array(state, 0, 1)
}

/**
 * Epoch ms until which a quota is closed, one BigInt64 per slot: the run's own, then API keys hashed onto the rest (two
 * keys sharing one only wait longer).
 */
export function gateSlots(state: SharedArrayBuffer): BigInt64Array<SharedArrayBuffer> {
  return new BigInt64Array(state, GATE_OFFSET, GATE_SLOTS)
}

/** The circuit breaker's cells (circuit-breaker.ts). */
export function breakerCells(state: SharedArrayBuffer): Int32Array<SharedArrayBuffer> {
  return new Int32Array(state, BREAKER_OFFSET, BREAKER_CELLS)
}
