import { operations, type OperationId } from '../contract/operations.js'
import { schemaPattern, validateAgainst } from '../contract/schemas.js'
import { headerShown, headerValue, headerValues, type Exchange, type ExchangeResponse } from '../http/exchange.js'
import { mentionsSecret } from '../http/secrets.js'
import { profileRules } from './profile-rules.js'
import { bodyMember, type ExchangeJudge } from './exchange-judge.js'
import { carriedPayload } from './refusal-payload.js'
import { brokenFormat, VALIDATION_STATUSES } from './request-formats.js'

/** A rule that holds for any response, applied to every exchange of the run whichever check made it. */

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i
const REQUEST_ID = schemaPattern('RequestId')
const RETRY_AFTER_SECONDS = schemaPattern('RetryAfterSeconds')
const isError = (response: ExchangeResponse) => response.status >= 400
const always = () => true

/** The refusals of a key (401, 403): the quotes say the key is refused the operation. */
const KEY_REFUSALS = [401, 403]
/** 404 and 422 of the operations other than the intent one: no sentence says they grant nothing, a reading. */
const LOOKUP_REFUSALS = [404, 422]
/**
 * A 404 or 422 of the intent operation refuses status access for the receipt (RCPT-WRONG-NO-ACCESS); the other refusals
 * refuse the operation.
 */
const isIntentLookupRefusal = (response: ExchangeResponse, exchange: Exchange) =>
  exchange.operation === 'getIntentStatus' && LOOKUP_REFUSALS.includes(response.status)

/** Whether the exchange addressed one of the contract's read operations (a write is named by the profile instead). */
const isRead = (exchange: Exchange) => operations().some((op) => op.id === exchange.operation)

function payloadViolation(response: ExchangeResponse, exchange: Exchange): string | undefined {
  const payload = carriedPayload(exchange.operation as OperationId, response.json)
  return payload === undefined
    ? undefined
    : `a ${response.status} of ${exchange.operation} carries ${payload}: the refusal grants access`
}

function sentReceipt(exchange: Exchange): string | undefined {
  return new URL(exchange.request.url).searchParams.get('receipt') ?? undefined
}

/** What is wrong with a response's content type, or undefined for one JSON media type. */
function contentTypeViolation(response: ExchangeResponse): string | undefined {
  const types = headerValues(response, 'content-type')
  if (types.length !== 1)
    return types.length === 0 ? 'content-type is missing' : `content-type is repeated: ${types.join(' | ')}`
  return JSON_MEDIA_TYPE.test(types[0]!) ? undefined : `content-type is ${types[0]}, not application/json`
}

