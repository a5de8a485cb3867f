import { RESERVED_CHARACTER_RECEIPTS, type IntentRecord, type ReferenceData } from '../data.js'
import { gzipSync } from 'node:zlib'
import { bodyOf, errorBodyOf, isOperation } from '../response-edits.js'
import { attemptOf } from '../first-attempts.js'
import type { Fault, RefRequest, RefResponse } from '../types.js'

const HASH = /^0x[0-9a-fA-F]{64}$/

/**
 * The stored intent whose well-formed hash the request names (either case of hex digit), for the intent operation only.
 */
function askedIntent(request: RefRequest, data: ReferenceData): IntentRecord | undefined {
  const hash = isOperation(request, 'getIntentStatus') ? request.route!.params.hash! : ''
  return HASH.test(hash) ? data.intents.find((intent) => intent.hash.toLowerCase() === hash.toLowerCase()) : undefined
}

/** Answers the intent's status whatever the handler decided. */
function grant(response: RefResponse, intent: IntentRecord): void {
  response.status = 200
  response.body = structuredClone(intent.status)
}

/** A copy of a 200 intent status, safe to edit without touching the stored fixture. */
function grantedStatus(response: RefResponse, request: RefRequest): Record<string, unknown> | undefined {
  if (!isOperation(request, 'getIntentStatus') || response.status !== 200) return undefined
  response.body = structuredClone(response.body)
  return bodyOf(response)
}

function crash(response: RefResponse, message: string): void {
  response.status = 500
  response.body = { error: message, code: 'internal', requestId: response.headers['x-request-id'] }
}

/**
 * A fault that grants an intent's status when the request names a stored intent and the receipt sent passes a broken
 * test.
 */
function receiptFault(
  name: string,
  description: string,
  breaks: Fault['breaks'],
  accepts: (receipt: string | null, intent: IntentRecord, data: ReferenceData) => boolean,
): Fault {
  return {
    name,
    description,
    breaks,
    onResponse(response, request, data) {
      // The receipt test is what is broken, not the key check before it: a refused key stays refused.
      if (response.status === 401 || response.status === 403) return
      const intent = askedIntent(request, data)
      if (intent && accepts(request.query.get('receipt'), intent, data)) grant(response, intent)
    },
  }
}

