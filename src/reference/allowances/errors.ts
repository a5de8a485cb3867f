import { errorBodyOf } from '../response-edits.js'
import type { Allowance } from '../types.js'

export const errorsAllowances: readonly Allowance[] = [
  {
    name: 'gateway-answers-unknown-paths',
    description: "A path that is no operation gets the gateway's own 404: an HTML page, no x-request-id (the contract's header and body rules are for its operations).",
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
      Object.assign(errorBodyOf(response) ?? {}, { details: [{ field: 'request', issue: 'see error' }], documentation: 'https://docs.example/errors' })
    },
  },
  {
    name: 'error-body-without-code-and-request-id',
    description: 'Error bodies carry only error: code and requestId are optional.',
    permittedBy: 'ERR-BODY-SCHEMA',
    skips: ['every-response/error-request-id-matches-header', 'every-response/error-code-listed', 'request-ids/error-body-id-matches-header'],
    onResponse(response) {
      const body = errorBodyOf(response)
      delete body?.code
      delete body?.requestId
    },
  },
]
