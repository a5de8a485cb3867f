import { findRoute } from '../handlers.js'
import { bodyOf, isOperation } from '../response-edits.js'
import type { Fault } from '../types.js'

export const errorsFaults: readonly Fault[] = [
  {
    name: 'unauthorized-body-without-error',
    description: "A 401 body names its message 'message' instead of 'error'.",
    breaks: ['errors/unauthorized-error-body', 'every-response/error-body', 'properties/garbage-key-refused'],
    ruleWitnesses: ['request-ids/present-on-error'],
    onResponse(response) {
      const body = response.status === 401 ? bodyOf(response) : undefined
      if (body) {
        body.message = body.error
        delete body.error
      }
    },
  },
  {
    name: 'forbidden-code-uppercase',
    description: 'A 403 body carries its code in upper case (INSUFFICIENT_SCOPE).',
    breaks: [
      'errors/forbidden-error-body',
      'every-response/error-body',
      'every-response/error-code-listed',
      'profile/restricted-key-refused',
    ],
    ruleWitnesses: ['errors/forbidden-error-body'],
    onResponse(response) {
      const body = response.status === 403 ? bodyOf(response) : undefined
      if (typeof body?.code === 'string') body.code = body.code.toUpperCase()
    },
  },
  {
    name: 'unknown-intent-answers-500',
    description: 'The intent operation fails with 500 for a well-formed hash it does not know.',
    breaks: [
      'errors/unknown-intent-not-found',
      'every-response/allowed-request-not-500',
      'every-response/malformed-request-not-5xx',
    ],
    ruleWitnesses: ['errors/unknown-intent-not-found', 'properties/invalid-request-id-not-echoed'],
    onResponse(response, request, data) {
      const hash = request.route?.params.hash?.toLowerCase()
      if (
        isOperation(request, 'getIntentStatus') &&
        response.status === 404 &&
        !data.intents.some((i) => i.hash.toLowerCase() === hash)
      ) {
        response.status = 500
        response.body = { error: 'intent lookup failed', code: 'internal' }
      }
    },
  },
  {
    name: 'unknown-trader-balances-leak-configured-trader',
    description:
      "A 404 for the balances of an unknown trader carries the configured trader's balances as its data, next to its error.",
    breaks: ['every-response/not-found-carries-no-payload'],
    ruleWitnesses: ['errors/unknown-trader-not-found'],
    onResponse(response, request, data) {
      if (request.route?.operation !== 'listTraderBalances' || response.status !== 404) return
      Object.assign(response.body as object, {
        data: structuredClone(data.balances.get(data.trader.toLowerCase()) ?? []),
      })
    },
  },
  {
    name: 'unknown-trader-answers-400',
    description: 'The trader operations answer 400, as for invalid input, for a well-formed address they do not know.',
    breaks: ['errors/unknown-trader-not-found', 'properties/well-formed-address-answered'],
    onResponse(response, request) {
      if (request.route?.params.address !== undefined && response.status === 404) response.status = 400
    },
  },
  {
    name: 'unknown-route-answers-200',
    description: 'An unknown route under /v1 is answered 200 with an empty object, as a catch-all would.',
    breaks: ['errors/unknown-route-not-found'],
    onResponse(response, request) {
      if (!request.route && response.status === 404) {
        response.status = 200
        response.body = {}
      }
    },
  },
  {
    name: 'unknown-route-serves-markets',
    description:
      'A GET of any path under /v1 that is no operation serves the markets list, as a misrouted catch-all would.',
    breaks: ['errors/unknown-route-serves-no-operation', 'errors/unknown-route-not-found'],
    onRequest(request) {
      if (request.method === 'GET' && request.path.startsWith('/v1/') && findRoute(request.path) === undefined)
        request.path = '/v1/markets'
    },
  },
  {
    name: 'intent-validation-as-400',
    description:
      'The intent operation answers validation failures with 400, which it does not declare, instead of 422.',
    // A 400 grants no access, so the refusal checks pass; the status is undeclared, and no declared 4xx.
    breaks: [
      'errors/intent-validation-unprocessable',
      'every-response/declared-status',
      'intents/refusals-declared-4xx',
    ],
    ruleWitnesses: ['errors/intent-validation-unprocessable'],
    onResponse(response, request) {
      if (isOperation(request, 'getIntentStatus') && response.status === 422) response.status = 400
    },
  },
  {
    name: 'malformed-address-answers-500',
    description:
      'The trader operations fail with 500 for a malformed address instead of rejecting it as invalid input.',
    breaks: [
      'errors/malformed-address-validation',
      'every-response/allowed-request-not-500',
      'properties/malformed-address-rejected',
    ],
    ruleWitnesses: ['errors/malformed-address-validation'],
    onResponse(response, request) {
      if (request.route?.params.address !== undefined && response.status === 422) {
        response.status = 500
        response.body = { error: 'address lookup failed', code: 'internal' }
      }
    },
  },
]