export const intentsFaults: readonly Fault[] = [
  receiptFault(
    'receipt-not-checked',
    'The intent status is answered for any known hash; the receipt is never looked at.',
    [
      'errors/intent-validation-unprocessable',
      'intents/missing-receipt-refused',
      'intents/empty-receipt-refused',
      'intents/oversized-receipt-refused',
      'intents/wrong-receipt-refused',
      'intents/receipt-bound-to-intent',
      'properties/out-of-bounds-receipt-refused',
      'properties/wrong-receipt-refused',
    ],
    () => true,
  ),
  receiptFault(
    'receipt-checked-only-when-truthy',
    'The receipt is compared only when it is truthy, so a missing or empty receipt grants access.',
    ['intents/missing-receipt-refused', 'intents/empty-receipt-refused', 'properties/out-of-bounds-receipt-refused'],
    (receipt) => !receipt,
  ),
  receiptFault(
    'receipt-checked-for-presence-only',
    'Any receipt of 1 to 512 characters grants access; its value is not compared.',
    ['intents/wrong-receipt-refused', 'intents/receipt-bound-to-intent', 'properties/wrong-receipt-refused'],
    (receipt) => receipt !== null && receipt.length >= 1 && receipt.length <= 512,
  ),
  receiptFault(
    'receipt-matched-by-prefix',
    "No maximum length is enforced and the receipt is compared only up to the stored receipt's length, so a 513-character receipt that starts with the real one grants access.",
    [
      'intents/oversized-receipt-refused',
      'properties/out-of-bounds-receipt-refused',
      'properties/wrong-receipt-refused',
    ],
    (receipt, intent) => receipt !== null && receipt.startsWith(intent.receipt),
  ),
  receiptFault(
    'receipt-of-any-intent-accepted',
    'A receipt grants access to any intent as long as it belongs to some intent.',
    ['intents/receipt-bound-to-intent'],
    (receipt, _, data) => data.intents.some((intent) => intent.receipt === receipt),
  ),
  receiptFault(
    'receipt-compared-without-case',
    'The receipt is compared without regard to letter case (both lower-cased first), so the real receipt with its letters in the other case grants access.',
    ['properties/wrong-receipt-refused'],
    (receipt, intent) => receipt !== null && receipt.toLowerCase() === intent.receipt.toLowerCase(),
  ),
  receiptFault(
    'receipt-matched-as-prefix-of-stored',
    "The receipt is looked up as a prefix of the stored one (LIKE 'given%'), so the real receipt without its last character grants access.",
    ['properties/wrong-receipt-refused'],
    (receipt, intent) => !!receipt && receipt.length >= 8 && intent.receipt.startsWith(receipt),
  ),
  receiptFault(
    'receipt-compared-on-leading-characters',
    'Only the first 32 characters of the receipt are compared (a fixed-width column), so the real receipt with its last character changed grants access.',
    ['properties/wrong-receipt-refused'],
    (receipt, intent) =>
      receipt !== null &&
      receipt.length === intent.receipt.length &&
      receipt.slice(0, 32) === intent.receipt.slice(0, 32),
  ),
  receiptFault(
    'receipt-normalised-nfkc',
    'The receipt is NFKC-normalised before it is compared, so the real receipt written in full-width characters grants access.',
    ['properties/wrong-receipt-refused'],
    (receipt, intent) => receipt !== null && receipt.normalize('NFKC') === intent.receipt,
  ),
  {
    name: 'malformed-hash-500',
    description: 'A malformed hash reaches the database query, which throws: 500 instead of a 4xx.',
    // No access is granted, so the refusal checks pass; a malformed hash is a validation failure (400 or 422), which a
    // 500 is not.
    breaks: ['every-response/malformed-request-not-5xx', 'intents/refusals-declared-4xx'],
    ruleWitnesses: ['intents/malformed-hash-refused'],
    onResponse(response, request) {
      if (isOperation(request, 'getIntentStatus') && bodyOf(response)?.code === 'invalid_hash')
        crash(response, 'invalid input syntax for type bytea')
    },
  },
  {
    name: 'receipt-mismatch-500',
    description:
      "A receipt of the right length that is not the intent's makes the comparison throw: 500 instead of a 4xx.",
    breaks: [
      'every-response/allowed-request-not-500',
      'every-response/malformed-request-not-5xx',
      'intents/refusals-declared-4xx',
    ],
    ruleWitnesses: ['intents/wrong-receipt-refused', 'properties/invalid-request-id-not-echoed'],
    onResponse(response, request, data) {
      const receipt = request.query.get('receipt')
      if (
        askedIntent(request, data) &&
        receipt !== null &&
        receipt.length >= 1 &&
        receipt.length <= 512 &&
        bodyOf(response)?.code === 'intent_not_found'
      )
        crash(response, 'receipt comparison failed')
    },
  },
  {
    name: 'receipt-out-of-bounds-500',
    description: 'A receipt outside 1 to 512 characters overflows a fixed-width column: 500 instead of a 4xx.',
    breaks: [
      'errors/intent-validation-unprocessable',
      'every-response/malformed-request-not-5xx',
      'intents/refusals-declared-4xx',
    ],
    ruleWitnesses: ['errors/intent-validation-unprocessable'],
    onResponse(response, request) {
      const receipt = request.query.get('receipt')
      if (
        isOperation(request, 'getIntentStatus') &&
        receipt !== null &&
        (receipt.length < 1 || receipt.length > 512) &&
        response.status === 422
      )
        crash(response, 'value too long for type character varying(512)')
    },
  },
  {
    name: 'malformed-hash-gateway-error',
    description:
      'A malformed hash makes the upstream crash: its gateway answers 502 to the first attempt and 500 to every later one.',
    // The 502 is retried as transient; the 500 that follows repeats, and is judged.
    breaks: ['every-response/malformed-request-not-5xx', 'intents/refusals-declared-4xx'],
    ruleWitnesses: ['intents/malformed-hash-refused'],
    onResponse(response, request, data) {
      if (!isOperation(request, 'getIntentStatus') || bodyOf(response)?.code !== 'invalid_hash') return
      crash(response, 'upstream connection reset')
      if (attemptOf(request, data) === 1) response.status = 502
    },
  },
  {
    name: 'malformed-hash-400',
    description:
      'A malformed hash gets 400, a status the intent operation does not declare (its validation failures are 422).',
    breaks: ['every-response/declared-status', 'intents/refusals-declared-4xx'],
    ruleWitnesses: ['intents/malformed-hash-refused'],
    onResponse(response, request) {
      if (isOperation(request, 'getIntentStatus') && bodyOf(response)?.code === 'invalid_hash') response.status = 400
    },
  },
  {
    name: 'hash-prefix-normalised',
    description: 'The hash prefix 0X is rewritten to 0x before validation, so a malformed hash gets the intent.',
    breaks: ['intents/malformed-hash-refused', 'properties/malformed-hash-rejected'],
    onRequest(request) {
      request.path = request.path.replace(/^\/v1\/intents\/0X/, '/v1/intents/0x')
    },
  },
  {
    name: 'intent-status-of-latest-intent',
    description:
      'A valid hash and receipt answer the status of the most recently created intent instead of the one asked for.',
    breaks: ['intents/receipt-grants-status'],
    onResponse(response, request, data) {
      if (!grantedStatus(response, request)) return
      const latest = data.intents.reduce((a, b) =>
        BigInt(b.status.createdAt as string) > BigInt(a.status.createdAt as string) ? b : a,
      )
      grant(response, latest)
    },
  },
  {
    name: 'intent-without-failure-crashes',
    description: 'Serialising an intent status without a failure member throws, so such an intent answers 500.',
    breaks: ['every-response/allowed-request-not-500', 'intents/second-receipt-grants-status'],
    onResponse(response, request) {
      const status = grantedStatus(response, request)
      if (status && status.failure === undefined)
        crash(response, "Cannot read properties of undefined (reading 'retryable')")
    },
  },
  {
    name: 'failure-marked-retryable',
    description: 'An intent status with failure reports failure.retryable true.',
    breaks: ['intents/failure-not-retryable'],
    onResponse(response, request) {
      const failure = grantedStatus(response, request)?.failure as Record<string, unknown> | undefined
      if (failure) failure.retryable = true
    },
  },
  {
    name: 'receipt-form-encoded-in-link',
    description:
      "An intent status carries a Link header to itself whose query is form-encoded (space as +, ~ ! ' ( ) escaped), receipt included.",
    breaks: ['every-response/receipt-not-disclosed'],
    ruleWitnesses: ['shapes/intent-trigger'],
    run: { receipts: RESERVED_CHARACTER_RECEIPTS },
    onResponse(response, request) {
      if (grantedStatus(response, request))
        response.headers.link = `<${request.path}?${new URLSearchParams(request.query).toString()}>; rel="self"`
    },
  },
  {
    name: 'receipt-lower-case-escapes-in-content-location',
    description:
      'An intent status carries Content-Location with the receipt percent-encoded in lower-case hex, as some proxies rewrite it.',
    breaks: ['every-response/receipt-not-disclosed'],
    ruleWitnesses: ['shapes/intent-trigger'],
    run: { receipts: RESERVED_CHARACTER_RECEIPTS },
    onResponse(response, request) {
      const receipt = request.query.get('receipt')
      if (grantedStatus(response, request) && receipt)
        response.headers['content-location'] =
          `${request.path}?receipt=${encodeURIComponent(receipt).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())}`
    },
  },
  {
    name: 'receipt-in-failure-with-escaped-slashes',
    description:
      "An intent status's failure message quotes the receipt, the body serialised with / escaped as \\/ (as PHP and some Java serialisers write JSON).",
    breaks: ['every-response/receipt-not-disclosed'],
    ruleWitnesses: ['shapes/intent-strict'],
    run: { receipts: RESERVED_CHARACTER_RECEIPTS },
    onResponse(response, request) {
      const failure = grantedStatus(response, request)?.failure as Record<string, unknown> | undefined
      if (!failure) return
      failure.message = `${String(failure.message)} (receipt ${request.query.get('receipt')})`
      response.raw = JSON.stringify(response.body).replace(/\//g, '\\/')
    },
  },
  {
    name: 'receipt-in-content-location',
    description: 'An intent status carries Content-Location with the request path and query, receipt included.',
    breaks: ['every-response/receipt-not-disclosed'],
    ruleWitnesses: ['intents/receipt-grants-status'],
    onResponse(response, request) {
      if (grantedStatus(response, request))
        response.headers['content-location'] = `${request.path}?${request.query.toString()}`
    },
  },
  {
    name: 'receipt-gzipped-in-session-cookie',
    description:
      'An intent status sets a session cookie holding the request (receipt included) as gzip in base64url, as framework session stores write it.',
    breaks: ['every-response/receipt-not-disclosed'],
    ruleWitnesses: ['intents/receipt-grants-status'],
    onResponse(response, request) {
      const session = JSON.stringify({ path: request.path, receipt: request.query.get('receipt'), at: 1 })
      if (grantedStatus(response, request))
        response.headers['set-cookie'] = `ipts_session=${gzipSync(session).toString('base64url')}; Path=/; HttpOnly`
    },
  },
  {
    name: 'receipt-hex-in-etag',
    description:
      "An intent status carries an ETag that is the receipt's UTF-8 in hex, as a cache key built from the query would be.",
    breaks: ['every-response/receipt-not-disclosed'],
    ruleWitnesses: ['intents/receipt-grants-status'],
    onResponse(response, request) {
      const receipt = request.query.get('receipt')
      if (grantedStatus(response, request) && receipt)
        response.headers.etag = `"${Buffer.from(receipt, 'utf8').toString('hex')}"`
    },
  },
  {
    name: 'receipt-masked-prefix-in-error',
    description:
      'Error answers of the intent operation quote the receipt sent masked, its first nine characters then asterisks: more than its format prefix.',
    breaks: ['every-response/receipt-not-disclosed'],
    ruleWitnesses: ['intents/receipt-bound-to-intent'],
    onResponse(response, request) {
      const receipt = request.query.get('receipt')
      const body =
        isOperation(request, 'getIntentStatus') && receipt && receipt.length > 12 ? errorBodyOf(response) : undefined
      if (body) body.error = `${String(body.error)} (receipt ${receipt!.slice(0, 9)}********)`
    },
  },
  {
    name: 'refused-intent-carries-status',
    description:
      "A 404 for a stored intent (a wrong or oversized receipt) carries the intent's status members next to its error: the refusal grants access.",
    breaks: ['every-response/intent-refusal-carries-no-status'],
    ruleWitnesses: ['intents/wrong-receipt-refused'],
    onResponse(response, request, data) {
      const intent = askedIntent(request, data)
      if (intent && response.status === 404) Object.assign(response.body as object, structuredClone(intent.status))
    },
  },
]
