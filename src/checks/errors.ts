import { operations } from '../contract/operations.js'
import { validateAgainst } from '../contract/schemas.js'
import type { Exchange } from '../http/exchange.js'
import { VALIDATION_STATUSES } from './request-formats.js'
import {
  answersOf,
  callServableOperations,
  intentRefusalStatuses,
  STAND_IN,
  statusOf,
  UNKNOWN_ROUTE,
} from './operation-calls.js'
import type { Check, CheckContext } from './types.js'

const MALFORMED_ADDRESS = 'not-an-address'
const TRADER_OPERATIONS = ['getTraderPnl', 'listTraderBalances'] as const
const RECEIPT_TOO_LONG = 'r'.repeat(513)

/**
 * The operation whose success body a 2xx answer carries; the config's shape is not shown, so any body could be it and
 * it is left out.
 */
function operationServed(exchange: Exchange): string | undefined {
  const { response } = exchange
  // The client never returns an interim (1xx) response as the answer, so a status of at most 299 is a 2xx. A body that
  // is not JSON is undefined, which no success schema takes.
  if (!response || response.status > 299) return undefined
  return operations().find(
    (op) => op.id !== 'getConfig' && validateAgainst(op.successSchema, response.json).length === 0,
  )?.id
}

/**
 * The other declared refusal a request got instead of the status a check looks for: the contract lets it be any of
 * them.
 */
function otherRefusal(exchange: Exchange, wanted: number): number | undefined {
  const status = exchange.response?.status ?? 0
  return status !== wanted && intentRefusalStatuses().includes(status) ? status : undefined
}

/** Fails unless the exchange has one of the statuses and an error body. */
function expectError(ctx: CheckContext, exchange: Exchange, statuses: readonly number[], what: string): void {
  if (!statuses.includes(exchange.response?.status ?? 0))
    ctx.fail(`${what} answered ${statusOf(exchange)}, expected ${statuses.join(' or ')}`, { exchange })
  ctx.expectSchema('ErrorBody', exchange)
}

