import { bodyOf } from '../response-edits.js'
import type { Allowance } from '../types.js'

/** Changes the status of an error response with this code, keeping its body. */
const statusFor =
  (code: string, status: number): Allowance['onResponse'] =>
  (response) => {
    if (response.status >= 400 && bodyOf(response)?.code === code) response.status = status
  }

export const propertiesAllowances: readonly Allowance[] = [
  {
    name: 'properties-malformed-hash-404',
    description: 'A malformed intent hash gets 404 (a declared 4xx) instead of 422.',
    permittedBy: 'EP-INTENT-HASH-FORMAT',
    onResponse: statusFor('invalid_hash', 404),
  },
  {
    name: 'properties-malformed-address-400',
    description:
      'A malformed trader address gets 400 instead of 422 (the operation declares no statuses; any 4xx with an error body).',
    permittedBy: 'EP-ADDRESS-PARAM',
    onResponse: statusFor('invalid_address', 400),
  },
  {
    name: 'properties-long-request-id-truncated',
    description:
      'An X-Request-ID over 128 characters of the allowed alphabet comes back cut to 128: valid, and not the invalid value verbatim.',
    permittedBy: 'RID-INVALID-NOT-ECHOED',
    onResponse(response, request) {
      const sent = request.headers['x-request-id']
      if (sent === undefined || !/^[A-Za-z0-9._:-]{129,}$/.test(sent)) return
      response.headers['x-request-id'] = sent.slice(0, 128)
      const body = bodyOf(response)
      if (body && 'requestId' in body) body.requestId = response.headers['x-request-id']
    },
  },
]
