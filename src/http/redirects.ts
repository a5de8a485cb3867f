import { headerValues, type ExchangeResponse } from './exchange.js'

/** The statuses that redirect a request to their Location (RFC 9110 §15.4; 300, 304 and 305 do not). */
export const REDIRECT_STATUSES: readonly number[] = [301, 302, 303, 307, 308]

/** The Location a response redirects to, when it is a redirect with exactly one. */
export function redirectLocation(response: ExchangeResponse): string | undefined {
  const location = REDIRECT_STATUSES.includes(response.status) ? headerValues(response, 'location') : []
  return location.length === 1 ? location[0] : undefined
}

/**
 * A recorded redirect (check-har, the proxy) is not judged: the request it leads to is recorded, and judged, by itself;
 * the redirect says nothing of the operation's rules.
 */
export function recordedRedirect(response: ExchangeResponse): ExchangeResponse {
  return redirectLocation(response) === undefined
    ? response
    : {
        ...response,
        notJudged: `a ${response.status} redirect: not judged (the request it leads to is judged by itself)`,
      }
}
