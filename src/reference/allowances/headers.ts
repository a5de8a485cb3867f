import type { Allowance } from '../types.js'

export const headersAllowances: readonly Allowance[] = [
  {
    name: 'no-service-source-header',
    description: 'Responses carry no x-service-source header (responses "can include" it).',
    permittedBy: 'HDR-SERVICE-SOURCE-VALUES',
    onResponse(response) {
      delete response.headers['x-service-source']
    },
  },
  {
    name: 'error-responses-with-quota-headers',
    description: 'Error responses carry retry-after, x-ratelimit-limit and x-ratelimit-scope (error responses "can also include" them).',
    permittedBy: 'ERR-RETRY-AFTER',
    onResponse(response) {
      if (response.status >= 400) Object.assign(response.headers, { 'retry-after': '30', 'x-ratelimit-limit': '600', 'x-ratelimit-scope': 'api-key' })
    },
  },
  {
    name: 'query-key-requests-throttled-with-retry-after',
    description: 'Requests that carry an API key in the query string are throttled: 429 with Retry-After (a quota may apply to any request).',
    permittedBy: 'ERR-RETRY-AFTER',
    // Its 429s name a quota per IP, not the per-key quota of the reference's profile.
    profileWithout: ['quota'],
    onResponse(response, request) {
      if (request.query.has('api_key')) {
        response.status = 429
        response.body = { error: 'request quota exceeded', code: 'rate_limited' }
        Object.assign(response.headers, { 'retry-after': '2', 'x-ratelimit-limit': '10', 'x-ratelimit-scope': 'ip' })
      }
    },
  },
]
