import { createHash, randomBytes } from 'node:crypto'
import { wireOrder, type IntentRecord, type ReferenceData } from './data.js'
import { errorResponse } from './handlers.js'
import { publishState } from './realtime.js'
import { signedBodyOf, type SignedKind, type UnsignedBody } from './signer.js'
import type { RefRequest, RefResponse } from './types.js'

/**
 * The reference's reading of "8 to 128 safe characters": URL-unreserved characters (its profile says which members
 * answer).
 */
export const REFERENCE_IDEMPOTENCY_KEY = /^[A-Za-z0-9._~-]{8,128}$/
/** The state of an intent whose lifecycle a cancellation ended (a terminal state of the reference's profile). */
export const CANCELLED = 'cancelled'

/** The header the reference's chained cancellation takes the intent's receipt in (its profile says so). */
export const CANCELLATION_RECEIPT_HEADER = 'x-receipt'
/** The chained cancellation of an intent accepted by the intake: its hash in the path, its receipt in a header. */
const CHAINED_CANCELLATION = /^\/v1\/intents\/(0x[0-9a-f]{64})\/cancellation$/

interface WriteRoute {
  method: string
  /** The path, or a pattern of paths whose first group is the hash of the intent the write acts on. */
  path: string | RegExp
  kind: SignedKind
  /** A refusal of a write, signed and keyed, that is not the same submission again; undefined to accept it. */
  refuse?(data: ReferenceData, request: RefRequest, body: UnsignedBody): RefResponse | undefined
  /** The data of an accepted submission: its status identifier, and an intake's receipt. */
  accept(data: ReferenceData, digest: string, body: UnsignedBody, request: RefRequest): Record<string, unknown>
}

/** The intent accepted by the intake that a chained cancellation's path names, if any. */
export function cancelledIntent(data: ReferenceData, request: RefRequest): IntentRecord | undefined {
  const hash = CHAINED_CANCELLATION.exec(request.path)?.[1]
  return data.intents.find((intent) => intent.written && intent.hash === hash)
}

export const writeRoutes: readonly WriteRoute[] = [
  {
    method: 'POST',
    path: '/v1/intents',
    kind: 'intent',
    accept(data, digest) {
      const hash = `0x${digest}`
      const receipt = `rcpt_${randomBytes(20).toString('hex')}`
      const now = String(Math.floor(Date.now() / 1000))
      data.intents.push({
        hash,
        receipt,
        status: {
          orderHash: hash,
          state: 'pending',
          createdAt: now,
          updatedAt: now,
          order: wireOrder(`written/${digest}`, data.trader),
        },
        written: true,
      })
      return { hash, receipt }
    },
  },
  {
    method: 'POST',
    path: '/v1/cancellations',
    kind: 'cancellation',
    refuse(_data, _request, body) {
      // An intent is cancelled only with its receipt, at its own path.
      if (body.intent !== undefined)
        return errorResponse(
          422,
          'receipt_required',
          'an intent is cancelled at /v1/intents/{hash}/cancellation with its receipt in X-Receipt',
        )
    },
    accept: cancellationAccepted,
  },
  {
    method: 'POST',
    path: CHAINED_CANCELLATION,
    kind: 'cancellation',
    refuse(data, request, body) {
      const receipt = request.headers[CANCELLATION_RECEIPT_HEADER]
      if (receipt === undefined)
        return errorResponse(400, 'receipt_required', 'X-Receipt is required to cancel an intent')
      const intent = cancelledIntent(data, request)
      // An unknown intent and a receipt that does not match answer alike, so a receipt cannot probe for intents.
      if (!intent || intent.receipt !== receipt || (body.intent !== undefined && body.intent !== intent.hash))
        return errorResponse(403, 'receipt_mismatch', 'no intent matches this hash and receipt')
    },
    accept(data, _digest, _body, request) {
      const intent = cancelledIntent(data, request)!
      intent.status = { ...intent.status, state: CANCELLED, updatedAt: String(Math.floor(Date.now() / 1000)) }
      publishState(data, intent)
      return cancellationAccepted()
    },
  },
]

/** The answer of an accepted cancellation: its own status identifier. */
function cancellationAccepted(): Record<string, unknown> {
  return { id: `cxl_${randomBytes(12).toString('hex')}` }
}

export function findWriteRoute(request: RefRequest): WriteRoute | undefined {
  return writeRoutes.find(
    (route) =>
      route.method === request.method &&
      (typeof route.path === 'string' ? route.path === request.path : route.path.test(request.path)),
  )
}

/**
 * A relayed write: refused without a valid Idempotency-Key or a signed body; the same key with the same body is the
 * same submission again (duplicate: true, the same identifier); the same key with another body is refused.
 */
export function handleWrite(route: WriteRoute, request: RefRequest, data: ReferenceData): RefResponse {
  const key = request.headers['idempotency-key']
  if (key === undefined) return errorResponse(400, 'idempotency_key_required', 'Idempotency-Key is required')
  if (!REFERENCE_IDEMPOTENCY_KEY.test(key))
    return errorResponse(
      400,
      'invalid_idempotency_key',
      'Idempotency-Key must be 8 to 128 letters, digits, ".", "_", "~" or "-"',
    )
  const body = signedBodyOf(request.body, route.kind)
  if (!body) return errorResponse(422, 'invalid_signature', `the body is not a ${route.kind} signed by its trader`)
  const digest = createHash('sha256').update(request.body!).digest('hex')
  const refusal = route.refuse?.(data, request, body)
  if (refusal) return refusal
  const stored = data.submissions.get(`${request.path} ${key}`)
  if (stored) {
    if (stored.digest !== digest)
      return errorResponse(422, 'idempotency_key_reused', 'this Idempotency-Key was sent with another body')
    return { status: 200, headers: {}, body: { data: { ...stored.answer, duplicate: true } } }
  }
  const answer = route.accept(data, digest, body, request)
  data.submissions.set(`${request.path} ${key}`, { digest, answer })
  return { status: 202, headers: {}, body: { data: { ...answer, duplicate: false } } }
}
