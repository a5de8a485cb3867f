import { randomBytes } from 'node:crypto'
import { bodyOf, isOperation } from '../response-edits.js'
import type { Fault, RefResponse } from '../types.js'

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** Turns a response into an error of the given status in place, keeping its request ID. */
function answerError(response: RefResponse, status: number, code: string, error: string): void {
  response.status = status
  response.body = { error, code, requestId: response.headers['x-request-id'] }
}

const isRefusal = (response: RefResponse, code: string) => response.status >= 400 && bodyOf(response)?.code === code

export const propertiesFaults: readonly Fault[] = [
  {
    name: 'properties-malformed-hash-500',
    description: 'A malformed intent hash gets 500 instead of a 4xx.',
    breaks: ['properties/malformed-hash-rejected'],
    onResponse(response) {
      if (isRefusal(response, 'invalid_hash')) answerError(response, 500, 'internal', 'unexpected failure')
    },
  },
  {
    name: 'properties-receipt-length-unchecked',
    description: 'The receipt length bound is not enforced and receipts are compared by prefix: a receipt over 512 characters that begins with the intent receipt grants access.',
    breaks: ['properties/out-of-bounds-receipt-refused'],
    onRequest(request, data) {
      const receipt = request.query.get('receipt')
      const real = data.intents.find((intent) => receipt !== null && receipt.length > 512 && receipt.startsWith(intent.receipt))
      if (request.path.startsWith('/v1/intents/') && real) request.query.set('receipt', real.receipt)
    },
  },
  {
    name: 'properties-invalid-request-id-echoed',
    description: 'Any X-Request-ID is echoed back verbatim, valid or not.',
    breaks: ['properties/invalid-request-id-not-echoed', 'every-response/request-id-format'],
    onResponse(response, request) {
      const sent = request.headers['x-request-id']
      if (sent !== undefined) response.headers['x-request-id'] = sent
    },
  },
  {
    name: 'properties-long-request-id-replaced',
    description: 'A valid X-Request-ID longer than 64 characters is replaced by one the server makes.',
    breaks: ['properties/valid-request-id-echoed'],
    onResponse(response, request) {
      const sent = request.headers['x-request-id']
      if (sent === undefined || !REQUEST_ID.test(sent) || sent.length <= 64) return
      response.headers['x-request-id'] = `ref-${randomBytes(8).toString('hex')}`
      const body = bodyOf(response)
      if (body && 'requestId' in body) body.requestId = response.headers['x-request-id']
    },
  },
  {
    name: 'properties-malformed-address-500',
    description: 'A malformed trader address gets 500 instead of a 4xx.',
    breaks: ['properties/malformed-address-rejected'],
    onResponse(response) {
      if (isRefusal(response, 'invalid_address')) answerError(response, 500, 'internal', 'unexpected failure')
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
