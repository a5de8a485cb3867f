import { createHash, randomBytes } from 'node:crypto'
import type { ReferenceData } from '../data.js'
import { bodyOf, isOperation } from '../response-edits.js'
import type { Fault, RefRequest, RefResponse } from '../types.js'
import {
  CANCELLATION_RECEIPT_HEADER,
  CANCELLED,
  cancelledIntent,
  findWriteRoute,
  REFERENCE_IDEMPOTENCY_KEY,
} from '../writes.js'

const WRITES = { allowWrites: true } as const

/** A valid key derived from what the request sent, so that the same request is still the same submission. */
const derivedKey = (text: string) => `k${createHash('sha256').update(text).digest('hex').slice(0, 31)}`

/**
 * A fault that rewrites the Idempotency-Key of a write, before the reference reads it, when the key sent passes a
 * broken test.
 */
function keyFault(
  name: string,
  description: string,
  breaks: Fault['breaks'],
  rewrite: (key: string | undefined, request: RefRequest) => string | undefined,
): Fault {
  return {
    name,
    description,
    breaks,
    run: WRITES,
    onRequest(request) {
      if (findWriteRoute(request))
        request.headers['idempotency-key'] = rewrite(request.headers['idempotency-key'], request)
    },
  }
}

/** The data of an accepted intake answer (2xx), to edit. */
function acceptedIntake(response: RefResponse, request: RefRequest): Record<string, unknown> | undefined {
  if (findWriteRoute(request)?.kind !== 'intent' || response.status >= 300) return undefined
  return bodyOf(response)?.data as Record<string, unknown> | undefined
}

const written = (data: ReferenceData) => data.intents.filter((intent) => intent.written)

