import type { Allowance } from '../types.js'

/** Every response, or every error response, labelled with another spelling of a JSON content type. */
function contentTypeAllowance(name: string, contentType: string, errorsOnly: boolean, why: string): Allowance {
  return {
    name,
    description: `${errorsOnly ? 'Error responses are' : 'Every response is'} labelled ${contentType} (${why}).`,
    permittedBy: 'HDR-CONTENT-TYPE-JSON',
    onResponse(response) {
      if (!errorsOnly || response.status >= 400) response.headers['content-type'] = contentType
    },
  }
}

export const headersAllowances: readonly Allowance[] = [
  contentTypeAllowance('json-without-charset', 'application/json', false, 'JSON is UTF-8 without a charset parameter'),
  contentTypeAllowance(
    'errors-as-problem-json',
    'application/problem+json',
    true,
    'an error body is "content type JSON"; problem+json is a JSON media type',
  ),
  contentTypeAllowance(
    'json-content-type-other-spelling',
    'Application/JSON;Charset=UTF-8',
    false,
    'media type and parameter names are case-insensitive, and no space is needed after the semicolon',
  ),
  {
    name: 'no-service-source-header',
    description: 'Responses carry no x-service-source header (responses "can include" it).',
    permittedBy: 'HDR-SERVICE-SOURCE-VALUES',
    skips: ['headers/service-source-values', 'every-response/service-source', 'every-response/service-source-mapped'],
    onResponse(response) {
      delete response.headers['x-service-source']
    },
  },
  {
    name: 'error-responses-with-quota-headers',
    description:
      'Error responses carry retry-after, x-ratelimit-limit and x-ratelimit-scope (error responses "can also include" them).',
    permittedBy: 'ERR-RETRY-AFTER',
    onResponse(response) {
      if (response.status >= 400)
        Object.assign(response.headers, {
          'retry-after': '30',
          'x-ratelimit-limit': '600',
          'x-ratelimit-scope': 'api-key',
        })
    },
  },
  {
    name: 'query-key-requests-throttled-with-retry-after',
    description:
      'Requests that carry an API key in the query string are throttled: 429 with Retry-After (a quota may apply to any request).',
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
  {
    name: 'accept-omitted-answered-406',
    description:
      'A request to an operation without an Accept header is refused with 406: "Every authenticated request sends X-API-Key and Accept" stands beside "Every request may send Accept", so a server may take Accept as required.',
    permittedBy: 'EP-ACCEPT-HEADERS',
    readings: ['headers/request-without-accept-served'],
    onResponse(response, request) {
      if (!request.route || request.headers.accept !== undefined) return
      response.status = 406
      response.body = {
        error: 'send Accept: application/json',
        code: 'not_acceptable',
        requestId: response.headers['x-request-id'],
      }
    },
  },
]
