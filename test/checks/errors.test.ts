import { describe, expect, test } from 'vitest'
import { STAND_IN, UNKNOWN_ROUTE } from '../../src/checks/operation-calls.js'
import type { CheckOutcome } from '../../src/core/report.js'
import { findRoute } from '../../src/reference/handlers.js'
import type { RefRequest, RefResponse } from '../../src/reference/types.js'
import type { ReferenceData } from '../../src/reference/data.js'
import { outcomeWithBehaviours, outcomeWithInputs } from '../support/run.js'
import { answering, setStatus, unreadable } from '../support/scripted-answers.js'

const unknownRoute = (request: RefRequest) => request.path === UNKNOWN_ROUTE
const byRestrictedKey = (request: RefRequest, data: ReferenceData) =>
  request.headers['x-api-key'] === data.restrictedApiKey

/** The reference's own success answer to GET `path`, with a request ID as its responses carry. */
function servedAt(path: string, request: RefRequest, data: ReferenceData, status: number): RefResponse {
  const found = findRoute(path)
  if (!found || found === 'malformed') throw new Error(`${path} is no route of the reference`)
  const response = found.route.handle(
    {
      ...request,
      path,
      query: new URLSearchParams(),
      route: { operation: found.route.operation, params: found.params },
    },
    data,
    data.cursors,
  )
  const body = response.body as Record<string, unknown>
  if ('data' in body) body.requestId = 'ref-0000000000000000'
  return { ...response, status }
}

function serving(path: string, status: number) {
  return (response: RefResponse, request: RefRequest, data: ReferenceData) =>
    Object.assign(response, servedAt(path, request, data, status))
}

function notCrashed(outcome: CheckOutcome): void {
  expect(outcome.crashed, `the check crashed: ${outcome.reason}`).toBeFalsy()
}

describe('errors/unknown-route-serves-no-operation', () => {
  const id = 'errors/unknown-route-serves-no-operation'

  test('fails on a 299 with the markets list at the unknown route', async () => {
    const outcome = await outcomeWithBehaviours(
      [id],
      [answering('unknown-route-299-markets', unknownRoute, serving('/v1/markets', 299))],
    )
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toBe(
      `GET ${UNKNOWN_ROUTE} answered 299 with a body of listMarkets: an operation is served at a path that is not its own`,
    )
  })

  test('says nothing of a 300 with the markets list', async () => {
    const outcome = await outcomeWithBehaviours(
      [id],
      [answering('unknown-route-300-markets', unknownRoute, serving('/v1/markets', 300))],
    )
    expect(outcome.status, outcome.reason).toBe('passed')
  })

  test('says nothing of a 200 with the configuration, whose shape is not shown', async () => {
    const outcome = await outcomeWithBehaviours(
      [id],
      [answering('unknown-route-config', unknownRoute, serving('/v1/config', 200))],
    )
    notCrashed(outcome)
    expect(outcome.status, outcome.reason).toBe('passed')
  })

  test('says nothing of an unreadable answer, or a 200 without JSON', async () => {
    const broken = await outcomeWithBehaviours([id], [answering('unknown-route-broken', unknownRoute, unreadable)])
    notCrashed(broken)
    expect(broken.status, broken.reason).toBe('passed')
    const text = await outcomeWithBehaviours(
      [id],
      [
        answering('unknown-route-text', unknownRoute, (response) =>
          Object.assign(response, { status: 200, raw: 'served' }),
        ),
      ],
    )
    notCrashed(text)
    expect(text.status, text.reason).toBe('passed')
  })
})

describe('errors/unknown-route-not-found', () => {
  test('fails, without crashing, on an unreadable answer', async () => {
    const outcome = await outcomeWithBehaviours(
      ['errors/unknown-route-not-found'],
      [answering('unknown-route-broken', unknownRoute, unreadable)],
    )
    notCrashed(outcome)
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toMatch(new RegExp(`^GET ${UNKNOWN_ROUTE} answered no response \\(.+\\), expected 404$`))
  })
})

describe('errors/unauthorized-error-body', () => {
  const id = 'errors/unauthorized-error-body'
  const keylessMarkets = (request: RefRequest) =>
    request.path === '/v1/markets' && request.headers['x-api-key'] === undefined

  test('fails on a 403 without X-API-Key, naming the request', async () => {
    const outcome = await outcomeWithBehaviours([id], [answering('keyless-403', keylessMarkets, setStatus(403))])
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toBe('GET /v1/markets without X-API-Key answered 403, expected 401')
  })

  test('fails, without crashing, on an unreadable answer', async () => {
    const outcome = await outcomeWithBehaviours([id], [answering('keyless-broken', keylessMarkets, unreadable)])
    notCrashed(outcome)
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toMatch(/^GET \/v1\/markets without X-API-Key answered no response \(.+\), expected 401$/)
  })
})

