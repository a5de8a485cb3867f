import { describe, expect, test } from 'vitest'
import { operation } from '../../src/contract/operations.js'
import {
  answeredWithError,
  foundOrNotFound,
  grantsNoAccess,
  refusedWithErrorBody,
} from '../../src/checks/expectations.js'
import {
  answersOf as statusesOf,
  callCursorPages,
  callEveryOperation,
  callServableOperations,
  inputsOrStandIns,
  intentRefusalStatuses,
  servableOperations,
  STAND_IN,
  statusOf,
} from '../../src/checks/operation-calls.js'
import {
  answersOf,
  bodyRuleCheck,
  failureOf,
  isSuccessBody,
  needsOf,
  pathsOf,
} from '../../src/checks/success-bodies.js'
import { envelopeChecks } from '../../src/checks/envelope.js'
import { carriedPayload } from '../../src/checks/refusal-payload.js'
import type { RunSettings } from '../../src/core/settings.js'
import type { Exchange } from '../../src/http/exchange.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'
import { rejectionOf, scriptedContext } from '../support/check-context.js'

const ERROR = { error: 'refused' }
const HASH = `0x${'ab'.repeat(32)}`
const ADDRESS = `0x${'cd'.repeat(20)}`
const INTENT = { hash: HASH, receipt: 'the-receipt' }
const SECOND = { hash: `0x${'ef'.repeat(32)}`, receipt: 'the-second-receipt' }
const MARKET = {
  id: 'm1',
  clusterId: 'c1',
  oracleKey: 'k',
  paused: false,
  resolutionTimestamp: '1',
  status: 'open',
  updatedBlock: '2',
}
const VAULT = {
  id: 'v',
  fundingReservedWad: '1',
  requiredBufferWad: '2',
  updatedAt: '3',
  updatedBlock: '4',
  updatedTransactionHash: HASH,
}
const ORDER = {
  ...Object.fromEntries(
    [
      'nonce',
      'deadline',
      'orderType',
      'marketId',
      'direction',
      'positionId',
      'qWad',
      'marginTokens',
      'triggerPriceWad',
      'limitPriceWad',
      'closeMode',
    ].map((m) => [m, '1']),
  ),
  trader: ADDRESS,
  sessionKey: ADDRESS,
  ocoGroup: HASH,
}
const INTENT_STATUS = { orderHash: HASH, state: 'open', createdAt: '1', updatedAt: '2', order: ORDER }
const noResponse = (message = 'connect ECONNREFUSED'): Exchange => ({
  ...exchangeOf(undefined),
  error: { code: 'ECONNREFUSED', message },
})
const intentExchange = (status: number, json?: unknown) =>
  exchangeOf(responseOf(status, {}, json), {
    operation: 'getIntentStatus',
    url: `http://127.0.0.1:9/v1/intents/${HASH}`,
  })
const problemOf = (breach: { problem: string } | undefined) => breach?.problem

describe('refusedWithErrorBody', () => {
  test('holds for a 4xx with an error body, at both ends of the 4xx range', () => {
    expect(refusedWithErrorBody(exchangeOf(responseOf(400, {}, ERROR)))).toBeUndefined()
    expect(refusedWithErrorBody(exchangeOf(responseOf(499, {}, ERROR)))).toBeUndefined()
  })
  test('a status outside 4xx, or none, is the breach', () => {
    expect(problemOf(refusedWithErrorBody(exchangeOf(responseOf(399, {}, ERROR))))).toBe('status 399, expected a 4xx')
    expect(problemOf(refusedWithErrorBody(exchangeOf(responseOf(500, {}, ERROR))))).toBe('status 500, expected a 4xx')
    expect(problemOf(refusedWithErrorBody(noResponse()))).toBe('no response (connect ECONNREFUSED)')
  })
  test('a 4xx the operation does not declare is the breach where it declares its statuses', () => {
    const declared = operation('getIntentStatus').declaredStatuses!.join(', ')
    expect(problemOf(refusedWithErrorBody(intentExchange(400, ERROR)))).toBe(
      `status 400 is a 4xx the operation does not declare (${declared})`,
    )
    expect(refusedWithErrorBody(intentExchange(404, ERROR))).toBeUndefined()
    expect(refusedWithErrorBody(exchangeOf(responseOf(418, {}, ERROR), { operation: undefined }))).toBeUndefined()
  })
  test('a 4xx without an error body is the breach, naming what is wrong with the body', () => {
    expect(problemOf(refusedWithErrorBody(exchangeOf(responseOf(404))))).toBe(
      'status 404 without an error body: the body is empty',
    )
    expect(problemOf(refusedWithErrorBody(exchangeOf(responseOf(404, {}, { message: 'x' }))))).toBe(
      "status 404 without an error body: ErrorBody must have required property 'error' (required)",
    )
    expect(problemOf(refusedWithErrorBody(exchangeOf(responseOf(404, {}, { error: 1 }))))).toBe(
      'status 404 without an error body: ErrorBody/error must be string (type)',
    )
  })
  test('the breach carries its exchange', () => {
    const exchange = exchangeOf(responseOf(500, {}, ERROR))
    expect(refusedWithErrorBody(exchange)?.exchange).toBe(exchange)
  })
})

