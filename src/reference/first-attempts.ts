import { createHash } from 'node:crypto'
import type { ReferenceData } from './data.js'
import { findRoute } from './handlers.js'
import type { RefRequest } from './types.js'

/**
 * The requests each reference server has answered, by identity: a second request with the same identity is a client's
 * retry.
 */
const seen = new WeakMap<ReferenceData, Map<string, number>>()

/** A request's identity: its method, path, query and the headers a client sends again unchanged when it retries. */
function identity(request: RefRequest): string {
  const { method, path, query, headers } = request
  return JSON.stringify([method, path, query.toString(), headers['x-api-key'], headers['x-request-id'], headers.accept])
}

/**
 * Which attempt of the same request this one is (1 the first), counted per reference server: a behaviour that answers a
 * first attempt otherwise than its retry does so whatever the order of the run's requests.
 */
export function attemptOf(request: RefRequest, data: ReferenceData): number {
  const attempts = seen.get(data) ?? new Map<string, number>()
  seen.set(data, attempts)
  const key = identity(request)
  const attempt = (attempts.get(key) ?? 0) + 1
  attempts.set(key, attempt)
  return attempt
}

/**
 * Whether a GET of an operation is one of every `every` requests, chosen by a hash of its identity: the same requests
 * whatever the timing, a different share of them for each `salt`.
 */
export function isChosenRead(request: RefRequest, every: number, salt: string): boolean {
  const route = findRoute(request.path)
  if (request.method !== 'GET' || route === undefined || route === 'malformed') return false
  return createHash('sha256').update(salt).update(identity(request)).digest().readUInt32BE(0) % every === 0
}
