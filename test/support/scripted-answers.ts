import type { ReferenceData } from '../../src/reference/data.js'
import type { Behaviour, RefRequest, RefResponse } from '../../src/reference/types.js'

/** Edits of a reference response that the tests of test/checks/ script with outcomeWithBehaviours. */

export const setStatus = (status: number) => (response: RefResponse) => {
  response.status = status
}

/** A response of this status and body (raw text when a string). */
export const withAnswer = (status: number, body: unknown) => (response: RefResponse) => {
  response.status = status
  if (typeof body === 'string') response.raw = body
  else response.body = body
}

/** A response the client cannot read: two Content-Length fields that disagree (the server adds its own). */
export const unreadable = (response: RefResponse) => {
  response.headers['Content-Length'] = '1'
}

/** A 429 of the quota, scoped to the key, to be retried after a second. */
export const rateLimited = (response: RefResponse) => {
  response.status = 429
  response.body = { error: 'request quota exceeded', code: 'rate_limited' }
  response.headers['retry-after'] = '1'
  response.headers['x-ratelimit-scope'] = 'api-key'
}

/** A reference that answers as `edit` rewrites its responses to the requests `when` picks. */
export function answering(
  name: string,
  when: (request: RefRequest, data: ReferenceData) => boolean,
  edit: (response: RefResponse, request: RefRequest, data: ReferenceData) => void,
): Behaviour {
  return {
    name,
    description: `responses are rewritten as the test scripts them (${name})`,
    onResponse(response, request, data) {
      if (when(request, data)) edit(response, request, data)
    },
  }
}
