import type { Exchange } from '../http/exchange.js'
import { answersOf, callServableOperations, STAND_IN, statusOf, UNKNOWN_ROUTE } from './operation-calls.js'
import type { Check, CheckContext } from './types.js'

const MALFORMED_ADDRESS = 'not-an-address'
const TRADER_OPERATIONS = ['getTraderPnl', 'listTraderBalances'] as const
const RECEIPT_TOO_LONG = 'r'.repeat(513)
const VALIDATION_STATUSES = [400, 422]

/** Fails unless the exchange has one of the statuses and an error body. */
function expectError(ctx: CheckContext, exchange: Exchange, statuses: readonly number[], what: string): void {
  if (!statuses.includes(exchange.response?.status ?? 0)) ctx.fail(`${what} answered ${statusOf(exchange)}, expected ${statuses.join(' or ')}`, { exchange })
  ctx.expectSchema('ErrorBody', exchange)
}

export const errorsChecks: readonly Check[] = [
  {
    id: 'errors/unauthorized-error-body',
    requirement: 'ERR-BODY-SCHEMA',
    title: 'a 401 carries an error body',
    async run(ctx) {
      expectError(ctx, await ctx.call('listMarkets', { auth: 'none' }), [401], 'GET /v1/markets without X-API-Key')
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
    title: 'an unknown intent hash gets 404 with an error body',
    needs: ['apiKey'],
    async run(ctx) {
      const receipt = ctx.settings.intent?.receipt ?? STAND_IN.receipt
      const exchange = await ctx.call('getIntentStatus', { params: { hash: STAND_IN.hash }, query: { receipt } })
      expectError(ctx, exchange, [404], 'an unknown intent hash with a receipt of valid length')
    },
  },
  {
    id: 'errors/unknown-trader-not-found',
    requirement: 'ERR-404-UNKNOWN',
    title: 'an unknown trader address gets 404 with an error body, unless the service serves every address',
    needs: ['apiKey'],
    async run(ctx) {
      const exchanges = await Promise.all(TRADER_OPERATIONS.map((id) => ctx.call(id, { params: { address: STAND_IN.address } })))
      // Whether a trader without history exists is not shown: a service may serve any address (200).
      const notServed = exchanges.filter((e) => e.response?.status !== 200)
      if (notServed.length === 0) ctx.skip(`the trader operations serve an address without history (${answersOf(exchanges)})`)
      for (const exchange of notServed) expectError(ctx, exchange, [404], `${exchange.operation} for an unknown trader address`)
    },
  },
  {
    id: 'errors/unknown-route-not-found',
    requirement: 'VER-V1-PREFIX',
    title: 'an unknown route under /v1 gets 404 with an error body',
    needs: ['apiKey'],
    async run(ctx) {
      expectError(ctx, await ctx.get(UNKNOWN_ROUTE), [404], `GET ${UNKNOWN_ROUTE}`)
    },
  },
  {
    id: 'errors/intent-validation-unprocessable',
    requirement: 'ERR-VALIDATION',
    title: 'a receipt of 513 characters gets 422 with an error body (the intent operation declares no 400)',
    needs: ['apiKey'],
    async run(ctx) {
      const hash = ctx.settings.intent?.hash ?? STAND_IN.hash
      const exchange = await ctx.call('getIntentStatus', { params: { hash }, query: { receipt: RECEIPT_TOO_LONG } })
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
      // The address format is not shown: a service may take any string for an unknown trader (404) or even serve it.
      const rejected = exchanges.filter((e) => e.response?.status !== 404 && e.response?.status !== 200)
      if (rejected.length === 0) ctx.skip(`no trader operation rejected ${JSON.stringify(MALFORMED_ADDRESS)} as invalid input (${answersOf(exchanges)}); the address format is not shown`)
      for (const exchange of rejected) expectError(ctx, exchange, VALIDATION_STATUSES, `${exchange.operation} with the address ${JSON.stringify(MALFORMED_ADDRESS)}`)
    },
  },
]
