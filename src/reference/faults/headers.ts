import { errorBodyOf, isOperation } from '../response-edits.js'
import type { Fault } from '../types.js'

export const headersFaults: readonly Fault[] = [
  {
    name: 'accept-header-required',
    description:
      'A request without an Accept header is refused with 406: it follows "every authenticated request sends Accept" over "may send Accept", which the reading EP-ACCEPT-OPTIONAL (SHOULD) takes.',
    breaks: ['headers/request-without-accept-served'],
    onResponse(response, request) {
      if (request.headers.accept !== undefined) return
      response.status = 406
      response.body = { error: 'send Accept: application/json', code: 'not_acceptable' }
    },
  },
  {
    name: 'vault-refuses-request-id-header',
    description:
      'GET /v1/vault answers 400 to a request that sends X-Request-ID, though the contract says every request may send it.',
    breaks: ['headers/optional-request-headers'],
    onResponse(response, request) {
      if (!isOperation(request, 'getVault') || request.headers['x-request-id'] === undefined || response.status !== 200)
        return
      response.status = 400
      response.body = { error: 'X-Request-ID is not accepted here' }
    },
  },
  {
    name: 'error-content-type-text-plain',
    description: 'Error responses are labelled text/plain; successes stay application/json.',
    breaks: ['headers/content-type-json', 'every-response/json-content-type'],
    ruleWitnesses: ['errors/unauthorized-error-body'],
    onResponse(response) {
      if (response.status >= 400) response.headers['content-type'] = 'text/plain; charset=utf-8'
    },
  },
  {
    name: 'success-content-type-text-plain',
    description: 'Successful responses carry their JSON body labelled text/plain; errors stay application/json.',
    breaks: ['every-response/success-json-content-type'],
    ruleWitnesses: ['shapes/vault-members'],
    onResponse(response) {
      if (response.status < 400) response.headers['content-type'] = 'text/plain; charset=utf-8'
    },
  },
  {
    name: 'service-source-cache-on-vault',
    description: 'GET /v1/vault sends x-service-source: cache, a value outside the contract.',
    breaks: ['headers/service-source-values', 'every-response/service-source', 'every-response/service-source-mapped'],
    ruleWitnesses: ['shapes/vault-members'],
    onResponse(response, request) {
      if (isOperation(request, 'getVault')) response.headers['x-service-source'] = 'cache'
    },
  },
  {
    name: 'markets-unavailable-without-retry-after',
    description: 'GET /v1/markets answers 503 (its index is unavailable) without Retry-After, to every attempt.',
    // Every attempt transient: the checks that needed the markets are not assessed (the 5xx policy), only the 503's own
    // header rule fails.
    breaks: ['every-response/retry-after'],
    ruleWitnesses: ['envelope/checkpoint-type'],
    onResponse(response, request) {
      if (isOperation(request, 'listMarkets') && response.status === 200) {
        response.status = 503
        response.body = { error: 'the market index is temporarily unavailable', code: 'index_unavailable' }
      }
    },
  },
  {
    name: 'request-id-too-short-on-success',
    description: 'Successful responses carry an x-request-id of three characters, below the bound of 8.',
    breaks: [
      'every-response/request-id-format',
      'request-ids/valid-echoed',
      'properties/valid-request-id-echoed',
      'relations/request-id-unique',
    ],
    ruleWitnesses: ['shapes/vault-members'],
    onResponse(response) {
      if (response.status < 400) response.headers['x-request-id'] = 'r-1'
    },
  },
  {
    name: 'receipt-echoed-in-error',
    description: 'Error answers of the intent operation repeat the receipt that was sent.',
    breaks: ['every-response/receipt-not-disclosed'],
    ruleWitnesses: ['errors/intent-validation-unprocessable'],
    onResponse(response, request) {
      const body = isOperation(request, 'getIntentStatus') ? errorBodyOf(response) : undefined
      if (body) body.error = `${String(body.error)} (receipt ${request.query.get('receipt')})`
    },
  },
]