export const errorsChecks: readonly Check[] = [
  {
    id: 'errors/unauthorized-error-body',
    requirement: 'ERR-BODY-SCHEMA',
    title: 'a 401 carries an error body',
    async run(ctx) {
      const exchange = await ctx.call('listMarkets', {
        // Stryker disable next-line StringLiteral: equivalent: auth '' sends no key, the same request as 'none'
        auth: 'none',
      })
      expectError(ctx, exchange, [401], 'GET /v1/markets without X-API-Key')
    },
  },
  {
    id: 'errors/forbidden-error-body',
    requirement: 'ERR-BODY-SCHEMA',
    title: 'a 403 carries an error body',
    needs: ['restrictedApiKey'],
    async run(ctx) {
      const refusal = (await callServableOperations(ctx, 'restricted')).find((e) => e.response?.status === 403)
      if (!refusal) ctx.skip('the restricted key was refused by no operation checked')
      ctx.expectSchema('ErrorBody', refusal!)
    },
  },
  {
    id: 'errors/unknown-intent-not-found',
    requirement: 'ERR-404-UNKNOWN',
    title:
      'an unknown intent hash gets 404 with an error body, or another declared refusal (a receipt that does not match may get any)',
    needs: ['apiKey'],
    async run(ctx) {
      const receipt = ctx.settings.intent?.receipt ?? STAND_IN.receipt
      const exchange = await ctx.call('getIntentStatus', { params: { hash: STAND_IN.hash }, query: { receipt } })
      const refusal = otherRefusal(exchange, 404)
      if (refusal)
        ctx.skip(
          `an unknown intent hash was refused with ${refusal}: a receipt that does not match the intent grants no status access with any declared refusal, so whether the hash is unknown was not shown`,
        )
      expectError(ctx, exchange, [404], 'an unknown intent hash with a receipt of valid length')
    },
  },
  {
    id: 'errors/unknown-trader-not-found',
    requirement: 'ERR-404-UNKNOWN',
    title: 'an unknown trader address gets 404 with an error body, unless the service serves every address',
    needs: ['apiKey'],
    async run(ctx) {
      const exchanges = await Promise.all(
        TRADER_OPERATIONS.map((id) => ctx.call(id, { params: { address: STAND_IN.address } })),
      )
      // Whether a trader without history exists is not shown: a service may serve any address (200). A key may be
      // restricted (key policy is not shown; 403 is a restriction's answer), so a 403 says nothing of the trader.
      const notServed = exchanges.filter((e) => e.response?.status !== 200)
      if (notServed.length === 0)
        ctx.skip(`the trader operations serve an address without history (${answersOf(exchanges)})`)
      const judged = notServed.filter((e) => e.response?.status !== 403)
      if (judged.length === 0)
        ctx.skip(
          `the key was refused the unknown trader address with 403 (${answersOf(exchanges)}): a key restricted to some traders may be, so whether the trader exists was not shown`,
        )
      for (const exchange of judged)
        expectError(ctx, exchange, [404], `${exchange.operation} for an unknown trader address`)
    },
  },
  {
    id: 'errors/unknown-route-not-found',
    requirement: 'ERR-404-UNKNOWN-ROUTE',
    title: 'a path under /v1 that is no operation gets 404',
    needs: ['apiKey'],
    async run(ctx) {
      const exchange = await ctx.get(UNKNOWN_ROUTE)
      if (exchange.response?.status !== 404)
        ctx.fail(`GET ${UNKNOWN_ROUTE} answered ${statusOf(exchange)}, expected 404`, { exchange })
    },
  },
  {
    id: 'errors/unknown-route-serves-no-operation',
    requirement: 'VER-UNKNOWN-PATH-NO-OPERATION',
    title: "a path under /v1 that is no operation serves none (no 2xx with an operation's body)",
    needs: ['apiKey'],
    async run(ctx) {
      const exchange = await ctx.get(UNKNOWN_ROUTE)
      const served = operationServed(exchange)
      if (served)
        ctx.fail(
          `GET ${UNKNOWN_ROUTE} answered ${statusOf(exchange)} with a body of ${served}: an operation is served at a path that is not its own`,
          { exchange },
        )
    },
  },
  {
    id: 'errors/intent-validation-unprocessable',
    requirement: 'ERR-VALIDATION',
    title:
      'a receipt of 513 characters gets 422 with an error body (the intent operation declares no 400), unless the intent is looked up first',
    needs: ['apiKey', 'intent'],
    async run(ctx) {
      // The configured intent's hash: the engine fills it in.
      const exchange = await ctx.call('getIntentStatus', { query: { receipt: RECEIPT_TOO_LONG } })
      const refusal = otherRefusal(exchange, 422)
      if (refusal)
        ctx.skip(
          `a receipt of 513 characters was refused with ${refusal}: the intent was looked up before the receipt was validated (the contract does not fix the order), so no validation status was shown`,
        )
      expectError(ctx, exchange, [422], 'a receipt of 513 characters')
    },
  },
  {
    id: 'errors/malformed-address-validation',
    requirement: 'ERR-VALIDATION',
    title: 'a trader operation that rejects a malformed address answers 400 or 422 with an error body',
    needs: ['apiKey'],
    async run(ctx) {
      const exchanges = await Promise.all(
        TRADER_OPERATIONS.map((id) => ctx.call(id, { params: { address: MALFORMED_ADDRESS } })),
      )
      // The address format is not shown: a service may take any string for an unknown trader (404) or even serve it,
      // and a key restricted to some traders may be refused it (403) before it is validated.
      const rejected = exchanges.filter((e) => ![200, 403, 404].includes(e.response?.status ?? 0))
      if (rejected.length === 0)
        ctx.skip(
          `no trader operation rejected ${JSON.stringify(MALFORMED_ADDRESS)} as invalid input (${answersOf(exchanges)}); the address format is not shown, and a 403 is the key's refusal`,
        )
      for (const exchange of rejected)
        expectError(
          ctx,
          exchange,
          VALIDATION_STATUSES,
          `${exchange.operation} with the address ${JSON.stringify(MALFORMED_ADDRESS)}`,
        )
    },
  },
]
