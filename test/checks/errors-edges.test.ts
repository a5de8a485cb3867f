import { describe, expect, test } from 'vitest'
import { errorsChecks } from '../../src/checks/errors.js'
import { STAND_IN, UNKNOWN_ROUTE } from '../../src/checks/operation-calls.js'
import type { Check } from '../../src/checks/types.js'
import type { Exchange } from '../../src/http/exchange.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'
import { scriptedContext, verdictOfRun, type Call } from '../support/check-context.js'

const check = (id: string): Check => errorsChecks.find((c) => c.id === id)!
const settings = { apiKey: 'the-api-key', trader: `0x${'ab'.repeat(20)}`, intent: { hash: '0x1', receipt: 'own' } }
const ERROR_BODY = { error: 'refused', code: 'refused' }
const noResponse = (operation: string): Exchange => ({
  ...exchangeOf(undefined, { operation }),
  error: { code: 'ETIMEDOUT', message: 'timed out' },
})

/** The verdict of a check on scripted answers (ctx.get answers as `route` says), and the calls and schemas it made. */
async function judged(
  id: string,
  answer: (call: Call) => Exchange['response'] | Exchange,
  route: () => Exchange['response'] = () => responseOf(404, {}, ERROR_BODY),
) {
  const { ctx, calls, schemas } = scriptedContext(settings, answer)
  Object.assign(ctx, { get: async (path: string) => exchangeOf(route(), { url: `http://127.0.0.1:9${path}` }) })
  return { verdict: await verdictOfRun(check(id).run(ctx)), calls, schemas }
}

/** The verdict of a check of the unknown route on this answer to it (the checks call no operation). */
const routeVerdict = async (id: string, answer: Exchange['response']) =>
  (
    await judged(
      id,
      () => undefined,
      () => answer,
    )
  ).verdict

describe('errors/intent-validation-unprocessable', () => {
  const id = 'errors/intent-validation-unprocessable'
  test('sends a receipt of 513 characters, one past the bound', async () => {
    const { verdict, calls, schemas } = await judged(id, () => responseOf(422, {}, ERROR_BODY))
    expect(verdict).toBe('passed')
    expect(schemas).toEqual(['ErrorBody'])
    expect((calls[0]!.options!.query as Record<string, string>).receipt).toHaveLength(513)
  })
  test('a 400 is no refusal the operation declares: it fails', async () => {
    const { verdict } = await judged(id, () => responseOf(400, {}, ERROR_BODY))
    expect(verdict).toBe('CheckFailure: a receipt of 513 characters answered 400, expected 422')
  })
})

describe('errors/unknown-intent-not-found', () => {
  const id = 'errors/unknown-intent-not-found'
  test('a 404 is the status looked for, not another refusal: it is judged and passes', async () => {
    const { verdict, schemas, calls } = await judged(id, () => responseOf(404, {}, ERROR_BODY))
    expect(verdict).toBe('passed')
    expect(schemas).toEqual(['ErrorBody'])
    expect(calls[0]!.options).toMatchObject({ params: { hash: STAND_IN.hash }, query: { receipt: 'own' } })
  })
  test('another declared refusal (422) skips', async () => {
    const { verdict } = await judged(id, () => responseOf(422, {}, ERROR_BODY))
    expect(verdict).toMatch(/^CheckSkipped: an unknown intent hash was refused with 422: /)
  })
})

describe('errors/unknown-trader-not-found', () => {
  const id = 'errors/unknown-trader-not-found'
  test('two 404s are both judged and pass', async () => {
    const { verdict, schemas } = await judged(id, () => responseOf(404, {}, ERROR_BODY))
    expect(verdict).toBe('passed')
    expect(schemas).toEqual(['ErrorBody', 'ErrorBody'])
  })
  test('one operation serving the address (200) leaves the other judged', async () => {
    const { verdict, schemas } = await judged(id, (call) =>
      call.operation === 'getTraderPnl' ? responseOf(200, {}, {}) : responseOf(404, {}, ERROR_BODY),
    )
    expect(verdict).toBe('passed')
    expect(schemas).toEqual(['ErrorBody'])
  })
  test('no response is not serving the address: it fails', async () => {
    const { verdict } = await judged(id, (call) => noResponse(call.operation))
    expect(verdict).toBe(
      'CheckFailure: getTraderPnl for an unknown trader address answered no response (timed out), expected 404',
    )
  })
  test('a 201 is not the 200 that serves every address: it is judged', async () => {
    const { verdict } = await judged(id, () => responseOf(201, {}, {}))
    expect(verdict).toBe('CheckFailure: getTraderPnl for an unknown trader address answered 201, expected 404')
  })
  test('two 403s skip: the key may be restricted', async () => {
    const { verdict } = await judged(id, () => responseOf(403, {}, ERROR_BODY))
    expect(verdict).toMatch(/^CheckSkipped: the key was refused the unknown trader address with 403 /)
  })
})

describe('errors/malformed-address-validation', () => {
  const id = 'errors/malformed-address-validation'
  test('a 200, a 403 or a 404 to the malformed address is no rejection: skipped', async () => {
    for (const status of [200, 403, 404]) {
      const { verdict } = await judged(id, () => responseOf(status, {}, ERROR_BODY))
      expect(verdict, `status ${status}`).toMatch(/^CheckSkipped: no trader operation rejected "not-an-address" /)
    }
  })
  test('a 400 or a 422 passes; a 401 or a 500 fails', async () => {
    for (const status of [400, 422])
      expect((await judged(id, () => responseOf(status, {}, ERROR_BODY))).verdict, `status ${status}`).toBe('passed')
    for (const status of [401, 500])
      expect((await judged(id, () => responseOf(status, {}, ERROR_BODY))).verdict, `status ${status}`).toBe(
        `CheckFailure: getTraderPnl with the address "not-an-address" answered ${status}, expected 400 or 422`,
      )
  })
})

describe('errors/unknown-route-not-found', () => {
  const id = 'errors/unknown-route-not-found'
  test('only a 404 passes', async () => {
    expect((await judged(id, () => undefined)).verdict).toBe('passed')
    for (const status of [200, 403, 405, 500])
      expect(await routeVerdict(id, responseOf(status, {}, ERROR_BODY))).toBe(
        `CheckFailure: GET ${UNKNOWN_ROUTE} answered ${status}, expected 404`,
      )
  })
})

describe('errors/unknown-route-serves-no-operation', () => {
  const id = 'errors/unknown-route-serves-no-operation'
  const markets = { data: [], cursor: null }
  test('a 2xx with a list body fails; a 300 with it says nothing', async () => {
    expect(await routeVerdict(id, responseOf(299, {}, markets))).toMatch(
      new RegExp(`^CheckFailure: GET ${UNKNOWN_ROUTE} answered 299 with a body of list`),
    )
    expect(await routeVerdict(id, responseOf(300, {}, markets))).toBe('passed')
  })
  test("a 200 with a body only the configuration's open shape takes says nothing", async () => {
    expect(await routeVerdict(id, responseOf(200, {}, { anything: 1 }))).toBe('passed')
  })
})
