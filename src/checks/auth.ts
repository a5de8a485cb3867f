import { schemaPattern } from '../contract/schemas.js'
import { operations } from '../contract/operations.js'
import type { Exchange } from '../http/exchange.js'
import { isTransient } from '../http/retry.js'
import {
  answersOf,
  callCursorPages,
  callEveryOperation,
  callServableOperations,
  inputsOrStandIns,
  receiptRefusedForKey,
  refused,
  type KeyedCursorPage,
} from './operation-calls.js'
import type { JudgedSettings, RecordedJudgement } from './exchange-judge.js'
import { settingDefaults } from '../core/defaults.js'
import type { Auth, Check, CheckContext } from './types.js'

const UNKNOWN_KEY = 'ipts-conformance-unknown-key-00000000000000000000'
/** Query parameter names under which services commonly accept a key. */
const QUERY_KEY_NAMES = ['api_key', 'apiKey', 'x-api-key', 'key'] as const

const isSuccess = (exchange: Exchange) => !!exchange.response && exchange.response.status < 300
/**
 * A 429 answers the quota, a transient 502, 503 or 504 a dependency (the 5xx policy): neither says anything of scopes.
 * A 500 is an answer.
 */
const saysNothingOfScope = (exchange: Exchange) => {
  const status = exchange.response?.status
  return status === 429 || isTransient(status)
}

/**
 * Cursor pages asked with a cursor of another key that were served: the key got a page past a first page it is refused.
 */
function servedForeignPages(pages: readonly KeyedCursorPage[]): Exchange[] {
  return pages.filter((page) => page.foreignCursor && !refused(page.exchange)).map((page) => page.exchange)
}

/**
 * Every operation answers 401 to the key given. The cursor page of each list (a server may authenticate only the first
 * page) carries a cursor of the full key, as no other is given to a missing or unknown key: a deployment may refuse
 * that cursor for its key before it looks at authentication, so any refusal of it passes and only a page served fails.
 */
async function expectEveryOperationRefused(ctx: CheckContext, auth: Auth, what: string): Promise<void> {
  const exchanges = await callEveryOperation(ctx, auth)
  const wrong = exchanges.filter((e) => e.response?.status !== 401)
  if (wrong.length > 0) ctx.fail(`not 401 to a request ${what}: ${answersOf(wrong)}`, { exchange: wrong[0] })
  const served = ctx.settings.apiKey ? servedForeignPages(await callCursorPages(ctx, auth)) : []
  if (served.length > 0)
    ctx.fail(
      `a cursor page was served to a request ${what} (the cursor was the API key's; any refusal would do): ${answersOf(served)}`,
      { exchange: served[0] },
    )
}

const REQUEST_ID = schemaPattern('RequestId')
/**
 * A request that may be refused for another reason first: the contract does not show whether validation or
 * authentication comes first.
 */
const invalidOtherwise = (exchange: Exchange) => {
  const requestId = exchange.request.headers['x-request-id']
  return requestId !== undefined && !REQUEST_ID.test(requestId)
}

/**
 * Whether a request carries a cursor (under the run's cursor parameter): one obtained with a key, as none is given
 * without one.
 */
const carriesCursor = (exchange: Exchange, settings: JudgedSettings) =>
  new URL(exchange.request.url).searchParams.has(settings.cursorParam ?? settingDefaults.cursorParam)

/**
 * A request to an operation without X-API-Key, whichever check sent it: anything but a 401 breaks the rule. A 429 says
 * nothing of authentication, nor does a transient 502, 503 or 504 (judgesAnswer: the engine leaves those out), and a
 * request with another defect (an invalid X-Request-ID) may be refused for that. A 500 that repeated is an answer. A
 * request with a cursor carries one another key was given, which a deployment may refuse first: any refusal (4xx) of it
 * passes.
 */
const missingKeyRefused: RecordedJudgement = {
  notApplicable: 'no exchange was a request to an operation without X-API-Key',
  judgesAnswer: true,
  applies: (response, exchange) =>
    exchange.operation !== undefined &&
    exchange.request.headers['x-api-key'] === undefined &&
    response.status !== 429 &&
    !invalidOtherwise(exchange),
  violation: (response, exchange, settings) =>
    response.status === 401 || (carriesCursor(exchange, settings) && refused(exchange))
      ? undefined
      : `answered ${response.status} to a request without X-API-Key, expected 401`,
}