const contractRules: readonly ExchangeJudge[] = [
  {
    id: 'every-response/json-content-type',
    requirement: 'HDR-CONTENT-TYPE-JSON',
    title: 'every error response has a JSON content type',
    notApplicable: 'no error response was received',
    applies: isError,
    violation: contentTypeViolation,
  },
  {
    id: 'every-response/success-json-content-type',
    requirement: 'HDR-CONTENT-TYPE-JSON-SUCCESS',
    title: 'every response that is no error has a JSON content type',
    notApplicable: 'no response below 400 was received',
    applies: (response) => !isError(response),
    violation: contentTypeViolation,
  },
  {
    id: 'every-response/request-id-present',
    requirement: 'RID-HEADER-PRESENT',
    title: 'every response carries x-request-id',
    notApplicable: 'no response was received',
    applies: always,
    violation: (response) =>
      headerValues(response, 'x-request-id').some((v) => v.length > 0) ? undefined : 'x-request-id is missing',
  },
  {
    id: 'every-response/request-id-format',
    requirement: 'RID-HEADER-FORMAT',
    title: 'every x-request-id is one value of 8 to 128 letters, digits, dots, underscores, colons or hyphens',
    notApplicable: 'no response carried x-request-id',
    applies: (response) => headerValues(response, 'x-request-id').length > 0,
    violation(response) {
      const values = headerValues(response, 'x-request-id')
      if (values.length > 1) return `x-request-id is repeated: ${values.join(' | ')}`
      return REQUEST_ID.test(values[0]!)
        ? undefined
        : `x-request-id ${JSON.stringify(values[0])} does not match ${REQUEST_ID.source}`
    },
  },
  {
    id: 'every-response/error-body',
    requirement: 'ERR-BODY-SCHEMA',
    title: 'every error response has an error body',
    notApplicable: 'no error response was received',
    applies: isError,
    violation(response) {
      if (response.json === undefined) return `error body is ${response.jsonError}`
      const violations = validateAgainst('ErrorBody', response.json)
      return violations.length === 0
        ? undefined
        : violations.map((v) => `ErrorBody${v.instancePath} ${v.message} (${v.keyword})`).join('; ')
    },
  },
  {
    id: 'every-response/retry-after',
    requirement: 'ERR-RETRY-AFTER',
    title: 'every 429 and 503 carries Retry-After, an integer of at least 1',
    notApplicable: 'no response in this run was a 429 or a 503',
    applies: (response) => response.status === 429 || response.status === 503,
    violation(response) {
      const value = headerValue(response, 'retry-after')
      if (value === undefined) return `${response.status} without a single Retry-After header`
      return RETRY_AFTER_SECONDS.test(value.trim())
        ? undefined
        : `Retry-After ${JSON.stringify(value)} is not an integer of at least 1`
    },
  },
  {
    id: 'every-response/service-source',
    requirement: 'HDR-SERVICE-SOURCE-VALUES',
    title: 'every x-service-source is indexed, automation or live',
    notApplicable: 'no response carried x-service-source',
    applies: (response) => headerValues(response, 'x-service-source').length > 0,
    violation(response) {
      const values = headerValues(response, 'x-service-source')
      if (values.length > 1) return `x-service-source is repeated: ${values.join(' | ')}`
      return validateAgainst('ServiceSource', values[0]).length === 0
        ? undefined
        : `x-service-source ${JSON.stringify(values[0])} is not indexed, automation or live`
    },
  },
  {
    id: 'every-response/declared-status',
    requirement: 'EP-INTENT-STATUSES',
    title:
      'every status is one the operation declares, to a request that sends Accept as every authenticated request does',
    notApplicable: 'no request went to an operation that declares its statuses',
    // A request without Accept breaks "every authenticated request sends Accept": what it is answered is the reading
    // EP-ACCEPT-OPTIONAL's.
    applies: (_, exchange) => declaredStatuses(exchange) !== undefined && exchange.request.headers.accept !== undefined,
    violation(response, exchange) {
      const declared = declaredStatuses(exchange)!
      return declared.includes(response.status)
        ? undefined
        : `status ${response.status} is not declared by ${exchange.operation} (${declared.join(', ')})`
    },
  },
  {
    id: 'every-response/error-request-id-matches-header',
    requirement: 'RID-BODY-MATCHES-HEADER',
    title: "every error body's requestId equals the x-request-id header",
    notApplicable: 'no error body carried a requestId',
    applies: (response) => isError(response) && typeof bodyMember(response, 'requestId') === 'string',
    violation(response) {
      const inBody = bodyMember(response, 'requestId') as string
      const inHeader = headerValue(response, 'x-request-id')
      return inBody === inHeader
        ? undefined
        : `body requestId ${JSON.stringify(inBody)} differs from ${headerShown(response, 'x-request-id')}`
    },
  },
  {
    id: 'every-response/refusal-without-data',
    requirement: 'AUTH-REFUSAL-NO-DATA',
    title: 'every 401 and 403 carries no data (data null is none)',
    notApplicable: 'no response in this run was a 401 or a 403',
    applies: (response) => response.status === 401 || response.status === 403,
    violation(response) {
      const data = bodyMember(response, 'data')
      return data === undefined || data === null ? undefined : `a ${response.status} body carries data`
    },
  },
  {
    id: 'every-response/refusal-carries-no-payload',
    requirement: 'ERR-REFUSAL-NO-PAYLOAD',
    title: "every 401 and 403 carries none of the operation's payload",
    notApplicable: 'no request to an operation of the contract was refused with 401 or 403',
    applies: (response, exchange) => isRead(exchange) && KEY_REFUSALS.includes(response.status),
    violation: payloadViolation,
  },
  {
    id: 'every-response/not-found-carries-no-payload',
    requirement: 'ERR-NOT-FOUND-NO-PAYLOAD',
    title: "every 404 and 422 of an operation other than the intent one carries none of the operation's payload",
    notApplicable: 'no request to an operation of the contract other than the intent one was refused with 404 or 422',
    applies: (response, exchange) =>
      isRead(exchange) && LOOKUP_REFUSALS.includes(response.status) && !isIntentLookupRefusal(response, exchange),
    violation: payloadViolation,
  },
  {
    id: 'every-response/intent-refusal-carries-no-status',
    requirement: 'RCPT-WRONG-NO-ACCESS',
    title: 'every 404 and 422 of GET /v1/intents/{hash} carries no IntentStatus',
    notApplicable: 'no intent status request was refused with 404 or 422',
    applies: isIntentLookupRefusal,
    violation: payloadViolation,
  },
  {
    id: 'every-response/rate-limit-scope',
    requirement: 'LIM-QUOTA-SCOPE',
    title: 'every 429 carries x-ratelimit-scope, naming the scope',
    notApplicable: 'no response in this run was a 429',
    applies: (response) => response.status === 429,
    violation(response) {
      const values = headerValues(response, 'x-ratelimit-scope')
      if (values.length > 1) return `x-ratelimit-scope is repeated: ${values.join(' | ')}`
      return values[0]?.trim() ? undefined : 'a 429 without x-ratelimit-scope, which names the scope'
    },
  },
  {
    id: 'every-response/malformed-request-not-5xx',
    requirement: 'ERR-VALIDATION',
    title:
      'no request that breaks a format the contract states (a malformed hash, a receipt missing or outside 1 to 512 characters, an X-Request-ID outside its pattern) is answered with a 5xx: a validation failure is 400 or 422',
    notApplicable: 'no request to an operation of the contract broke a format the contract states',
    // A transient 502, 503 or 504 and an attempt the client sent again are no answer (the 5xx policy): a 5xx judged
    // here is a 500 that repeated, or a 501, 505...
    judgesAnswer: true,
    applies: (_, exchange) => isRead(exchange) && brokenFormat(exchange) !== undefined,
    violation: (response, exchange) =>
      response.status >= 500
        ? `the request breaks a format the contract states (${brokenFormat(exchange)}), a validation failure (${VALIDATION_STATUSES.join(' or ')}), and was answered ${response.status}: an unexpected failure`
        : undefined,
  },
  {
    id: 'every-response/allowed-request-not-500',
    requirement: 'ERR-UNEXPECTED-FAILURE',
    title: 'no request the contract allows is answered 500 on a retry too (an unexpected failure of the operation)',
    notApplicable: 'no request to an operation of the contract was well-formed',
    judgesAnswer: true,
    applies: (_, exchange) => isRead(exchange) && brokenFormat(exchange) === undefined,
    violation(response, exchange) {
      if (response.status < 500) return undefined
      const repeated = exchange.retries.some((attempt) => attempt.status === response.status) ? ' to a retry too' : ''
      return `a request the contract allows to ${exchange.operation} was answered ${response.status}${repeated}: the operation failed to serve it`
    },
  },
  {
    id: 'every-response/receipt-not-disclosed',
    requirement: 'RCPT-NOT-DISCLOSED',
    title: 'no response repeats a receipt',
    notApplicable: 'no receipt was sent in this run',
    applies: (_, exchange) => sentReceipt(exchange) !== undefined,
    violation(response, exchange, settings) {
      const receipts = [sentReceipt(exchange), settings.intent?.receipt, settings.secondIntent?.receipt].filter(
        (r): r is string => !!r && r.length >= 8,
      )
      // In any encoding a server may write it (found as redaction finds it, in every decoded view), in the body and in
      // every header, names included.
      const texts = [response.body, ...Object.entries(response.headers).flat(2)]
      return texts.some((text) => mentionsSecret(text, receipts))
        ? 'the response repeats a receipt that was sent'
        : undefined
    },
  },
]

/** The rules applied to every exchange: the contract's, and those that hold the run to its deployment profile. */
export const exchangeRules: readonly ExchangeJudge[] = [...contractRules, ...profileRules]

function declaredStatuses(exchange: Exchange): number[] | undefined {
  return operations().find((op) => op.id === exchange.operation)?.declaredStatuses
}
