import { describe, expect, test } from 'vitest'
import { configChecks } from '../../src/checks/config.js'
import type { Check } from '../../src/checks/types.js'
import type { Exchange } from '../../src/http/exchange.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'
import { rejectionOf, scriptedContext, verdictOfRun, type Call } from '../support/check-context.js'

const check = (id: string): Check => configChecks.find((c) => c.id === id)!
const settings = { apiKey: 'the-api-key' }
const noResponse = (): Exchange => ({
  ...exchangeOf(undefined, { operation: 'getConfig' }),
  error: { code: 'ETIMEDOUT', message: 'timed out' },
})

async function verdictOf(id: string, answer: (call: Call) => Exchange['response'] | Exchange): Promise<string> {
  const { ctx } = scriptedContext(settings, answer)
  return verdictOfRun(check(id).run(ctx))
}

describe('config/answers-json', () => {
  test('any 2xx passes, and the body is held to ConfigResponse', async () => {
    for (const status of [200, 299]) {
      const { ctx, schemas } = scriptedContext(settings, () => responseOf(status, {}, { chainId: 1 }))
      await check('config/answers-json').run(ctx)
      expect(schemas, `status ${status}`).toEqual(['ConfigResponse'])
    }
  })
  test('its failure carries the exchange', async () => {
    const exchange = exchangeOf(responseOf(503, {}, { error: 'down' }), { operation: 'getConfig' })
    const { ctx } = scriptedContext(settings, () => exchange)
    const failure = (await rejectionOf(check('config/answers-json').run(ctx))) as { details?: { exchange?: Exchange } }
    expect(failure.details?.exchange).toBe(exchange)
  })
  test('a status outside 2xx, or none, fails', async () => {
    expect(await verdictOf('config/answers-json', () => responseOf(199, {}, {}))).toBe(
      'CheckFailure: answered 199, expected a 2xx with the deployment configuration',
    )
    expect(await verdictOf('config/answers-json', () => responseOf(300, {}, {}))).toBe(
      'CheckFailure: answered 300, expected a 2xx with the deployment configuration',
    )
    expect(await verdictOf('config/answers-json', noResponse)).toBe(
      'CheckFailure: answered no response (timed out), expected a 2xx with the deployment configuration',
    )
  })
})

describe('config/operations-under-v1', () => {
  test('404, 405, 501 or no answer at an unparameterised path is a missing route', async () => {
    for (const status of [404, 405, 501]) {
      const verdict = await verdictOf('config/operations-under-v1', ({ operation }) =>
        responseOf(operation === 'listMarkets' ? status : 200, {}, {}),
      )
      expect(verdict).toBe(
        `CheckFailure: GET /v1/markets answered status ${status}: the operation is not served at its /v1 path`,
      )
    }
    expect(
      await verdictOf('config/operations-under-v1', ({ operation }) =>
        operation === 'getConfig' ? noResponse() : responseOf(200, {}, {}),
      ),
    ).toBe('CheckFailure: GET /v1/config answered no response (timed out): the operation is not served at its /v1 path')
  })
  test('any other answer shows the route is served: a refusal, an error, a success', async () => {
    for (const status of [200, 401, 403, 429, 500, 503])
      expect(
        await verdictOf('config/operations-under-v1', () => responseOf(status, {}, { error: 'x' })),
        `status ${status}`,
      ).toBe('passed')
  })
  test('only the operations without path parameters are asked', async () => {
    const { ctx, calls } = scriptedContext({ ...settings, trader: `0x${'cd'.repeat(20)}` }, () =>
      responseOf(200, {}, {}),
    )
    await check('config/operations-under-v1').run(ctx)
    expect(calls.map((c) => c.operation)).toEqual(['getVault', 'listMarkets', 'getConfig'])
  })
})
