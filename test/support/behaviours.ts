import type { Behaviour } from '../../src/reference/types.js'

/** The reference, answering the first request for each config URL and key with a 503 (then as usual). */
export function firstConfigRequestUnavailable(retryAfter: string | undefined): Behaviour {
  const seen = new Set<string>()
  return {
    name: 'first-config-request-unavailable',
    description: 'The first request for each config URL and key gets a 503.',
    onResponse(response, request) {
      // The preflight's probes (src/runner/preflight.ts) send no Accept-Encoding and no check reads their answers.
      if (request.headers['accept-encoding'] === undefined) return
      const attempt = `${request.path}?${request.query} ${request.headers['x-api-key']}`
      if (request.path !== '/v1/config' || response.status !== 200 || seen.has(attempt)) return
      seen.add(attempt)
      response.status = 503
      response.body = {
        error: 'a dependency is temporarily unavailable',
        code: 'unavailable',
        requestId: response.headers['x-request-id'],
      }
      delete response.headers['x-service-source']
      if (retryAfter !== undefined) response.headers['retry-after'] = retryAfter
    },
  }
}
