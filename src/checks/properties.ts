import fc from 'fast-check'
import type { OperationId } from '../contract/operations.js'
import { garbageApiKey, garbageApiKeyCoverage } from '../generators/api-keys.js'
import { inTurn, onEvery } from '../generators/coverage.js'
import {
  anyCaseHexIdentifier,
  malformedHexIdentifier,
  malformedHexIdentifierCoverage,
  wellFormedHexIdentifierCoverage,
} from '../generators/hex-identifiers.js'
import { nearMissCoverage } from '../generators/near-misses.js'
import {
  outOfBoundsReceipt,
  outOfBoundsReceiptCoverage,
  wrongReceipt,
  wrongReceiptCoverage,
} from '../generators/receipts.js'
import {
  headerValueOf,
  invalidRequestId,
  invalidRequestIdCoverage,
  isSendableHeaderValue,
  validRequestId,
  validRequestIdCoverage,
} from '../generators/request-ids.js'
import { headerShown, headerValue, type Exchange } from '../http/exchange.js'
import { checkProperty } from './property.js'
import { answeredWithError, foundOrNotFound, grantsNoAccess, refusedWithErrorBody } from './expectations.js'
import { STAND_IN, statusOf } from './operation-calls.js'
import type { Check, CheckContext } from './types.js'

const traderOperations: OperationId[] = ['getTraderPnl', 'listTraderBalances']
/** Operations that need no input but a key, for probing keys. */
const keyedOperations: OperationId[] = ['getVault', 'listMarkets', 'getConfig']

/** The configured trader in each letter case, and with its letters' case flipped one by one from the start. */
function traderInAnyCase(trader: string): fc.Arbitrary<string> {
  const digits = trader.slice(2)
  return fc
    .oneof(
      fc.constantFrom(digits.toLowerCase(), digits.toUpperCase()),
      fc.nat(digits.length).map((n) => digits.slice(0, n).toUpperCase() + digits.slice(n).toLowerCase()),
    )
    .map((hex) => `0x${hex}`)
}

/**
 * The requests a generated X-Request-ID rides on: a success and each kind of refusal, so that the every-response
 * rules (the error body's requestId pattern among them) meet generated IDs on every path, not only on a success.
 */
const REQUEST_ID_PATHS = [
  'a success',
  'a request without a key',
  'an unknown intent',
  'a malformed hash',
  'a wrong receipt',
] as const
type RequestIdPath = (typeof REQUEST_ID_PATHS)[number]

function sendOnPath(ctx: CheckContext, path: RequestIdPath, headers: Record<string, string>): Promise<Exchange> {
  const unknownIntent = { params: { hash: STAND_IN.hash }, query: { receipt: STAND_IN.receipt }, headers }
  switch (path) {
    case 'a success':
      return ctx.call('getConfig', { headers })
    case 'a request without a key':
      return ctx.call('getConfig', {
        headers,
        // Stryker disable next-line StringLiteral: equivalent: auth '' sends no key, the same request as 'none'
        auth: 'none',
      })
    case 'an unknown intent':
      return ctx.call('getIntentStatus', unknownIntent)
    case 'a malformed hash':
      return ctx.call('getIntentStatus', { ...unknownIntent, params: { hash: 'not-a-hash' } })
    case 'a wrong receipt':
      return ctx.call('getIntentStatus', {
        ...unknownIntent,
        params: { hash: ctx.settings.intent?.hash ?? STAND_IN.hash },
      })
  }
}

async function requestIdEcho(ctx: CheckContext, [path, id]: [RequestIdPath, string]) {
  const sent = headerValueOf(id)
  const exchange = await sendOnPath(ctx, path, { 'x-request-id': sent })
  return { exchange, sent, on: path, echoed: exchange.response && headerValue(exchange.response, 'x-request-id') }
}

const requestIdOnAnyPath = (ids: fc.Arbitrary<string>) => fc.tuple(fc.constantFrom(...REQUEST_ID_PATHS), ids)

/** Skips inputs whose header value (the second member) an HTTP client cannot send. */
const unsendable = <C>() => ({
  test: ([, value]: [C, string]) => !isSendableHeaderValue(value),
  why: 'CR, LF or another control character, which an HTTP client cannot send in a header',
})