export const authChecks: readonly Check[] = [
  {
    id: 'auth/missing-key',
    requirement: 'AUTH-401-MISSING-KEY',
    title: 'every operation answers 401 to a request without X-API-Key, on first pages and on cursor pages',
    recorded: missingKeyRefused,
    run: (ctx) =>
      expectEveryOperationRefused(
        ctx,
        // Stryker disable next-line StringLiteral: equivalent: auth '' sends no key, the same request as 'none'
        'none',
        'without X-API-Key',
      ),
  },
  {
    id: 'auth/unknown-key',
    requirement: 'AUTH-401-INVALID-KEY',
    title: 'every operation answers 401 to an unknown X-API-Key, on first pages and on cursor pages',
    run: (ctx) => expectEveryOperationRefused(ctx, { key: UNKNOWN_KEY }, 'with an unknown X-API-Key'),
  },
  {
    id: 'auth/restricted-key-scope',
    requirement: 'AUTH-403-SCOPE',
    title:
      'the restricted key gets 200 (a 2xx from config) or 403 from every operation and cursor page, and 403 from one at least',
    needs: ['restrictedApiKey', 'apiKey'],
    async run(ctx) {
      // A 429 or a transient 5xx says nothing about scopes (the contract allows them for any read), nor a refusal of
      // the intent's receipt (given for the API key's intent), so those answers are not judged. A cursor page carries
      // the restricted key's own cursor where its first page gives one, else (its first page refused) the full key's.
      const operations = await callServableOperations(ctx, 'restricted')
      const cursorPages = await callCursorPages(ctx, 'restricted')
      const asked = [...operations, ...cursorPages.filter((page) => !page.foreignCursor).map((page) => page.exchange)]
      const exchanges = asked.filter((e) => !saysNothingOfScope(e) && !receiptRefusedForKey(e))
      // The configuration's success status is not shown, so any 2xx grants it; the other operations show 200. The
      // client never returns an interim (1xx) response as the answer, so a success below 300 is a 2xx.
      const granted = (e: Exchange) => e.response?.status === 200 || (e.operation === 'getConfig' && isSuccess(e))
      const wrong = exchanges.filter((e) => !granted(e) && e.response?.status !== 403)
      if (wrong.length > 0)
        ctx.fail(`the restricted key got neither 200 (a 2xx for config) nor 403: ${answersOf(wrong)}`, {
          exchange: wrong[0],
        })
      // Where the first page is not served, the page after it must not be either; how the full key's cursor is refused
      // is not shown.
      const served = servedForeignPages(cursorPages)
      if (served.length > 0)
        ctx.fail(
          `the restricted key was served a cursor page of a list whose first page it was not served (with the API key's cursor; any refusal would do): ${answersOf(served)}`,
          { exchange: served[0] },
        )
      // Which scopes the restricted key lacks is not shown, so a key that lacks none is no failure.
      // Each exchange left has a response here: one without is neither granted nor a 403.
      if (!exchanges.some((e) => e.response!.status === 403))
        ctx.skip('the restricted key grants every operation checked')
    },
  },
  {
    id: 'auth/query-key-not-accepted',
    requirement: 'AUTH-HEADER-ONLY',
    title: 'an API key in the query string instead of X-API-Key does not authenticate',
    needs: ['apiKey'],
    async run(ctx) {
      const perOperation = await Promise.all(
        operations().map(async (op) => {
          const inputs = inputsOrStandIns(ctx.settings, op)
          // Stryker disable next-line StringLiteral: equivalent: auth '' sends no key, the same request as 'none'
          const plain = await ctx.call(op.id, { ...inputs, auth: 'none' })
          // Only where a request without a key is refused can a key elsewhere be seen to authenticate.
          if (plain.response?.status !== 401) return undefined
          const tries = QUERY_KEY_NAMES.map(async (name) => ({
            via: `${op.id} ?${name}=`,
            // Not retried: a 429 answers the question (the key did not authenticate) and need not be waited out.
            exchange: await ctx.call(op.id, {
              ...inputs,
              query: { ...inputs.query, [name]: ctx.settings.apiKey! },
              // Stryker disable next-line StringLiteral: equivalent: auth '' sends no key, the same request as 'none'
              auth: 'none',
              retry: false,
            }),
          }))
          return (await Promise.all(tries)).filter((t) => isSuccess(t.exchange))
        }),
      )
      const refused = perOperation.filter((found) => found !== undefined).length
      const accepted = perOperation.flatMap((found) => found ?? [])
      if (refused === 0)
        ctx.skip('no operation refused a request without X-API-Key, so a key in the query string cannot be told apart')
      if (accepted.length > 0)
        ctx.fail(`a key in the query string authenticated: ${accepted.map((t) => t.via).join(', ')}`, {
          exchange: accepted[0]!.exchange,
        })
    },
  },
]