export const writesFaults: readonly Fault[] = [
  keyFault(
    'write-without-key-accepted',
    'A write without Idempotency-Key is accepted, keyed by its body.',
    ['writes/missing-key-refused', 'every-response/accepted-write-carries-key'],
    (key, request) => key ?? derivedKey(request.body ?? ''),
  ),
  keyFault(
    'idempotency-key-length-unchecked',
    'An Idempotency-Key of any length is accepted (a 7- or 129-character key too).',
    ['writes/key-length-outside-bounds-refused', 'every-response/accepted-write-carries-key'],
    (key) =>
      key !== undefined && /^[A-Za-z0-9._~-]+$/.test(key) && !REFERENCE_IDEMPOTENCY_KEY.test(key)
        ? derivedKey(key)
        : key,
  ),
  keyFault(
    'idempotency-key-characters-unchecked',
    'An Idempotency-Key of 8 to 128 characters of any kind is accepted (a space, quotes, angle brackets too).',
    ['writes/unsafe-key-refused', 'every-response/accepted-write-carries-key'],
    (key) =>
      key !== undefined && key.length >= 8 && key.length <= 128 && !REFERENCE_IDEMPOTENCY_KEY.test(key)
        ? derivedKey(key)
        : key,
  ),
  keyFault(
    'replay-creates-second-order',
    'The Idempotency-Key is not remembered: the same body with the same key creates a further order each time.',
    ['writes/replay-creates-no-second-order', 'writes/key-reuse-with-another-body-refused'],
    (key) =>
      key !== undefined && REFERENCE_IDEMPOTENCY_KEY.test(key)
        ? `${key.slice(0, 100)}-${randomBytes(8).toString('hex')}`
        : key,
  ),
  keyFault(
    'key-reuse-accepts-another-body',
    'An Idempotency-Key is remembered with its body only: another body under a used key is taken as a further order.',
    ['writes/key-reuse-with-another-body-refused'],
    (key, request) =>
      key !== undefined && REFERENCE_IDEMPOTENCY_KEY.test(key) ? derivedKey(`${key} ${request.body ?? ''}`) : key,
  ),
  {
    name: 'key-reuse-refused-unlisted-status',
    description:
      'Another body under a used Idempotency-Key is refused with 400, a status its profile does not state for that refusal.',
    breaks: ['writes/key-reuse-with-another-body-refused'],
    run: WRITES,
    onResponse(response, request) {
      if (findWriteRoute(request) && bodyOf(response)?.code === 'idempotency_key_reused') response.status = 400
    },
  },
  {
    name: 'idempotency-key-over-64-refused',
    description:
      'An Idempotency-Key longer than 64 characters is refused (a column of 64), though the contract allows 128.',
    breaks: ['writes/key-length-within-bounds-accepted'],
    run: WRITES,
    onResponse(response, request) {
      const key = request.headers['idempotency-key']
      if (!findWriteRoute(request) || key === undefined || key.length <= 64) return
      response.status = 400
      response.body = {
        error: 'Idempotency-Key must be at most 64 characters',
        code: 'invalid_idempotency_key',
        requestId: response.headers['x-request-id'],
      }
    },
  },
  {
    name: 'intake-without-receipt',
    description: 'An accepted intent intake returns its status identifier but no receipt capability.',
    breaks: [
      'writes/intake-returns-identifier-and-receipt',
      'writes/receipt-grants-only-its-own-status',
      'writes/receipt-not-in-response-url',
      'writes/cancellation-ends-lifecycle',
      'writes/cancellation-needs-its-receipt',
      'realtime/lifecycle-ends-on-channel',
    ],
    run: WRITES,
    onResponse(response, request) {
      delete acceptedIntake(response, request)?.receipt
    },
  },
  {
    name: 'written-receipt-grants-any-written-intent',
    description:
      'The receipt of any intent accepted by the intake grants the status of every other intent accepted by it.',
    breaks: ['writes/receipt-grants-only-its-own-status'],
    run: WRITES,
    onResponse(response, request, data) {
      if (!isOperation(request, 'getIntentStatus') || response.status !== 404) return
      const hash = request.route!.params.hash!.toLowerCase()
      const intent = written(data).find((i) => i.hash === hash)
      if (intent && written(data).some((i) => i.receipt === request.query.get('receipt')))
        Object.assign(response, { status: 200, body: structuredClone(intent.status) })
    },
  },
  {
    name: 'cancellation-leaves-lifecycle-open',
    description: 'A cancellation of an intent is accepted, but the intent stays pending: its lifecycle never ends.',
    breaks: ['writes/cancellation-ends-lifecycle', 'realtime/lifecycle-ends-on-channel'],
    run: WRITES,
    onResponse(response, request, data) {
      const route = findWriteRoute(request)
      if (route?.kind !== 'cancellation' || response.status >= 300) return
      const cancelled = written(data).find((intent) => intent.status.state === CANCELLED)
      if (cancelled) cancelled.status = { ...cancelled.status, state: 'pending' }
    },
  },
  {
    name: 'cancellation-receipt-unchecked',
    description:
      'The cancellation of an intent asks for its receipt in X-Receipt but takes any, or none: anyone who knows the hash cancels.',
    breaks: ['writes/cancellation-needs-its-receipt'],
    run: WRITES,
    onRequest(request, data) {
      const intent = findWriteRoute(request) && cancelledIntent(data, request)
      if (intent) request.headers[CANCELLATION_RECEIPT_HEADER] = intent.receipt
    },
  },
  {
    name: 'cancellation-takes-any-written-receipt',
    description: 'The cancellation of an intent takes the receipt of any intent the intake accepted, not only its own.',
    breaks: ['writes/cancellation-needs-its-receipt'],
    run: WRITES,
    onRequest(request, data) {
      const intent = findWriteRoute(request) && cancelledIntent(data, request)
      const sent = request.headers[CANCELLATION_RECEIPT_HEADER]
      if (intent && written(data).some((other) => other.receipt === sent))
        request.headers[CANCELLATION_RECEIPT_HEADER] = intent.receipt
    },
  },
  {
    name: 'cancellation-refused-conflict',
    description:
      'A cancellation with a wrong receipt is refused with 409, as if the intent were already cancelled: a status its profile does not state for a refusal.',
    breaks: ['writes/cancellation-needs-its-receipt'],
    run: WRITES,
    onResponse(response, request) {
      if (findWriteRoute(request) && bodyOf(response)?.code === 'receipt_mismatch') response.status = 409
    },
  },
  {
    name: 'receipt-in-location',
    description: 'An accepted intent intake answers with Location: its status URL, receipt included, in the query.',
    breaks: ['writes/receipt-not-in-response-url'],
    run: WRITES,
    onResponse(response, request) {
      const data = acceptedIntake(response, request)
      if (typeof data?.receipt === 'string')
        response.headers.location = `/v1/intents/${data.hash}?receipt=${encodeURIComponent(data.receipt)}`
    },
  },
]