describe('foundOrNotFound', () => {
  test('holds for a valid 200, or a 404 or 403 with an error body', () => {
    expect(foundOrNotFound(exchangeOf(responseOf(200, {}, { data: [MARKET] })))).toBeUndefined()
    expect(foundOrNotFound(exchangeOf(responseOf(404, {}, ERROR)))).toBeUndefined()
    expect(foundOrNotFound(exchangeOf(responseOf(403, {}, ERROR)))).toBeUndefined()
  })
  test('another status, or none, is the breach', () => {
    expect(problemOf(foundOrNotFound(exchangeOf(responseOf(401, {}, ERROR))))).toBe(
      'status 401, expected 200, 404 or 403 (a restricted key)',
    )
    expect(problemOf(foundOrNotFound(noResponse('timeout')))).toBe('no response (timeout)')
  })
  test('a 200 is judged by the success schema, a 404 or 403 by the error body', () => {
    expect(problemOf(foundOrNotFound(exchangeOf(responseOf(200, {}, ERROR))))).toBe(
      "status 200 with an invalid body: MarketsResponse must have required property 'data' (required)",
    )
    expect(problemOf(foundOrNotFound(exchangeOf(responseOf(404, {}, { data: [] }))))).toBe(
      "status 404 with an invalid body: ErrorBody must have required property 'error' (required)",
    )
    expect(problemOf(foundOrNotFound(exchangeOf(responseOf(403))))).toBe(
      'status 403 with an invalid body: the body is empty',
    )
  })
})

describe('grantsNoAccess', () => {
  test('any 2xx grants access', () => {
    expect(problemOf(grantsNoAccess(exchangeOf(responseOf(200, {}, {}))))).toBe('status 200: access was granted')
    expect(problemOf(grantsNoAccess(exchangeOf(responseOf(299, {}, {}))))).toBe('status 299: access was granted')
  })
  test('any other answer grants none; no answer is the breach', () => {
    expect(grantsNoAccess(exchangeOf(responseOf(199)))).toBeUndefined()
    expect(grantsNoAccess(exchangeOf(responseOf(300)))).toBeUndefined()
    expect(grantsNoAccess(exchangeOf(responseOf(500)))).toBeUndefined()
    expect(problemOf(grantsNoAccess(noResponse()))).toBe('no response (connect ECONNREFUSED)')
  })
})

describe('answeredWithError', () => {
  test('exactly the status, with an error body', () => {
    expect(answeredWithError(exchangeOf(responseOf(401, {}, ERROR)), 401)).toBeUndefined()
    expect(problemOf(answeredWithError(exchangeOf(responseOf(403, {}, ERROR)), 401))).toBe('status 403, expected 401')
    expect(problemOf(answeredWithError(exchangeOf(responseOf(401, {}, {})), 401))).toBe(
      "status 401 without an error body: ErrorBody must have required property 'error' (required)",
    )
    expect(problemOf(answeredWithError(noResponse(), 401))).toBe('no response (connect ECONNREFUSED)')
  })
})

