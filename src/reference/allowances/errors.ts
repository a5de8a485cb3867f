import { errorBodyOf } from '../response-edits.js'
import type { RefResponse } from '../types.js'

/** The error answer of a key that may read only some traders. */
function traderNotGranted(response: RefResponse): void {
  response.status = 403
  response.body = {
    error: 'this API key is restricted to its own traders; the address is not one of them',
    code: 'insufficient_scope',
    requestId: response.headers['x-request-id'],
  }
}
import type { Allowance } from '../types.js'

export const errorsAllowances: readonly Allowance[] = [
  {
    name: 'gateway-answers-unknown-paths',
    description:
      "A path that is no operation gets the gateway's own 404: an HTML page, no x-request-id (the contract's header and body rules are for its operations).",
    permittedBy: 'ERR-404-UNKNOWN-ROUTE',
    onResponse(response, request) {
      if (request.route || response.status !== 404) return
      response.headers = { 'content-type': 'text/html' }
      response.raw = '<html><body><h1>404 Not Found</h1><hr>gateway</body></html>'
    },
  },
  {
    name: 'error-body-extra-members',
    description: 'Error bodies carry members the contract does not list (additional properties are allowed).',
    permittedBy: 'ERR-BODY-SCHEMA',
    onResponse(response) {
      Object.assign(errorBodyOf(response) ?? {}, {
        details: [{ field: 'request', issue: 'see error' }],
        documentation: 'https://docs.example/errors',
      })
    },
  },
  {
    name: 'error-body-without-code-and-request-id',
    description: 'Error bodies carry only error: code and requestId are optional.',
    permittedBy: 'ERR-BODY-SCHEMA',
    skips: [
      'every-response/error-request-id-matches-header',
      'every-response/error-code-listed',
      'request-ids/error-body-id-matches-header',
    ],
    onResponse(response) {
      const body = errorBodyOf(response)
      delete body?.code
      delete body?.requestId
    },
  },
  {
    name: 'key-restricted-to-traders',
    description:
      "The API key is restricted to the traders it was issued for: the trader operations answer 403 for any other address, malformed ones included, before looking it up (key policy and restrictions are not shown; 403 is a key's refusal).",
    permittedBy: 'AUTH-403-SCOPE',
    skips: ['errors/unknown-trader-not-found', 'errors/malformed-address-validation'],
    onResponse(response, request, data) {
      const address = request.route?.params.address
      if (address === undefined || response.status === 401 || response.status === 403) return
      if (!data.balances.has(address.toLowerCase())) traderNotGranted(response)
    },
  },
  {
    name: 'unknown-path-served-empty-list',
    description:
      'A path under /v1 that is no operation is answered 200 {"data":[]} by a catch-all (the contract governs its operations and says nothing of other paths).',
    permittedBy: 'VER-V1-PREFIX',
    readings: ['errors/unknown-route-not-found', 'errors/unknown-route-serves-no-operation'],
    onResponse(response, request) {
      if (request.route || !request.path.startsWith('/v1/') || response.status !== 404) return
      response.status = 200
      response.headers['content-type'] = 'application/json'
      response.body = { data: [] }
    },
  },
]
