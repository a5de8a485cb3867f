import type { RefRequest, RefResponse } from './types.js'

/** Helpers for writing faults and allowances as small edits of a response. */
export function isOperation(request: RefRequest, operation: string): boolean {
  return request.route?.operation === operation
}

export function dataOf(response: RefResponse): unknown {
  return response.status === 200 && response.body !== null && typeof response.body === 'object'
    ? (response.body as { data?: unknown }).data
    : undefined
}

export function bodyOf(response: RefResponse): Record<string, unknown> | undefined {
  const body = response.body
  return body !== null && typeof body === 'object' && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : undefined
}

/** Sets the request ID a response carries: the x-request-id header, and the body's requestId where there is one. */
export function carryRequestId(response: RefResponse, id: string): void {
  response.headers['x-request-id'] = id
  const body = bodyOf(response)
  if (body && 'requestId' in body) body.requestId = id
}

/** The body of an error response (4xx, 5xx), when it is an object. */
export function errorBodyOf(response: RefResponse): Record<string, unknown> | undefined {
  return response.status >= 400 ? bodyOf(response) : undefined
}

/**
 * The bytes a response is sent with: its encoded payload, else its raw bytes, else its body as JSON (none without a
 * body).
 */
export function payloadOf(response: RefResponse): Buffer {
  return (
    response.encoded ?? Buffer.from(response.raw ?? (response.body === undefined ? '' : JSON.stringify(response.body)))
  )
}