describe('operation calls', () => {
  test('the intent refusals are its declared 4xx but 429', () => {
    const expected = operation('getIntentStatus').declaredStatuses!.filter((s) => s >= 400 && s <= 499 && s !== 429)
    expect(intentRefusalStatuses()).toEqual(expected)
    expect(intentRefusalStatuses()).toEqual([401, 403, 404, 422])
  })
  test('the servable operations are those whose inputs were given', () => {
    const ids = (settings: Partial<RunSettings>) => servableOperations(settings as RunSettings).map((op) => op.id)
    expect(ids({})).toEqual(['getVault', 'listMarkets', 'getConfig'])
    expect(ids({ trader: ADDRESS })).toEqual([
      'getTraderPnl',
      'getVault',
      'listMarkets',
      'listTraderBalances',
      'getConfig',
    ])
    expect(ids({ intent: INTENT })).toEqual(['getIntentStatus', 'getVault', 'listMarkets', 'getConfig'])
  })
  test('inputs are the configured ones where given, stand-ins elsewhere; only the intent operation takes a receipt', () => {
    expect(inputsOrStandIns({} as RunSettings, operation('getIntentStatus'))).toEqual({
      params: { hash: STAND_IN.hash, address: STAND_IN.address },
      query: { receipt: STAND_IN.receipt },
    })
    expect(inputsOrStandIns({ intent: INTENT, trader: ADDRESS } as RunSettings, operation('getIntentStatus'))).toEqual({
      params: { hash: HASH, address: ADDRESS },
      query: { receipt: 'the-receipt' },
    })
    expect(inputsOrStandIns({ trader: ADDRESS } as RunSettings, operation('getTraderPnl'))).toEqual({
      params: { hash: STAND_IN.hash, address: ADDRESS },
      query: {},
    })
  })
  test('every operation is called with the key given, shared, on inputs or stand-ins', async () => {
    const { ctx, calls } = scriptedContext({}, () => responseOf(401, {}, ERROR))
    const auth = { kind: 'none' } as never
    const exchanges = await callEveryOperation(ctx, auth)
    expect(exchanges.map((e) => e.operation)).toEqual([
      'getIntentStatus',
      'getTraderPnl',
      'getVault',
      'listMarkets',
      'listTraderBalances',
      'getConfig',
    ])
    expect(calls[0]).toEqual({
      operation: 'getIntentStatus',
      options: {
        params: { hash: STAND_IN.hash, address: STAND_IN.address },
        query: { receipt: STAND_IN.receipt },
        auth,
        shared: true,
      },
    })
  })
  test('the servable operations are called with the key given, shared', async () => {
    const { ctx, calls } = scriptedContext({ trader: ADDRESS }, () => responseOf(200, {}, {}))
    const auth = { kind: 'none' } as never
    await callServableOperations(ctx, auth)
    expect(calls).toEqual(
      ['getTraderPnl', 'getVault', 'listMarkets', 'listTraderBalances', 'getConfig'].map((id) => ({
        operation: id,
        options: { auth, shared: true },
      })),
    )
  })
  test("a list's cursor page is asked with a fresh first page, again for one item when the first gives no cursor", async () => {
    const { ctx, calls } = scriptedContext(
      { trader: ADDRESS, limitParam: 'size', cursorParam: 'after' },
      ({ operation: id, options }) => {
        if (options?.auth) return responseOf(200, {}, { data: [] })
        if (id === 'listMarkets') return responseOf(200, {}, { data: [], cursor: 'c-markets' })
        return responseOf(
          200,
          {},
          { data: [], ...(options?.query?.size === '1' ? { cursor: 'c-balances' } : { cursor: null }) },
        )
      },
    )
    const auth = { kind: 'none' } as never
    const pages = await callCursorPages(ctx, auth)
    expect(pages).toHaveLength(2)
    expect(calls.filter((c) => c.options?.auth)).toEqual([
      { operation: 'listMarkets', options: { query: { after: 'c-markets' }, auth } },
      { operation: 'listTraderBalances', options: { query: { size: '1', after: 'c-balances' }, auth } },
    ])
  })
  test('a list that gives no cursor, even for one item, is left out', async () => {
    const { ctx, calls } = scriptedContext({}, () => responseOf(200, {}, { data: [], cursor: 5 }))
    expect(await callCursorPages(ctx, { kind: 'none' } as never)).toEqual([])
    expect(calls).toEqual([
      { operation: 'listMarkets', options: { query: {} } },
      { operation: 'listMarkets', options: { query: { limit: '1' } } },
    ])
  })
  test('a first page served without a JSON body gives no cursor, and is asked again for one item', async () => {
    const { ctx, calls } = scriptedContext({}, () => responseOf(200))
    expect(await callCursorPages(ctx, { kind: 'none' } as never)).toEqual([])
    expect(calls.map((c) => c.options?.query)).toEqual([{}, { limit: '1' }])
  })
  test('a list whose first page is not served gives no cursor page, and is not asked again for one item', async () => {
    const { ctx, calls } = scriptedContext({}, () => responseOf(500))
    expect(await callCursorPages(ctx, { kind: 'none' } as never)).toEqual([])
    expect(calls).toHaveLength(1)
  })
  test("a key that may hold a cursor sends its own where its first page gives one; else the full key's, marked foreign", async () => {
    const { ctx, calls } = scriptedContext({ trader: ADDRESS }, ({ operation: id, options }) => {
      const restricted = options?.auth === 'restricted'
      if (restricted && id === 'listTraderBalances') return responseOf(403, {}, ERROR)
      if (options?.query?.cursor !== undefined) return responseOf(restricted ? 403 : 200, {}, { data: [] })
      return responseOf(200, {}, { data: [], cursor: restricted ? 'c-restricted' : 'c-full' })
    })
    const pages = await callCursorPages(ctx, 'restricted')
    expect(pages.map((page) => [page.exchange.operation, page.foreignCursor])).toEqual([
      ['listMarkets', false],
      ['listTraderBalances', true],
    ])
    expect(calls.filter((c) => c.options?.query?.cursor !== undefined)).toEqual([
      { operation: 'listMarkets', options: { query: { cursor: 'c-restricted' }, auth: 'restricted' } },
      { operation: 'listTraderBalances', options: { query: { cursor: 'c-full' }, auth: 'restricted' } },
    ])
  })
  test('no key and an unknown key never ask a first page for a cursor of their own', async () => {
    for (const auth of ['none', { key: 'unknown' }] as const) {
      const { ctx, calls } = scriptedContext({}, () => responseOf(200, {}, { data: [], cursor: 'c-full' }))
      expect((await callCursorPages(ctx, auth)).map((page) => page.foreignCursor)).toEqual([true])
      expect(calls.map((c) => c.options?.auth)).toEqual([undefined, auth])
    }
  })
  test('the full key is never sent a cursor of another key', async () => {
    const { ctx, calls } = scriptedContext({}, () => responseOf(403, {}, ERROR))
    expect(await callCursorPages(ctx, 'full')).toEqual([])
    expect(calls.map((c) => c.options?.auth)).toEqual(['full'])
  })
  test('a restricted key whose first page got a 429 is sent no cursor of another key: the quota said nothing', async () => {
    const { ctx, calls } = scriptedContext({}, (call) =>
      call.options?.auth === 'restricted'
        ? responseOf(429, {}, ERROR)
        : responseOf(200, {}, { data: [], cursor: 'c1' }),
    )
    expect(await callCursorPages(ctx, 'restricted')).toEqual([])
    expect(calls.map((c) => c.options?.auth)).toEqual(['restricted'])
  })
  test('a status as a report names it; which operations answered what', () => {
    expect(statusOf(exchangeOf(responseOf(204)))).toBe('204')
    expect(statusOf(noResponse('socket hang up'))).toBe('no response (socket hang up)')
    const unknown = exchangeOf(responseOf(404), { operation: undefined, url: 'http://127.0.0.1:9/v1/unknown?x=1' })
    expect(statusesOf([exchangeOf(responseOf(200)), unknown])).toBe('listMarkets 200, /v1/unknown 404')
  })
})

