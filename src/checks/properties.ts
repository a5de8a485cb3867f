import fc from 'fast-check'
import type { OperationId } from '../contract/operations.js'
import { garbageApiKey } from '../generators/api-keys.js'
import { anyCaseHexIdentifier, malformedHexIdentifier } from '../generators/hex-identifiers.js'
import { outOfBoundsReceipt, wrongReceipt } from '../generators/receipts.js'
import { headerValueOf, invalidRequestId, isSendableHeaderValue, validRequestId } from '../generators/request-ids.js'
import { headerValue } from '../http/exchange.js'
import { checkProperty } from '../harness/property.js'
import { answeredWithError, foundOrNotFound, refusedWithErrorBody } from './expectations.js'
import type { Check, CheckContext } from './types.js'

const traderOperations: OperationId[] = ['getTraderPnl', 'listTraderBalances']
/** Operations that need no input but a key, for probing keys. */
const keyedOperations: OperationId[] = ['getVault', 'listMarkets', 'getConfig']

/** The configured trader in each letter case, and with its letters' case flipped one by one from the start. */
function traderInAnyCase(trader: string): fc.Arbitrary<string> {
  const digits = trader.slice(2)
  return fc.oneof(
    fc.constantFrom(digits.toLowerCase(), digits.toUpperCase()),
    fc.nat(digits.length).map((n) => digits.slice(0, n).toUpperCase() + digits.slice(n).toLowerCase()),
  ).map((hex) => `0x${hex}`)
}

async function requestIdEcho(ctx: CheckContext, id: string) {
  const sent = headerValueOf(id)
  const exchange = await ctx.call('getConfig', { headers: { 'x-request-id': sent } })
  return { exchange, sent, echoed: exchange.response && headerValue(exchange.response, 'x-request-id') }
}

const crOrLf = { test: (id: string) => !isSendableHeaderValue(id), why: 'CR, LF or another control character, which an HTTP client cannot send in a header' }

export const propertiesChecks: readonly Check[] = [
  {
    id: 'properties/malformed-hash-rejected',
    requirement: 'EP-INTENT-HASH-FORMAT',
    title: 'every generated malformed intent hash gets a declared 4xx with an error body',
    needs: ['apiKey', 'intent'],
    run: (ctx) =>
      checkProperty(ctx, malformedHexIdentifier('Hash', [ctx.settings.intent!.hash]), async (hash) => refusedWithErrorBody(await ctx.call('getIntentStatus', { params: { hash } }))),
  },
  {
    id: 'properties/out-of-bounds-receipt-refused',
    requirement: 'RCPT-LENGTH-NO-ACCESS',
    title: 'every generated receipt outside 1 to 512 characters gets a declared 4xx, not the intent status',
    needs: ['apiKey', 'intent'],
    run: (ctx) =>
      checkProperty(ctx, outOfBoundsReceipt(ctx.settings.intent!.receipt), async (receipt) => refusedWithErrorBody(await ctx.call('getIntentStatus', { query: { receipt } }))),
  },
  {
    id: 'properties/wrong-receipt-refused',
    requirement: 'RCPT-WRONG-NO-ACCESS',
    title: "every generated receipt of 1 to 512 characters other than the intent's gets a declared 4xx, not the intent status",
    needs: ['apiKey', 'intent'],
    run: (ctx) => checkProperty(ctx, wrongReceipt(ctx.settings.intent!.receipt), async (receipt) => refusedWithErrorBody(await ctx.call('getIntentStatus', { query: { receipt } }))),
  },
  {
    id: 'properties/valid-request-id-echoed',
    requirement: 'RID-ECHO-VALID',
    title: 'every generated valid X-Request-ID comes back unchanged in x-request-id',
    needs: ['apiKey'],
    run: (ctx) =>
      checkProperty(ctx, validRequestId(), async (id) => {
        const { exchange, sent, echoed } = await requestIdEcho(ctx, id)
        return echoed === sent ? undefined : { problem: `sent X-Request-ID ${JSON.stringify(sent)}, got x-request-id ${JSON.stringify(echoed)}`, exchange }
      }),
  },
  {
    id: 'properties/invalid-request-id-not-echoed',
    requirement: 'RID-INVALID-NOT-ECHOED',
    title: 'no generated invalid X-Request-ID comes back verbatim in x-request-id',
    needs: ['apiKey'],
    run: (ctx) =>
      checkProperty(
        ctx,
        invalidRequestId(),
        async (id) => {
          const { exchange, sent, echoed } = await requestIdEcho(ctx, id)
          return echoed === sent ? { problem: `the invalid X-Request-ID ${JSON.stringify(sent)} came back verbatim`, exchange } : undefined
        },
        { skip: crOrLf },
      ),
  },
  {
    id: 'properties/well-formed-address-answered',
    requirement: 'EP-ADDRESS-PARAM',
    title: "every generated trader address matching the Address pattern (the suite's assumption: the contract does not show the format) gets 200 with a valid body or 404",
    needs: ['apiKey', 'trader'],
    run: (ctx) =>
      checkProperty(ctx, fc.tuple(fc.constantFrom(...traderOperations), fc.oneof(anyCaseHexIdentifier('Address'), traderInAnyCase(ctx.settings.trader!))), async ([id, address]) =>
        foundOrNotFound(await ctx.call(id, { params: { address } })),
      ),
  },
  {
    id: 'properties/malformed-address-rejected',
    requirement: 'EP-ADDRESS-PARAM',
    title: "every generated trader address not matching the Address pattern (the suite's assumption: the contract does not show the format) gets a 4xx with an error body",
    needs: ['apiKey', 'trader'],
    run: (ctx) =>
      checkProperty(ctx, fc.tuple(fc.constantFrom(...traderOperations), malformedHexIdentifier('Address', [ctx.settings.trader!])), async ([id, address]) =>
        refusedWithErrorBody(await ctx.call(id, { params: { address } })),
      ),
  },
  {
    id: 'properties/garbage-key-refused',
    requirement: 'AUTH-401-INVALID-KEY',
    title: 'every generated garbage API key gets 401 with an error body',
    needs: ['apiKey'],
    run: (ctx) => {
      const realKeys = [ctx.settings.apiKey, ctx.settings.restrictedApiKey].filter((key): key is string => !!key)
      return checkProperty(ctx, fc.tuple(fc.constantFrom(...keyedOperations), garbageApiKey(realKeys)), async ([id, key]) =>
        answeredWithError(await ctx.call(id, { auth: { key } }), 401),
      )
    },
  },
]
