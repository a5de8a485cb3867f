import { bodyOf } from '../response-edits.js'
import type { Allowance, RefRequest, RefResponse } from '../types.js'
import { findWriteRoute } from '../writes.js'

const WRITES = { allowWrites: true } as const

/** The data of an accepted write's answer (2xx), to edit; `replay`: only the answer to the same key and body again. */
function acceptedWrite(
  response: RefResponse,
  request: RefRequest,
  replay = false,
): Record<string, unknown> | undefined {
  if (!findWriteRoute(request) || response.status >= 300) return undefined
  const data = bodyOf(response)?.data as Record<string, unknown> | undefined
  return !replay || data?.duplicate === true ? data : undefined
}

export const writesAllowances: readonly Allowance[] = [
  {
    name: 'duplicate-not-reported',
    description:
      'A replay (the same key and body) is answered with the existing status identifier and no duplicate member.',
    permittedBy: 'IDEM-DUPLICATE',
    run: WRITES,
    onResponse(response, request) {
      delete acceptedWrite(response, request, true)?.duplicate
    },
  },
  {
    name: 'replay-refused-conflict',
    description: 'A replay (the same key and body) is refused with 409 and an error body: no further order either.',
    permittedBy: 'IDEM-DUPLICATE',
    run: WRITES,
    onResponse(response, request) {
      if (!acceptedWrite(response, request, true)) return
      Object.assign(response, {
        status: 409,
        body: {
          error: 'this submission was already accepted',
          code: 'idempotency_key_in_use',
          requestId: response.headers['x-request-id'],
        },
      })
    },
  },
  {
    name: 'key-reuse-refused-conflict',
    description:
      'Another body under a used Idempotency-Key is refused with 409 instead of 422: either is a status its profile states.',
    permittedBy: 'IDEM-KEY-REUSE-REFUSED',
    run: WRITES,
    onResponse(response, request) {
      if (findWriteRoute(request) && bodyOf(response)?.code === 'idempotency_key_reused') response.status = 409
    },
  },
  {
    name: 'idempotency-key-refused-422',
    description: 'A write without a valid Idempotency-Key is refused with 422 instead of 400.',
    permittedBy: 'IDEM-KEY-REQUIRED',
    run: WRITES,
    onResponse(response, request) {
      const body = bodyOf(response)
      if (
        findWriteRoute(request) &&
        ['idempotency_key_required', 'invalid_idempotency_key'].includes(body?.code as string)
      )
        response.status = 422
    },
  },
  {
    name: 'cancellation-refused-not-found',
    description:
      "A cancellation without the intent's receipt, or with a wrong one, is refused with 404, as the status operation refuses a receipt that does not match.",
    permittedBy: 'RCPT-CANCELLATION-CREDENTIAL',
    run: WRITES,
    onResponse(response, request) {
      const code = bodyOf(response)?.code
      if (findWriteRoute(request) && (code === 'receipt_required' || code === 'receipt_mismatch')) {
        response.status = 404
        bodyOf(response)!.code = 'intent_not_found'
      }
    },
  },
  {
    name: 'intake-answer-extra-members',
    description:
      'An accepted write answers with members the profile does not name (acceptedAt, a status link without the receipt).',
    permittedBy: 'IDEM-INTAKE-RECEIPT',
    run: WRITES,
    onResponse(response, request) {
      const data = acceptedWrite(response, request)
      if (!data) return
      data.acceptedAt = String(Math.floor(Date.now() / 1000))
      if (typeof data.hash === 'string') {
        data.statusUrl = `/v1/intents/${data.hash}`
        response.headers.location = `/v1/intents/${data.hash}`
      }
    },
  },
]
