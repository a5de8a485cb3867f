import { findRoute } from '../handlers.js'
import { isOperation } from '../response-edits.js'
import type { Fault, RefResponse } from '../types.js'

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const HASH = /^0x[0-9a-fA-F]{64}$/
/** Names a plain object inherits: a lookup table that is a plain object finds something under each. */
const inheritedNames = new Set(Object.getOwnPropertyNames(Object.prototype))
/** Beyond any key the reference issues; the fault's server sizes a buffer for keys up to it. */
const LONGEST_KEY_HANDLED = 1024

/** Turns a response into an error of the given status in place, keeping its request ID. */
function answerError(response: RefResponse, status: number, code: string, error: string): void {
  response.status = status
  response.body = { error, code, requestId: response.headers['x-request-id'] }
}

export const propertiesFaults: readonly Fault[] = [
  {
    name: 'properties-receipt-prefix-match',
    description:
      'A receipt within the bounds is compared by prefix: the intent receipt with characters added after it grants access.',
    breaks: ['properties/wrong-receipt-refused'],
    onRequest(request, data) {
      const receipt = request.query.get('receipt')
      const real = data.intents.find(
        (intent) => receipt !== null && receipt.length <= 512 && receipt.startsWith(intent.receipt),
      )
      if (request.path.startsWith('/v1/intents/') && real) request.query.set('receipt', real.receipt)
    },
  },
  {
    name: 'properties-address-normalised-before-validation',
    description:
      "A trader address is trimmed and lower-cased before it is validated, so ' 0x…' or '0X…' is served as if it were well formed.",
    breaks: ['properties/malformed-address-rejected'],
    onRequest(request) {
      const found = findRoute(request.path)
      const normalised = found && found !== 'malformed' ? found.params.address?.trim().toLowerCase() : undefined
      if (normalised !== undefined && ADDRESS.test(normalised))
        request.path = request.path.replace(/^\/v1\/traders\/[^/]+/, `/v1/traders/${normalised}`)
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
    name: 'properties-key-around-real-key-forbidden',
    description:
      'An unknown API key with a real key inside it is taken for that key without its scopes: 403 with an error body instead of 401.',
    breaks: ['properties/garbage-key-refused'],
    onResponse(response, request, data) {
      const key = request.headers['x-api-key']
      const inside =
        key !== undefined && [data.apiKey, data.restrictedApiKey].some((real) => key !== real && key.includes(real))
      if (inside && response.status === 401)
        answerError(response, 403, 'insufficient_scope', 'the key lacks the scope of this operation')
    },
  },
  {
    name: 'properties-key-prefix-accepted',
    description: 'An API key is compared by prefix: a real key with characters added after it is accepted.',
    breaks: ['properties/garbage-key-refused'],
    onRequest(request, data) {
      const key = request.headers['x-api-key']
      const real = [data.apiKey, data.restrictedApiKey].find(
        (candidate) => key !== undefined && key.startsWith(candidate),
      )
      if (real) request.headers['x-api-key'] = real
    },
  },
  {
    name: 'properties-receipt-object-lookup',
    description:
      'Receipts are looked up in a plain object, so a receipt named like an inherited member (constructor, __proto__, toString) finds something and grants access.',
    breaks: ['properties/wrong-receipt-refused'],
    onRequest(request, data) {
      const receipt = request.query.get('receipt')
      const found = findRoute(request.path)
      const hash = found && found !== 'malformed' ? found.params.hash?.toLowerCase() : undefined
      const intent = data.intents.find((i) => i.hash.toLowerCase() === hash)
      if (intent && receipt !== null && inheritedNames.has(receipt)) request.query.set('receipt', intent.receipt)
    },
  },
  {
    name: 'properties-hash-unicode-normalised',
    description:
      'The intent hash is NFKC-normalised before it is validated, so a hash with a full-width digit is served as the hash it folds to.',
    breaks: ['properties/malformed-hash-rejected'],
    onRequest(request) {
      const found = findRoute(request.path)
      const hash = found && found !== 'malformed' ? found.params.hash : undefined
      const folded = hash?.normalize('NFKC')
      if (hash !== undefined && folded !== hash && HASH.test(folded!)) request.path = `/v1/intents/${folded}`
    },
  },
  {
    name: 'properties-long-key-crashes',
    description: `An API key longer than ${LONGEST_KEY_HANDLED} characters overflows a buffer: the answer is a 500 instead of a 401.`,
    breaks: ['every-response/allowed-request-not-500', 'properties/garbage-key-refused'],
    onResponse(response, request) {
      if ((request.headers['x-api-key']?.length ?? 0) > LONGEST_KEY_HANDLED)
        answerError(response, 500, 'internal', 'internal error')
    },
  },
]