describe('success bodies', () => {
  test('the needs of an operation follow its path parameters', () => {
    expect(needsOf(operation('getVault'))).toEqual(['apiKey'])
    expect(needsOf(operation('getIntentStatus'))).toEqual(['apiKey', 'intent'])
    expect(needsOf(operation('listTraderBalances'))).toEqual(['apiKey', 'trader'])
  })
  test('paths for titles', () => {
    expect(pathsOf(['getVault'])).toBe('GET /v1/vault')
    expect(pathsOf(['getVault', 'listMarkets'])).toBe('GET /v1/vault and /v1/markets')
    expect(pathsOf(['getVault', 'listMarkets', 'getConfig'])).toBe('GET /v1/vault, /v1/markets and /v1/config')
  })
  test('a success body is a 200 with JSON', () => {
    expect(isSuccessBody(exchangeOf(responseOf(200, {}, []), {}))).toBe(true)
    expect(isSuccessBody(exchangeOf(responseOf(200)))).toBe(false)
    expect(isSuccessBody(exchangeOf(responseOf(201, {}, {})))).toBe(false)
    expect(isSuccessBody(noResponse())).toBe(false)
  })
  test('a failure names the request, the answer and the problem', () => {
    const subject = { operation: operation('getVault'), label: 'GET /v1/vault', needs: [] }
    expect(failureOf({ subject, exchange: exchangeOf(responseOf(500, {}, ERROR)) }, 'bad')).toBe(
      'GET /v1/vault answered status 500: bad',
    )
    expect(failureOf({ subject, exchange: exchangeOf(responseOf(200)) }, 'bad')).toBe(
      'GET /v1/vault answered status 200, and the body is empty: bad',
    )
    expect(failureOf({ subject, exchange: noResponse('timeout') }, 'bad')).toBe(
      'GET /v1/vault answered no response (timeout): bad',
    )
  })
  test('each operation whose inputs were given is sent, shared; the intent one once per intent', async () => {
    const { ctx, calls } = scriptedContext({ apiKey: 'the-api-key', intent: INTENT, secondIntent: SECOND }, () =>
      responseOf(200, {}, {}),
    )
    const answers = await answersOf(ctx, ['getIntentStatus', 'getVault'])
    expect(answers.map((a) => a.subject.label)).toEqual([
      'GET /v1/intents/{hash} (the intent)',
      'GET /v1/intents/{hash} (the second intent)',
      'GET /v1/vault',
    ])
    expect(answers[1]!.subject.needs).toEqual(['apiKey', 'intent', 'secondIntent'])
    expect(calls).toEqual([
      { operation: 'getIntentStatus', options: { shared: true } },
      {
        operation: 'getIntentStatus',
        options: { params: { hash: SECOND.hash }, query: { receipt: SECOND.receipt }, shared: true },
      },
      { operation: 'getVault', options: { shared: true } },
    ])
  })
  test('without a second intent the intent operation is sent once, labelled by its path alone', async () => {
    const { ctx } = scriptedContext({ apiKey: 'the-api-key', intent: INTENT }, () => responseOf(200, {}, {}))
    expect((await answersOf(ctx, ['getIntentStatus'])).map((a) => a.subject.label)).toEqual(['GET /v1/intents/{hash}'])
  })
  test('operations whose inputs were not given are left out; the check is skipped when none is left, saying why', async () => {
    const { ctx, calls } = scriptedContext({ apiKey: 'the-api-key' }, () => responseOf(200, {}, {}))
    expect((await answersOf(ctx, ['getTraderPnl', 'getVault'])).map((a) => a.subject.label)).toEqual(['GET /v1/vault'])
    expect(calls).toHaveLength(1)
    const skipped = await rejectionOf(answersOf(ctx, ['getTraderPnl', 'getIntentStatus']))
    expect((skipped as Error).message).toBe(
      'GET /v1/traders/{address}/pnl: no trader address given (--trader); GET /v1/intents/{hash}: no intent given (--intent-hash and --intent-receipt)',
    )
  })
})