export const propertiesChecks: readonly Check[] = [
  {
    id: 'properties/malformed-hash-rejected',
    requirement: 'EP-INTENT-HASH-FORMAT',
    title: 'every generated malformed intent hash gets no status (no 2xx)',
    needs: ['apiKey', 'intent'],
    run: (ctx) =>
      checkProperty(
        ctx,
        malformedHexIdentifier('Hash', [ctx.settings.intent!.hash]),
        async (hash) => grantsNoAccess(await ctx.call('getIntentStatus', { params: { hash } })),
        {
          coverage: malformedHexIdentifierCoverage('Hash', [ctx.settings.intent!.hash]),
        },
      ),
  },
  {
    id: 'properties/out-of-bounds-receipt-refused',
    requirement: 'RCPT-LENGTH-NO-ACCESS',
    title: 'every generated receipt outside 1 to 512 characters gets no access (no 2xx)',
    needs: ['apiKey', 'intent'],
    run: (ctx) =>
      checkProperty(
        ctx,
        outOfBoundsReceipt(ctx.settings.intent!.receipt),
        async (receipt) => grantsNoAccess(await ctx.call('getIntentStatus', { query: { receipt } })),
        {
          coverage: outOfBoundsReceiptCoverage(ctx.settings.intent!.receipt),
        },
      ),
  },
  {
    id: 'properties/wrong-receipt-refused',
    requirement: 'RCPT-WRONG-NO-ACCESS',
    title: "every generated receipt of 1 to 512 characters other than the intent's gets no access (no 2xx)",
    needs: ['apiKey', 'intent'],
    run: (ctx) =>
      checkProperty(
        ctx,
        wrongReceipt(ctx.settings.intent!.receipt),
        async (receipt) => grantsNoAccess(await ctx.call('getIntentStatus', { query: { receipt } })),
        {
          coverage: wrongReceiptCoverage(ctx.settings.intent!.receipt),
        },
      ),
  },
  {
    id: 'properties/valid-request-id-echoed',
    requirement: 'RID-ECHO-VALID',
    title: 'every generated valid X-Request-ID comes back unchanged in x-request-id, on a success and on refusals',
    needs: ['apiKey'],
    run: (ctx) =>
      checkProperty(
        ctx,
        requestIdOnAnyPath(validRequestId()),
        async (input) => {
          const { exchange, sent, on, echoed } = await requestIdEcho(ctx, input)
          return echoed === sent
            ? undefined
            : {
                problem: `sent X-Request-ID ${JSON.stringify(sent)} on ${on}, got ${exchange.response ? headerShown(exchange.response, 'x-request-id') : statusOf(exchange)}`,
                exchange,
              }
        },
        { coverage: inTurn(REQUEST_ID_PATHS, validRequestIdCoverage()) },
      ),
  },
  {
    id: 'properties/invalid-request-id-not-echoed',
    requirement: 'RID-INVALID-NOT-ECHOED',
    title: 'no generated invalid X-Request-ID comes back verbatim in x-request-id, on a success or on refusals',
    needs: ['apiKey'],
    run: (ctx) =>
      checkProperty(
        ctx,
        requestIdOnAnyPath(invalidRequestId()),
        async (input) => {
          const { exchange, sent, on, echoed } = await requestIdEcho(ctx, input)
          return echoed === sent
            ? { problem: `the invalid X-Request-ID ${JSON.stringify(sent)} came back verbatim on ${on}`, exchange }
            : undefined
        },
        { skip: unsendable<RequestIdPath>(), coverage: inTurn(REQUEST_ID_PATHS, invalidRequestIdCoverage()) },
      ),
  },
  {
    id: 'properties/well-formed-address-answered',
    requirement: 'EP-ADDRESS-PARAM',
    title:
      "every generated trader address matching the Address pattern (the suite's assumption: the contract does not show the format) gets 200 with a valid body, 404, or 403 (a key restricted to some traders)",
    needs: ['apiKey', 'trader'],
    run: (ctx) =>
      checkProperty(
        ctx,
        fc.tuple(
          fc.constantFrom(...traderOperations),
          fc.oneof(anyCaseHexIdentifier('Address'), traderInAnyCase(ctx.settings.trader!)),
        ),
        async ([id, address]) => foundOrNotFound(await ctx.call(id, { params: { address } })),
        {
          coverage: inTurn(
            traderOperations,
            wellFormedHexIdentifierCoverage('Address', [ctx.settings.trader!]).flatMap((c) => [c, c]),
          ),
        },
      ),
  },
  {
    id: 'properties/malformed-address-rejected',
    requirement: 'EP-ADDRESS-PARAM',
    title:
      "every generated trader address not matching the Address pattern (the suite's assumption: the contract does not show the format) gets a 4xx with an error body",
    needs: ['apiKey', 'trader'],
    run: (ctx) =>
      checkProperty(
        ctx,
        fc.tuple(fc.constantFrom(...traderOperations), malformedHexIdentifier('Address', [ctx.settings.trader!])),
        async ([id, address]) => refusedWithErrorBody(await ctx.call(id, { params: { address } })),
        { coverage: inTurn(traderOperations, malformedHexIdentifierCoverage('Address', [ctx.settings.trader!])) },
      ),
  },
  {
    id: 'properties/garbage-key-refused',
    requirement: 'AUTH-401-INVALID-KEY',
    title: 'every generated garbage API key gets 401 with an error body',
    needs: ['apiKey'],
    run: (ctx) => {
      const realKeys = [ctx.settings.apiKey, ctx.settings.restrictedApiKey].filter((key): key is string => !!key)
      return checkProperty(
        ctx,
        fc.tuple(fc.constantFrom(...keyedOperations), garbageApiKey(realKeys)),
        async ([id, key]) => answeredWithError(await ctx.call(id, { auth: { key: headerValueOf(key) } }), 401),
        {
          skip: unsendable<OperationId>(),
          // The API key's near misses on every operation; the rest in turn.
          coverage: [
            ...onEvery(keyedOperations, nearMissCoverage(ctx.settings.apiKey!, 'the API key', 'header')),
            ...inTurn(keyedOperations, [
              ...garbageApiKeyCoverage(realKeys),
              ...(ctx.settings.restrictedApiKey
                ? nearMissCoverage(ctx.settings.restrictedApiKey, 'the restricted API key', 'header')
                : []),
            ]),
          ],
        },
      )
    },
  },
]
