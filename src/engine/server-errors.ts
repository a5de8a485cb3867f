import type { Exchange } from '../http/exchange.js'
import { isTransient } from '../http/retry.js'

/**
 * The run's one policy for 5xx answers (docs/checks.md, "The 5xx policy"), applied by the engine to every exchange of
 * every check, whichever phase sent it: a 502, 503 or 504 names a dependency's failure, so the client retries a safe
 * read with bounded backoff, and a read whose every attempt was transient is no answer to judge: the checks that needed
 * it are not assessed. A 500 is an unexpected failure: sent once more, and judged when it repeats.
 */

/**
 * Why a check could not judge a safe read whose every attempt was answered 502, 503 or 504; undefined when it got an
 * answer.
 */
export function transientOnly(exchange: Exchange): string | undefined {
  const status = exchange.response?.status
  if (!isTransient(status)) return undefined
  const statuses = [...exchange.retries.map((attempt) => attempt.status), status!]
  const attempts = statuses.length === 1 ? '1 attempt' : `${statuses.length} attempts`
  const each = new Set(statuses).size === 1 ? '' : ` (${statuses.join(', ')})`
  const { method, url } = exchange.request
  return `not assessed: the target answered ${status} to ${attempts}${each} of ${method} ${new URL(url).pathname}, a transient failure of a dependency; what this check needed of that read was not observed`
}

/**
 * Whether an attempt's response is an answer the operation's rules may judge (what the operation answered): not an
 * attempt the client sent again (a 429, a 5xx it retried), and not a transient 502, 503 or 504, which says nothing of
 * the request. The rules about a response's own shape (its error body, its headers, Retry-After) judge every attempt.
 */
export function isAnswerToJudge(response: { status: number }, superseded: boolean): boolean {
  return !superseded && !isTransient(response.status)
}