describe('errors/forbidden-error-body', () => {
  const id = 'errors/forbidden-error-body'

  test('judges a 403, past an unreadable answer to the restricted key', async () => {
    const outcome = await outcomeWithBehaviours(
      [id],
      [
        answering(
          'restricted-intent-broken',
          (r, data) => byRestrictedKey(r, data) && r.path.startsWith('/v1/intents/'),
          unreadable,
        ),
      ],
    )
    notCrashed(outcome)
    expect(outcome.status, outcome.reason).toBe('passed')
  })

  test('is skipped when the restricted key is refused nothing', async () => {
    const outcome = await outcomeWithBehaviours(
      [id],
      [
        answering(
          'restricted-granted',
          (r, data) => byRestrictedKey(r, data),
          (response) => response.status === 403 && (response.status = 200),
        ),
      ],
    )
    expect(outcome.status).toBe('skipped')
    expect(outcome.reason).toBe('the restricted key was refused by no operation checked')
  })
})

describe('errors/unknown-intent-not-found', () => {
  test('asks with the intent’s own receipt, so that a mismatched receipt is not why it is refused', async () => {
    const mismatched = answering(
      'stand-in-receipt-403',
      (r) => r.path.startsWith('/v1/intents/') && r.query.get('receipt') === STAND_IN.receipt,
      setStatus(403),
    )
    const outcome = await outcomeWithBehaviours(['errors/unknown-intent-not-found'], [mismatched])
    expect(outcome.status, outcome.reason).toBe('passed')
  })

  test('runs without a configured intent, asking with a stand-in receipt', async () => {
    const outcome = await outcomeWithInputs('errors/unknown-intent-not-found', (server) => ({
      apiKey: server.data.apiKey,
    }))
    expect(`${outcome.status}${outcome.reason === undefined ? '' : `: ${outcome.reason}`}`).toBe('passed')
  })
})

describe('errors/unknown-trader-not-found', () => {
  const id = 'errors/unknown-trader-not-found'
  const pnl = `/v1/traders/${STAND_IN.address}/pnl`
  const balances = `/v1/traders/${STAND_IN.address}/balances`

  test('is skipped when both trader operations serve the unknown address', async () => {
    const outcome = await outcomeWithBehaviours(
      [id],
      [answering('serves-any-address', (r) => r.path === pnl || r.path === balances, setStatus(200))],
    )
    expect(outcome.status).toBe('skipped')
    expect(outcome.reason).toBe(
      'the trader operations serve an address without history (getTraderPnl 200, listTraderBalances 200)',
    )
  })

  test('judges only the operation that does not serve the address', async () => {
    const outcome = await outcomeWithBehaviours(
      [id],
      [answering('pnl-serves-any-address', (r) => r.path === pnl, setStatus(200))],
    )
    expect(outcome.status, outcome.reason).toBe('passed')
  })

  test('fails, without crashing, on an unreadable answer', async () => {
    const outcome = await outcomeWithBehaviours([id], [answering('pnl-broken', (r) => r.path === pnl, unreadable)])
    notCrashed(outcome)
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toMatch(
      /^getTraderPnl for an unknown trader address answered no response \(.+\), expected 404$/,
    )
  })
})

describe('errors/malformed-address-validation', () => {
  test.each([
    [200, 'skipped'],
    [403, 'skipped'],
    [404, 'skipped'],
    [400, 'passed'],
    [422, 'passed'],
    [401, 'failed'],
    [405, 'failed'],
    [500, 'failed'],
    [503, 'not run'],
  ])(
    'a malformed address answered %i: %s (the address format is not shown; a 403 is the key refused)',
    async (status, expected) => {
      const outcome = await outcomeWithBehaviours(
        ['errors/malformed-address-validation'],
        [answering('malformed-answered', (r) => r.path.includes('/not-an-address/'), setStatus(status))],
      )
      expect(outcome.status, outcome.reason).toBe(expected)
    },
  )
  test('fails, without crashing, on an unreadable answer', async () => {
    const outcome = await outcomeWithBehaviours(
      ['errors/malformed-address-validation'],
      [answering('malformed-broken', (r) => r.path === '/v1/traders/not-an-address/pnl', unreadable)],
    )
    notCrashed(outcome)
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toMatch(
      /^getTraderPnl with the address "not-an-address" answered no response \(.+\), expected 400 or 422$/,
    )
  })
})
