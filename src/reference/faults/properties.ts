import { findRoute } from '../handlers.js'
import { isOperation } from '../response-edits.js'
import type { Fault, RefResponse } from '../types.js'

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** Turns a response into an error of the given status in place, keeping its request ID. */
function answerError(response: RefResponse, status: number, code: string, error: string): void {
  response.status = status
  response.body = { error, code, requestId: response.headers['x-request-id'] }
}

export const propertiesFaults: readonly Fault[] = [
  {
    name: 'properties-receipt-prefix-match',
    description: 'A receipt within the bounds is compared by prefix: the intent receipt with characters added after it grants access.',
    breaks: ['properties/wrong-receipt-refused'],
    onRequest(request, data) {
      const receipt = request.query.get('receipt')
      const real = data.intents.find((intent) => receipt !== null && receipt.length <= 512 && receipt.startsWith(intent.receipt))
      if (request.path.startsWith('/v1/intents/') && real) request.query.set('receipt', real.receipt)
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
