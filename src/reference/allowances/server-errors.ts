import { attemptOf, isChosenRead } from '../first-attempts.js'
import type { Allowance, RefResponse } from '../types.js'

/** Every how many reads (chosen by a hash of the request) get the transient answer on their first attempt. */
const EVERY_NTH_READ = 7

/**
 * An error answer without a code ("where available"): the reference's profile lists only the codes of its own refusals.
 */
function answerError(response: RefResponse, status: number, error: string, headers: Record<string, string> = {}): void {
  response.status = status
  response.body = { error, requestId: response.headers['x-request-id'] }
  Object.assign(response.headers, headers)
  delete response.headers['x-service-source']
}

/**
 * An allowance that answers the first attempt of one read in EVERY_NTH_READ with a 5xx, and the client's retry as ever.
 */
function firstAttemptAnswered(
  name: string,
  description: string,
  permittedBy: Allowance['permittedBy'],
  answer: (response: RefResponse) => void,
): Allowance {
  return {
    name,
    description,
    permittedBy,
    onResponse(response, request, data) {
      if (response.status === 429 || !isChosenRead(request, EVERY_NTH_READ, name)) return
      if (attemptOf(request, data) === 1) answer(response)
    },
  }
}

export const serverErrorsAllowances: readonly Allowance[] = [
  firstAttemptAnswered(
    'transient-503-on-reads',
    `The first attempt of one read in ${EVERY_NTH_READ} gets 503 with Retry-After: 1 (a dependency temporarily unavailable); the retry is served.`,
    'ERR-CLIENT-RETRY',
    (response) => answerError(response, 503, 'the index is temporarily unavailable', { 'retry-after': '1' }),
  ),
  firstAttemptAnswered(
    'transient-504-on-reads',
    `The first attempt of one read in ${EVERY_NTH_READ} gets 504 (a dependency timed out); the retry is served.`,
    'ERR-CLIENT-RETRY',
    (response) => answerError(response, 504, 'the index did not answer in time'),
  ),
  firstAttemptAnswered(
    'server-error-once-on-reads',
    `The first attempt of one read in ${EVERY_NTH_READ} gets 500 (an unexpected failure that does not repeat); the retry is served.`,
    'ERR-UNEXPECTED-FAILURE',
    (response) => answerError(response, 500, 'an unexpected failure'),
  ),
]
