import { randomBytes } from 'node:crypto'
import { findRoute } from '../handlers.js'
import { bodyOf, isOperation } from '../response-edits.js'
import type { Fault, RefResponse } from '../types.js'

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** Turns a response into an error of the given status in place, keeping its request ID. */
function answerError(response: RefResponse, status: number, code: string, error: string): void {
  response.status = status
  response.body = { error, code, requestId: response.headers['x-request-id'] }
}

/** A receipt of a length `applies` to that begins with an intent's receipt is taken as that receipt. */
function receiptsComparedByPrefix(applies: (length: number) => boolean): Fault['onRequest'] {
  return (request, data) => {
    const receipt = request.query.get('receipt')
    const real = data.intents.find((intent) => receipt !== null && applies(receipt.length) && receipt.startsWith(intent.receipt))
    if (request.path.startsWith('/v1/intents/') && real) request.query.set('receipt', real.receipt)
  }
}

export const propertiesFaults: readonly Fault[] = [
  {
    name: 'properties-hash-length-500',
    description: 'A hash of hex digits of the wrong length passes validation (only the 0x prefix and the digits are checked) and its lookup fails with 500.',
    breaks: ['properties/malformed-hash-rejected'],
    onResponse(response, request) {
      const hash = isOperation(request, 'getIntentStatus') ? request.route?.params.hash : undefined
      if (hash !== undefined && /^0x[0-9a-fA-F]+$/.test(hash) && hash.length !== 66) answerError(response, 500, 'internal', 'unexpected failure')
    },
  },
  {
    name: 'properties-receipt-length-unchecked',
    description: 'The receipt length bound is not enforced and receipts are compared by prefix: a receipt over 512 characters that begins with the intent receipt grants access.',
    breaks: ['properties/out-of-bounds-receipt-refused'],
    onRequest: receiptsComparedByPrefix((length) => length > 512),
  },
  {
    name: 'properties-receipt-prefix-match',
    description: 'A receipt within the bounds is compared by prefix: the intent receipt with characters added after it grants access.',
    breaks: ['properties/wrong-receipt-refused'],
    onRequest: receiptsComparedByPrefix((length) => length <= 512),
  },
  {
    name: 'properties-request-id-129-echoed',
    description: 'The X-Request-ID length bound is off by one at the top: an ID of 129 allowed characters is taken as valid and echoed.',
    breaks: ['properties/invalid-request-id-not-echoed', 'every-response/request-id-format'],
    onResponse(response, request) {
      const sent = request.headers['x-request-id']
      if (sent !== undefined && /^[A-Za-z0-9._:-]{129}$/.test(sent)) response.headers['x-request-id'] = sent
    },
  },
  {
    name: 'properties-request-id-128-replaced',
    description: 'The X-Request-ID length bound is off by one at the top: a valid ID of exactly 128 characters is replaced by one the server makes.',
    breaks: ['properties/valid-request-id-echoed'],
    onResponse(response, request) {
      const sent = request.headers['x-request-id']
      if (sent === undefined || !/^[A-Za-z0-9._:-]{128}$/.test(sent)) return
      response.headers['x-request-id'] = `ref-${randomBytes(8).toString('hex')}`
      const body = bodyOf(response)
      if (body && 'requestId' in body) body.requestId = response.headers['x-request-id']
    },
  },
  {
    name: 'properties-address-normalised-before-validation',
    description: "A trader address is trimmed and lower-cased before it is validated, so ' 0x…' or '0X…' is served as if it were well formed.",
    breaks: ['properties/malformed-address-rejected'],
    onRequest(request) {
      const found = findRoute(request.path)
      const normalised = found && found !== 'malformed' ? found.params.address?.trim().toLowerCase() : undefined
      if (normalised !== undefined && ADDRESS.test(normalised)) request.path = request.path.replace(/^\/v1\/traders\/[^/]+/, `/v1/traders/${normalised}`)
    },
  },
  {
    name: 'properties-uppercase-address-refused',
    description: 'A well-formed trader address with an upper-case hex digit gets 422: only lower case is accepted.',
    breaks: ['properties/well-formed-address-answered'],
    onResponse(response, request) {
      const address = request.route?.params.address
      const traderOperation = isOperation(request, 'getTraderPnl') || isOperation(request, 'listTraderBalances')
      if (traderOperation && address !== undefined && ADDRESS.test(address) && /[A-F]/.test(address.slice(2))) {
        answerError(response, 422, 'invalid_address', 'address must be lower case')
      }
    },
  },
  {
    name: 'properties-key-prefix-accepted',
    description: 'An API key is compared by prefix: a real key with characters added after it is accepted.',
    breaks: ['properties/garbage-key-refused'],
    onRequest(request, data) {
      const key = request.headers['x-api-key']
      const real = [data.apiKey, data.restrictedApiKey].find((candidate) => key !== undefined && key.startsWith(candidate))
      if (real) request.headers['x-api-key'] = real
    },
  },
]
