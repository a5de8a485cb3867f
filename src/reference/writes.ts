import { createHash, randomBytes } from 'node:crypto'
import { wireOrder, type ReferenceData } from './data.js'
import { errorResponse } from './handlers.js'
import { signedBodyOf, type SignedKind, type UnsignedBody } from './signer.js'
import type { RefRequest, RefResponse } from './types.js'

/**
 * The reference's reading of "8 to 128 safe characters": URL-unreserved characters (its profile says which members
 * answer).
 */
export const REFERENCE_IDEMPOTENCY_KEY = /^[A-Za-z0-9._~-]{8,128}$/
/** The state of an intent whose lifecycle a cancellation ended (a terminal state of the reference's profile). */
export const CANCELLED = 'cancelled'

interface WriteRoute {
  method: string
  path: string
  kind: SignedKind
  /** The data of an accepted submission: its status identifier, and an intake's receipt. */
  accept(data: ReferenceData, digest: string, body: UnsignedBody): Record<string, unknown>
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
    accept(data, _, body) {
      // A cancellation that names an intent accepted by the intake ends its lifecycle; one that names none cancels
      // nothing.
      const intent = data.intents.find((i) => i.written && i.hash === body.intent)
      if (intent)
        intent.status = { ...intent.status, state: CANCELLED, updatedAt: String(Math.floor(Date.now() / 1000)) }
      return { id: `cxl_${randomBytes(12).toString('hex')}` }
    },
  },
]

export function findWriteRoute(request: RefRequest): WriteRoute | undefined {
  return writeRoutes.find((route) => route.method === request.method && route.path === request.path)
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
  const stored = data.submissions.get(`${route.path} ${key}`)
  if (stored) {
    if (stored.digest !== digest)
      return errorResponse(422, 'idempotency_key_reused', 'this Idempotency-Key was sent with another body')
    return { status: 200, headers: {}, body: { data: { ...stored.answer, duplicate: true } } }
  }
  const answer = route.accept(data, digest, body)
  data.submissions.set(`${route.path} ${key}`, { digest, answer })
  return { status: 202, headers: {}, body: { data: { ...answer, duplicate: false } } }
}
