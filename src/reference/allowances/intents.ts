import { createHash } from 'node:crypto'
import { bodyOf, isOperation } from '../response-edits.js'
import type { ReferenceData } from '../data.js'
import type { Allowance, RefRequest, RefResponse } from '../types.js'

/** Rewrites an intent refusal of the reference (by its error code) to another declared 4xx. */
function refuseAs(response: RefResponse, codes: readonly string[], status: number, code: string): void {
  const body = bodyOf(response)
  if (!body || !codes.includes(body.code as string)) return
  response.status = status
  body.code = code
}

/** Whether a request reads the status of an intent the reference has, or of one it has not. */
function readsIntent(request: RefRequest, data: ReferenceData, known: boolean): boolean {
  const hash = request.route?.params.hash?.toLowerCase()
  return (
    isOperation(request, 'getIntentStatus') &&
    data.intents.some((intent) => intent.hash.toLowerCase() === hash) === known
  )
}

export const intentsAllowances: readonly Allowance[] = [
  {
    name: 'receipt-mismatch-answered-403',
    description:
      'A receipt that does not match an intent that exists is refused with 403 instead of 404 (an unknown intent still gets 404).',
    permittedBy: 'RCPT-WRONG-NO-ACCESS',
    onResponse(response, request, data) {
      if (readsIntent(request, data, true)) refuseAs(response, ['intent_not_found'], 403, 'receipt_mismatch')
    },
  },
  {
    name: 'unknown-intent-answered-401',
    description: 'A hash that names no intent is refused with 401, as a status no receipt can grant, instead of 404.',
    permittedBy: 'RCPT-WRONG-NO-ACCESS',
    skips: ['errors/unknown-intent-not-found'],
    onResponse(response, request, data) {
      if (readsIntent(request, data, false)) refuseAs(response, ['intent_not_found'], 401, 'unauthorized')
    },
  },
  {
    name: 'receipt-matched-before-length',
    description:
      "The intent is looked up and the receipt compared before the receipt's length is validated: a receipt outside 1 to 512 characters gets 404 like any receipt that does not match.",
    permittedBy: 'RCPT-LENGTH-NO-ACCESS',
    skips: ['errors/intent-validation-unprocessable'],
    onResponse(response, request) {
      if (isOperation(request, 'getIntentStatus')) refuseAs(response, ['invalid_receipt'], 404, 'intent_not_found')
    },
  },
  {
    name: 'missing-receipt-answered-401',
    description:
      'A missing receipt is refused as a missing credential with 401 instead of 422 (an over-long one still fails validation).',
    permittedBy: 'RCPT-MISSING-NO-ACCESS',
    onResponse(response, request) {
      if (isOperation(request, 'getIntentStatus')) refuseAs(response, ['receipt_required'], 401, 'receipt_required')
    },
  },
  {
    name: 'malformed-hash-answered-404',
    description: 'A malformed hash is answered like an unknown intent, 404 instead of 422.',
    permittedBy: 'EP-INTENT-HASH-FORMAT',
    onResponse(response, request) {
      if (isOperation(request, 'getIntentStatus')) refuseAs(response, ['invalid_hash'], 404, 'intent_not_found')
    },
  },
  {
    name: 'order-hash-not-path-hash',
    description:
      "The intent status's orderHash is the hash of its order, not the {hash} of the path (the contract never says the two are the same).",
    permittedBy: 'RCPT-VALID-GRANTS',
    onResponse(response, request) {
      if (!isOperation(request, 'getIntentStatus') || response.status !== 200 || !bodyOf(response)) return
      const status = structuredClone(bodyOf(response)!)
      status.orderHash = `0x${createHash('sha256').update(`order of ${request.route!.params.hash!.toLowerCase()}`).digest('hex')}`
      response.body = status
    },
  },
]
