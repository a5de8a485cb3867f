import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import type { Allowance, RefRequest, RefResponse } from '../types.js'
import { payloadOf } from '../response-edits.js'

/**
 * Every response with a body sent in a content coding, whatever the request's Accept-Encoding (RFC 9110 §12.5.3: a
 * request without it accepts any coding; the contract says nothing of codings). Switched on beside a fault, it comes
 * after it: it encodes the body as the behaviours before it left it.
 */
function codingAllowance(coding: string, encode: (payload: Buffer) => Buffer): Allowance {
  return {
    name: `always-${coding}`,
    description: `Every response body is sent in the ${coding} content coding (Content-Encoding: ${coding}), whatever the request's Accept-Encoding: HTTP lets a server choose a coding, and the representation is still JSON.`,
    permittedBy: 'HDR-CONTENT-TYPE-JSON-SUCCESS',
    onResponse(response) {
      const payload = payloadOf(response)
      if (payload.length === 0) return
      response.encoded = encode(payload)
      Object.assign(response.headers, { 'content-encoding': coding, vary: 'accept-encoding' })
    },
  }
}

/** The query member the redirect adds, so that the request it leads to is served. */
const REDIRECTED = 'redirected'
const redirectedRequests = new WeakSet<RefRequest>()

function redirectOnce(response: RefResponse, request: RefRequest): void {
  if (request.method !== 'GET' || request.route?.operation !== 'listMarkets' || redirectedRequests.has(request)) return
  const query = new URLSearchParams(request.query)
  query.set(REDIRECTED, '1')
  response.status = 308
  response.headers = { location: `${request.path}?${query}`, 'x-request-id': response.headers['x-request-id']! }
  response.body = undefined
}

export const codingsAllowances: readonly Allowance[] = [
  codingAllowance('gzip', (payload) => gzipSync(payload)),
  codingAllowance('br', (payload) => brotliCompressSync(payload)),
  codingAllowance('deflate', (payload) => deflateSync(payload)),
  {
    name: 'markets-redirected-same-origin',
    description:
      'GET /v1/markets is answered 308 to the same path on the same origin (with a query member of its own), which is then served: a client follows a redirect of its own origin.',
    permittedBy: 'EP-SUCCESS-200',
    onRequest(request) {
      if (request.query.get(REDIRECTED) !== '1') return
      request.query.delete(REDIRECTED)
      redirectedRequests.add(request)
    },
    onResponse: redirectOnce,
  },
]
