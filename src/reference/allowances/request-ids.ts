import { randomBytes } from 'node:crypto'
import { carryRequestId } from '../response-edits.js'
import type { Allowance } from '../types.js'

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/

export const requestIdAllowances: readonly Allowance[] = [
  {
    name: 'invalid-request-id-rejected',
    description:
      'A request whose X-Request-ID is outside its bounds is refused with 422 and an error body, under a generated request ID.',
    permittedBy: 'RID-INVALID-NOT-ECHOED',
    onResponse(response, request) {
      const sent = request.headers['x-request-id']
      if (sent === undefined || VALID_REQUEST_ID.test(sent)) return
      delete response.headers['x-service-source']
      response.status = 422
      response.body = {
        error: 'X-Request-ID must be 8 to 128 letters, digits, dots, underscores, colons or hyphens',
        code: 'invalid_request_id',
        requestId: response.headers['x-request-id'],
      }
    },
  },
  {
    name: 'request-id-generated-long-and-punctuated',
    description:
      'Request IDs the server generates itself are 128 characters long with dots, underscores, colons and hyphens.',
    permittedBy: 'RID-HEADER-FORMAT',
    onResponse(response, request) {
      const sent = request.headers['x-request-id']
      if (sent === undefined || !VALID_REQUEST_ID.test(sent))
        carryRequestId(response, `srv:ipts_ref.${randomBytes(57).toString('hex')}-`)
    },
  },
]