describe('bodyRuleCheck', () => {
  // Made in each test, so that a mutant of bodyRuleCheck is switched on when the check is made.
  const vaultRule = () =>
    bodyRuleCheck({ id: 'x/vault', requirement: 'SHAPE-VAULT', title: 't', operations: ['getVault'] })
  const envelopeRule = () =>
    bodyRuleCheck({ id: 'x/data', requirement: 'ENV-DATA', title: 't', operations: ['getVault', 'listMarkets'] })
  const vault = (json: unknown, status = 200) =>
    exchangeOf(responseOf(status, {}, json), { operation: 'getVault', url: 'http://127.0.0.1:9/v1/vault' })

  test('needs what its one operation needs, or the key alone for several', () => {
    expect(
      bodyRuleCheck({ id: 'x', requirement: 'SHAPE-PNL', title: 't', operations: ['getTraderPnl'] }).needs,
    ).toEqual(['apiKey', 'trader'])
    expect(
      bodyRuleCheck({ id: 'x', requirement: 'SHAPE-PNL', title: 't', operations: ['getTraderPnl', 'getVault'] }).needs,
    ).toEqual(['apiKey'])
    expect(envelopeRule().needs).toEqual(['apiKey'])
  })
  test('the envelope rules judge the success bodies of the enveloped operations alone', () => {
    const success = (operation: string, path: string) =>
      exchangeOf(responseOf(200, {}, { data: {} }), { operation, url: `http://127.0.0.1:9${path}` })
    const judged = (exchange: Exchange) =>
      envelopeChecks.filter((check) => check.recorded!.applies(undefined as never, exchange, {} as RunSettings))
    expect(judged(success('getVault', '/v1/vault'))).toEqual(envelopeChecks)
    expect(judged(success('listMarkets', '/v1/markets'))).toEqual(envelopeChecks)
    expect(judged(success('getConfig', '/v1/config')), 'GET /v1/config answers no envelope').toEqual([])
    expect(judged(success('getIntentStatus', `/v1/intents/0x${'a'.repeat(64)}`)), 'nor does an intent').toEqual([])
  })
  test('applies to the success bodies of its operations only', () => {
    const vaultData = vaultRule()
    const applies = vaultData.recorded!.applies
    expect(applies(undefined as never, vault({ data: VAULT, checkpoint: null }), {} as RunSettings)).toBe(true)
    expect(applies(undefined as never, vault(undefined), {} as RunSettings)).toBe(false)
    expect(applies(undefined as never, vault(ERROR, 404), {} as RunSettings)).toBe(false)
    expect(applies(undefined as never, exchangeOf(responseOf(200, {}, { data: [] })), {} as RunSettings)).toBe(false)
    expect(vaultData.recorded!.notApplicable).toBe('no exchange was a 200 with a JSON body from GET /v1/vault')
  })
  test('reports only the violations of its requirement: the first, what it got, and how many more', () => {
    const vaultData = vaultRule()
    const violation = (json: unknown) =>
      vaultData.recorded!.violation(vault(json).response!, vault(json), {} as RunSettings)
    expect(violation({ data: VAULT, checkpoint: null })).toBeUndefined()
    expect(violation({ data: { ...VAULT, id: 7 }, checkpoint: null })).toMatchObject({
      message: '/data/id must be string (type), got 7',
    })
    expect(violation({ data: { ...VAULT, id: 7, updatedAt: 8 }, checkpoint: null })).toMatchObject({
      message: '/data/id must be string (type), got 7 (and 1 more)',
    })
    const long = 'y'.repeat(200)
    const quoted = violation({ data: { ...VAULT, id: [long] }, checkpoint: null }) as { message: string }
    expect(quoted.message.length).toBeLessThan(140)
    expect(quoted.message).toContain(`got ["${'y'.repeat(78)}`)
  })
  test('leaves the violations of other requirements to their checks', () => {
    const vaultData = vaultRule()
    const violation = (json: unknown) =>
      vaultData.recorded!.violation(vault(json).response!, vault(json), {} as RunSettings)
    expect(violation({ data: VAULT, checkpoint: 5, cursor: 6 })).toBeUndefined()
    expect(violation({ data: { ...VAULT, id: 7 }, checkpoint: 5, cursor: 6 })).toEqual({
      message: '/data/id must be string (type), got 7',
      violations: [expect.objectContaining({ requirement: 'SHAPE-VAULT', instancePath: '/data/id' })],
    })
  })
  test('a violation of the body itself is named as the body', () => {
    const violation = envelopeRule().recorded!.violation(vault([]).response!, vault([]), {} as RunSettings)
    expect(violation).toMatchObject({ message: 'the body must be object (type), got [] (and 1 more)' })
  })
  test('its run fails on the first success body that breaks the rule, with the answer', async () => {
    const { ctx } = scriptedContext({ apiKey: 'the-api-key' }, ({ operation: id }) =>
      id === 'getVault' ? responseOf(200, {}, { checkpoint: null }) : responseOf(200, {}, { data: [] }),
    )
    const failure = (await rejectionOf(envelopeRule().run(ctx))) as Error & { details: { violations: unknown[] } }
    expect(failure.message).toBe(
      `GET /v1/vault: the body must have required property 'data' (required), got {"checkpoint":null} (and 1 more)`,
    )
    expect(failure.details.violations).toHaveLength(2)
  })
  test('its run passes when every success body keeps the rule, and skips when none answered one', async () => {
    const passing = scriptedContext({ apiKey: 'the-api-key' }, ({ operation: id }) =>
      id === 'getVault' ? responseOf(200, {}, { data: VAULT, checkpoint: null }) : responseOf(500, {}, ERROR),
    )
    await expect(envelopeRule().run(passing.ctx)).resolves.toBeUndefined()
    const none = scriptedContext({ apiKey: 'the-api-key' }, () => responseOf(503))
    expect(((await rejectionOf(envelopeRule().run(none.ctx))) as Error).message).toBe(
      'GET /v1/vault answered status 503, and the body is empty, so there is no success body to check; GET /v1/markets answered status 503, and the body is empty, so there is no success body to check',
    )
  })
})

describe('carriedPayload', () => {
  test('nothing but an object carries a payload', () => {
    expect(carriedPayload('getVault', [VAULT])).toBeUndefined()
    expect(carriedPayload('getVault', undefined)).toBeUndefined()
    expect(carriedPayload('getIntentStatus', null)).toBeUndefined()
    expect(carriedPayload('getIntentStatus', undefined)).toBeUndefined()
    expect(carriedPayload('listMarkets', null)).toBeUndefined()
    expect(carriedPayload('getIntentStatus', [INTENT_STATUS])).toBeUndefined()
    expect(carriedPayload('getVault', null)).toBeUndefined()
    expect(carriedPayload('getVault', 'x')).toBeUndefined()
  })
  test('a valid data object of the operation is its payload; an invalid or missing one is not', () => {
    expect(carriedPayload('getVault', { error: 'x', data: VAULT })).toBe('its data, a valid Vault')
    expect(carriedPayload('getVault', { error: 'x', data: { id: 'v' } })).toBeUndefined()
    expect(carriedPayload('getVault', { error: 'x', data: [VAULT] })).toBeUndefined()
    expect(carriedPayload('getVault', { error: 'x' })).toBeUndefined()
  })
  test('a list payload is a non-empty list of valid items', () => {
    expect(carriedPayload('listMarkets', { error: 'x', data: [MARKET] })).toBe('its data, 1 valid Market item')
    expect(carriedPayload('listMarkets', { error: 'x', data: [MARKET, MARKET] })).toBe('its data, 2 valid Market items')
    expect(carriedPayload('listMarkets', { error: 'x', data: [] })).toBeUndefined()
    expect(carriedPayload('listMarkets', { error: 'x', data: [MARKET, { id: 'm' }] })).toBeUndefined()
    expect(carriedPayload('listMarkets', { error: 'x', data: MARKET })).toBeUndefined()
  })
  test('the configuration has no payload of a known shape', () => {
    expect(carriedPayload('getConfig', { error: 'x', data: { anything: 1 } })).toBeUndefined()
  })
  test('an intent status carries an IntentStatus as data, or two of its members', () => {
    expect(carriedPayload('getIntentStatus', { error: 'x', orderHash: HASH, state: 'open' })).toBe(
      'the IntentStatus members orderHash, state',
    )
    expect(carriedPayload('getIntentStatus', { error: 'x', orderHash: HASH })).toBeUndefined()
    expect(carriedPayload('getIntentStatus', { error: 'x', data: { orderHash: HASH } })).toBeUndefined()
    expect(carriedPayload('getIntentStatus', { error: 'x', data: { orderHash: HASH, state: 's' } })).toBeUndefined()
    expect(carriedPayload('getIntentStatus', { error: 'x', data: INTENT_STATUS })).toBe('an IntentStatus as its data')
    expect(carriedPayload('getIntentStatus', { error: 'x', data: [INTENT_STATUS] })).toBeUndefined()
    expect(carriedPayload('getIntentStatus', { error: 'x', ...INTENT_STATUS })).toBe(
      'the IntentStatus members orderHash, state, createdAt, updatedAt, order',
    )
  })
})
