import { describe, expect, test } from 'vitest'
import type { RunSettings } from '../../src/core/settings.js'
import type { CheckContext, CheckFailure } from '../../src/checks/types.js'
import { missingInputReasons } from '../../src/checks/needs.js'
import { createCheckContext, WRITE_RECEIPT_PLACEHOLDER } from '../../src/engine/context.js'
import type { SignedBodySource } from '../../src/generators/signed-bodies.js'
import { GrowingSecrets } from '../../src/http/secrets.js'
import { WRITES_NOT_ASSESSABLE, type Profile, type WriteOperation } from '../../src/profile/profile.js'
import { SharedReads } from '../../src/engine/shared-reads.js'
import { NOT_ANSWERING } from '../../src/http/circuit-breaker.js'
import { RUN_INTERRUPTED, type HttpClient, type OutgoingRequest } from '../../src/http/client.js'
import type { Exchange, ExchangeResponse } from '../../src/http/exchange.js'
import { responseOf } from '../support/hand-made.js'

const BASE = 'http://127.0.0.1:9'
const API_KEY = 'key-full-0123456789'
const RESTRICTED_KEY = 'key-restricted-0123456789'
const INTENT = { hash: '0xabc', receipt: 'receipt-1' }
const TRADER = '0xtrader'

/** What the fake client answers a request with; a delay makes an earlier request settle later. */
interface Answer {
  response?: ExchangeResponse
  error?: { code: string; message: string }
  delayMs?: number
}

/** A client that records each request and answers it as `answer` says, without a socket. */
function fakeClient(answer: (request: OutgoingRequest) => Answer = () => ({ response: responseOf(200, {}, {}) })) {
  const requests: OutgoingRequest[] = []
  let settled = 0
  const respond = async (request: OutgoingRequest): Promise<Exchange> => {
    requests.push(request)
    const { response, error, delayMs = 0 } = answer(request)
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs))
    settled += 1
    return {
      request: { method: request.method ?? 'GET', url: BASE + request.path, headers: request.headers ?? {} },
      ...(response ? { response } : {}),
      ...(error ? { error } : {}),
      retries: [],
    } as unknown as Exchange
  }
  const client = {
    request: respond,
    get: respond,
    urlFor: (path: string) => BASE + path,
    quotaRefusalSince: () => undefined,
  } as unknown as HttpClient
  return { client, requests, answered: () => settled }
}

const settingsOf = (given: Partial<RunSettings> = {}) => given as RunSettings
const withInputs = settingsOf({ apiKey: API_KEY, restrictedApiKey: RESTRICTED_KEY, intent: INTENT, trader: TRADER })

/** What a call threw: its class name and reason or message. */
async function thrown(call: () => Promise<unknown>): Promise<{ name: string; text: string }> {
  try {
    await call()
  } catch (error) {
    const { name, message, reason } = error as { name: string; message: string; reason?: string }
    return { name, text: reason ?? message }
  }
  throw new Error('the call threw nothing')
}

describe('the headers of a call', () => {
  const headersOf = async (options: Parameters<CheckContext['call']>[1], settings = withInputs) => {
    const { client, requests } = fakeClient()
    await createCheckContext(settings, client).ctx.call('listMarkets', options)
    return requests[0]!.headers
  }

  test('a call sends the full key and accepts JSON unless told otherwise', async () => {
    expect(await headersOf({})).toEqual({ accept: 'application/json', 'x-api-key': API_KEY })
  })

  test('a restricted call sends the restricted key', async () => {
    expect(await headersOf({ auth: 'restricted' })).toEqual({ accept: 'application/json', 'x-api-key': RESTRICTED_KEY })
  })

  test('a call without auth sends no key; one with a key of its own sends that key', async () => {
    expect(await headersOf({ auth: 'none' })).toStrictEqual({ accept: 'application/json' })
    expect(await headersOf({ auth: { key: 'own' } })).toEqual({ accept: 'application/json', 'x-api-key': 'own' })
  })

  test('a call without Accept sends none; extra headers are added last', async () => {
    expect(await headersOf({ withoutAccept: true })).toEqual({ 'x-api-key': API_KEY })
    expect(await headersOf({ headers: { accept: 'text/plain', 'x-extra': '1' } })).toEqual({
      accept: 'text/plain',
      'x-api-key': API_KEY,
      'x-extra': '1',
    })
  })

  test('a call that needs a key not given is skipped with the flag that gives it', async () => {
    const { client, requests } = fakeClient()
    const { ctx } = createCheckContext(settingsOf({}), client)
    expect(await thrown(() => ctx.call('listMarkets'))).toEqual({
      name: 'CheckSkipped',
      text: missingInputReasons.apiKey,
    })
    expect(await thrown(() => ctx.call('listMarkets', { auth: 'restricted' }))).toEqual({
      name: 'CheckSkipped',
      text: missingInputReasons.restrictedApiKey,
    })
    expect(requests, 'nothing is sent').toEqual([])
  })
})

describe('the path and query of a call', () => {
  const pathOf = async (
    id: Parameters<CheckContext['call']>[0],
    options: Parameters<CheckContext['call']>[1] = {},
    settings = withInputs,
  ) => {
    const { client, requests } = fakeClient()
    await createCheckContext(settings, client).ctx.call(id, options)
    return requests[0]!.path
  }

  test("an intent's status is read at the given intent with its receipt", async () => {
    expect(await pathOf('getIntentStatus')).toBe('/v1/intents/0xabc?receipt=receipt-1')
  })

  test('a hash and receipt of the call replace those given, and need no intent', async () => {
    const path = await pathOf(
      'getIntentStatus',
      { params: { hash: '0xdef' }, query: { receipt: 'r2' } },
      settingsOf({ apiKey: API_KEY }),
    )
    expect(path).toBe('/v1/intents/0xdef?receipt=r2')
  })

  test("a trader's read is at the given trader, or at the call's address without one given", async () => {
    expect(await pathOf('getTraderPnl')).toBe('/v1/traders/0xtrader/pnl')
    expect(await pathOf('getTraderPnl', { params: { address: '0xother' } }, settingsOf({ apiKey: API_KEY }))).toBe(
      '/v1/traders/0xother/pnl',
    )
  })

  test('a query value left undefined is not sent; a path without a query has no question mark', async () => {
    expect(await pathOf('listMarkets', { query: { limit: '5', cursor: undefined } })).toBe('/v1/markets?limit=5')
    expect(await pathOf('listMarkets', { query: { cursor: undefined } })).toBe('/v1/markets')
  })

  test('a read that needs an intent or trader not given is skipped with the flags that give it', async () => {
    const { client, requests } = fakeClient()
    const { ctx } = createCheckContext(settingsOf({ apiKey: API_KEY }), client)
    expect(await thrown(() => ctx.call('getIntentStatus', { params: { hash: '0xdef' } }))).toEqual({
      name: 'CheckSkipped',
      text: missingInputReasons.intent,
    })
    expect(await thrown(() => ctx.call('getIntentStatus', { query: { receipt: 'r2' } }))).toEqual({
      name: 'CheckSkipped',
      text: missingInputReasons.intent,
    })
    expect(await thrown(() => ctx.call('getTraderPnl'))).toEqual({
      name: 'CheckSkipped',
      text: missingInputReasons.trader,
    })
    expect(requests).toEqual([])
  })
})

describe('what a check may judge', () => {
  const answeredWith = async (answer: Answer) => {
    const { client } = fakeClient(() => answer)
    return thrown(() => createCheckContext(withInputs, client).ctx.call('listMarkets'))
  }

  test('a request the circuit breaker or the run cut off leaves the check not run', async () => {
    expect(await answeredWith({ error: { code: NOT_ANSWERING, message: 'not answering' } })).toEqual({
      name: 'CheckNotRun',
      text: 'not answering',
    })
    expect(await answeredWith({ error: { code: RUN_INTERRUPTED, message: 'interrupted' } })).toEqual({
      name: 'CheckNotRun',
      text: 'interrupted',
    })
  })

  test('a request that failed otherwise is for the check to judge', async () => {
    const { client } = fakeClient(() => ({ error: { code: 'ECONNRESET', message: 'reset' } }))
    const exchange = await createCheckContext(withInputs, client).ctx.call('listMarkets')
    expect(exchange.error?.code).toBe('ECONNRESET')
  })

  test('a response that cannot be judged leaves the check not run, naming the request', async () => {
    const response = { ...responseOf(200), notJudged: 'a body in the coding br' }
    expect(await answeredWith({ response })).toEqual({
      name: 'CheckNotRun',
      text: 'GET /v1/markets got a body in the coding br',
    })
  })

  test('a read answered only with a transient 5xx leaves the check not assessed', async () => {
    const outcome = await answeredWith({ response: responseOf(503) })
    expect(outcome.name).toBe('CheckNotRun')
    expect(outcome.text).toMatch(/^not assessed: the target answered 503 to 1 attempt of GET \/v1\/markets/)
  })

  test('a 500 is for the check to judge', async () => {
    const { client } = fakeClient(() => ({ response: responseOf(500) }))
    const exchange = await createCheckContext(withInputs, client).ctx.call('listMarkets')
    expect(exchange.response?.status).toBe(500)
  })
})

describe('the exchanges of a check', () => {
  test('are in the order they were sent, not answered, each named by its operation', async () => {
    const { client, requests } = fakeClient((request) => ({
      response: responseOf(200, {}, {}),
      delayMs: request.path.startsWith('/v1/markets') ? 20 : 0,
    }))
    const { ctx } = createCheckContext(withInputs, client)
    await Promise.all([ctx.call('listMarkets'), ctx.call('getConfig')])
    expect(ctx.exchanges.map((exchange) => exchange.operation)).toEqual(['listMarkets', 'getConfig'])
    expect(requests.map((request) => request.operation).sort()).toEqual(['getConfig', 'listMarkets'])
  })

  test('a path sent as it is counts against its operation, and its exchange names none', async () => {
    const { client, requests } = fakeClient()
    const { ctx } = createCheckContext(withInputs, client)
    const exchange = await ctx.get('/v1/markets?limit=1')
    expect(requests[0]!.operation).toBe('listMarkets')
    expect(exchange.operation).toBeUndefined()
  })

  test('an exchange that settles after the check ended is no part of its evidence', async () => {
    const { client } = fakeClient(() => ({ response: responseOf(200, {}, {}), delayMs: 20 }))
    const { ctx, end } = createCheckContext(withInputs, client)
    const late = ctx.call('listMarkets')
    const ending = end()
    await late
    await ending
    expect(ctx.exchanges).toEqual([])
  })

  test('end() waits for every request in flight to settle', async () => {
    const { client, answered } = fakeClient(() => ({ response: responseOf(200, {}, {}), delayMs: 20 }))
    const { ctx, end } = createCheckContext(withInputs, client)
    void ctx.call('listMarkets')
    await end()
    expect(answered()).toBe(1)
  })
})

describe('a shared read', () => {
  test('is sent once for the run, whatever the order of its headers, and not for another key', async () => {
    const { client, requests } = fakeClient()
    const reads = new SharedReads()
    const first = createCheckContext(withInputs, client, { reads, checkId: 'a' }).ctx
    const second = createCheckContext(withInputs, client, { reads, checkId: 'b' }).ctx
    await first.call('listMarkets', { shared: true, headers: { 'x-one': '1', 'x-two': '2' } })
    const again = await second.call('listMarkets', { shared: true, headers: { 'x-two': '2', 'x-one': '1' } })
    expect(requests.length).toBe(1)
    expect(again.operation).toBe('listMarkets')
    expect(reads.exchanges.map((read) => read.sentBy)).toEqual(['a'])
    await second.call('listMarkets', { shared: true, auth: 'restricted' })
    expect(requests.length, 'another key is another read').toBe(2)
  })

  test('is sent by the check itself when it may not be retried, or without a run to share with', async () => {
    const { client, requests } = fakeClient()
    const reads = new SharedReads()
    const { ctx } = createCheckContext(withInputs, client, { reads, checkId: 'a' })
    await ctx.call('listMarkets', { shared: true, retry: false })
    expect(reads.exchanges).toEqual([])
    expect(requests[0]!.retry).toBe(false)
    await createCheckContext(withInputs, client).ctx.call('listMarkets', { shared: true })
    expect(requests.length).toBe(2)
    expect(requests[1]!.signal, "the check's own request ends with it").toBeDefined()
  })

  test('answered only with a transient 5xx leaves the check not assessed', async () => {
    const { client } = fakeClient(() => ({ response: responseOf(502) }))
    const { ctx } = createCheckContext(withInputs, client, { reads: new SharedReads(), checkId: 'a' })
    expect((await thrown(() => ctx.call('listMarkets', { shared: true }))).name).toBe('CheckNotRun')
  })

  test('cut off by the circuit breaker leaves the check not run', async () => {
    const { client } = fakeClient(() => ({ error: { code: NOT_ANSWERING, message: 'not answering' } }))
    const { ctx } = createCheckContext(withInputs, client, { reads: new SharedReads(), checkId: 'a' })
    expect(await thrown(() => ctx.call('listMarkets', { shared: true }))).toEqual({
      name: 'CheckNotRun',
      text: 'not answering',
    })
  })
})

describe('request()', () => {
  test('a GET sends the key and Accept, no body', async () => {
    const { client, requests } = fakeClient()
    await createCheckContext(withInputs, client).ctx.request('GET', '/v1/config')
    expect(requests[0]).toMatchObject({
      path: '/v1/config',
      headers: { accept: 'application/json', 'x-api-key': API_KEY },
    })
    expect(requests[0]!.method).toBeUndefined()
    expect(requests[0]!.body).toBeUndefined()
  })

  test('another method with a body sends it as JSON; without one, an empty body and no content type', async () => {
    const { client, requests } = fakeClient()
    const { ctx } = createCheckContext(withInputs, client)
    await ctx.request('POST', '/v1/config', { body: '{"a":1}' })
    await ctx.request('DELETE', '/v1/config', { auth: 'none' })
    expect(requests[0]).toMatchObject({
      method: 'POST',
      body: '{"a":1}',
      headers: { accept: 'application/json', 'x-api-key': API_KEY, 'content-type': 'application/json' },
    })
    expect(requests[1]).toMatchObject({ method: 'DELETE', body: '', headers: { accept: 'application/json' } })
    expect(requests[1]!.headers).not.toHaveProperty('content-type')
  })

  test('another method answered only with a transient 5xx leaves the check not assessed', async () => {
    const { client } = fakeClient(() => ({ response: responseOf(504) }))
    const outcome = await thrown(() => createCheckContext(withInputs, client).ctx.request('PUT', '/v1/config'))
    expect(outcome.name).toBe('CheckNotRun')
  })
})

describe('expectSchema', () => {
  /** The failure expectSchema raised on the answer to a read, with the exchange it names; undefined when it held. */
  const failureOf = async (answer: Answer, schema: string) => {
    const { client } = fakeClient(() => answer)
    const { ctx } = createCheckContext(withInputs, client)
    const exchange = await ctx.get('/v1/config')
    try {
      ctx.expectSchema(schema, exchange)
    } catch (error) {
      const { name, message, details } = error as CheckFailure
      return { name, message, showsTheExchange: details.exchange === exchange, violations: details.violations?.length }
    }
    return undefined
  }

  test('an unanswered request fails, a body not JSON fails naming why, each showing the exchange', async () => {
    const unanswered = await failureOf({ error: { code: 'ECONNRESET', message: 'reset' } }, 'ErrorBody')
    expect(unanswered).toMatchObject({ name: 'CheckFailure', showsTheExchange: true })
    expect(await failureOf({ response: responseOf(200) }, 'ErrorBody')).toEqual({
      name: 'CheckFailure',
      message: 'the body is empty',
      showsTheExchange: true,
      violations: undefined,
    })
  })

  test('a body against the schema fails with its first violation, where it is, and every violation', async () => {
    expect(await failureOf({ response: responseOf(200, {}, '012') }, 'UnsignedIntegerString')).toEqual({
      name: 'CheckFailure',
      message: 'UnsignedIntegerString must match pattern "^(?:0|[1-9][0-9]*)$" (pattern at #/pattern)',
      showsTheExchange: true,
      violations: 1,
    })
    expect(await failureOf({ response: responseOf(200, {}, { error: 7 }) }, 'ErrorBody')).toMatchObject({
      message: 'ErrorBody/error must be string (type at #/properties/error/type)',
    })
  })

  test('a body that holds to the schema passes', async () => {
    expect(await failureOf({ response: responseOf(200, {}, '12') }, 'UnsignedIntegerString')).toBeUndefined()
  })
})

describe('writes', () => {
  const placeOrder: WriteOperation = {
    kind: 'submit',
    method: 'POST',
    path: '/v1/orders',
    statusIdentifier: '/id',
    receipt: '/receipt',
    duplicate: '/duplicate',
    bodies: { files: ['a.json'] },
    cancels: { operation: 'cancel', state: 'cancelled', terminalStates: [], bodies: { files: ['c.json'] } },
  } as unknown as WriteOperation
  const writeSettings = (allowWrites: boolean) =>
    settingsOf({
      ...withInputs,
      allowWrites,
      profile: { values: { writes: { operations: { placeOrder } } } } as unknown as Profile,
    })
  const supportOf = (problem?: string) => {
    const asked: { where: string; fill?: (argument: string) => string }[] = []
    const bodies = {
      next: async (_bodies: unknown, where: string, fill?: (argument: string) => string) => {
        asked.push({ where, fill })
        return problem ? { problem } : { body: '{"signed":true}' }
      },
    } as unknown as SignedBodySource
    return { writing: { bodies, secrets: new GrowingSecrets([]), allowance: 2 }, asked }
  }
  const writeWith = (answer: Answer, allowWrites = true) => {
    const { client, requests } = fakeClient(() => answer)
    const support = supportOf()
    const { ctx, writes } = createCheckContext(writeSettings(allowWrites), client, undefined, support.writing)
    return { ctx, writes, requests, support }
  }

  test('a write is skipped without --allow-writes, without write support, or for an operation not stated', async () => {
    const skipped = { name: 'CheckSkipped', text: WRITES_NOT_ASSESSABLE }
    expect(await thrown(() => writeWith({}, false).ctx.write('placeOrder', '{}', 'k'))).toEqual(skipped)
    const { client } = fakeClient()
    const unsupported = createCheckContext(writeSettings(true), client).ctx
    expect(await thrown(() => unsupported.write('placeOrder', '{}', 'k'))).toEqual(skipped)
    expect(await thrown(() => writeWith({}).ctx.write('cancelOrder', '{}', 'k'))).toEqual(skipped)
    expect(await thrown(() => writeWith({}).ctx.signedBody('cancelOrder'))).toEqual(skipped)
  })

  test('a signed body names where the profile states it; a problem signing skips the check', async () => {
    const { ctx, support } = writeWith({})
    expect(await ctx.signedBody('placeOrder')).toBe('{"signed":true}')
    const fill = (argument: string) => argument
    await ctx.cancellationBody('placeOrder', fill)
    expect(support.asked.map((ask) => ask.where)).toEqual([
      'writes.operations.placeOrder.bodies',
      'writes.operations.placeOrder.cancels.bodies',
    ])
    expect(support.asked[1]!.fill).toBe(fill)
    const { client } = fakeClient()
    const failing = createCheckContext(writeSettings(true), client, undefined, supportOf('exit 1').writing).ctx
    expect(await thrown(() => failing.signedBody('placeOrder'))).toEqual({
      name: 'CheckSkipped',
      text: 'no signed body: exit 1',
    })
  })

  test('an accepted write sends JSON with its key; its identifier, receipt, duplicate are kept', async () => {
    const json = { id: 42, receipt: 'r-secret', duplicate: false }
    const { ctx, writes, requests, support } = writeWith({ response: responseOf(201, {}, json) })
    const answer = await ctx.write('placeOrder', '{"b":1}', 'key-1')
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/orders',
      body: '{"b":1}',
      headers: {
        accept: 'application/json',
        'x-api-key': API_KEY,
        'content-type': 'application/json',
        'idempotency-key': 'key-1',
      },
    })
    expect(answer).toMatchObject({ accepted: true, statusIdentifier: '42', receipt: 'r-secret', duplicate: false })
    expect(answer.exchange.operation).toBe('placeOrder')
    expect(writes).toEqual([
      {
        operation: 'placeOrder',
        method: 'POST',
        url: `${BASE}/v1/orders`,
        idempotencyKey: 'key-1',
        status: 201,
        attempts: 1,
        statusIdentifier: '42',
        receipt: `${WRITE_RECEIPT_PLACEHOLDER}1`,
        duplicate: false,
      },
    ])
    expect(support.writing.secrets.all()).toEqual([{ value: 'r-secret', placeholder: `${WRITE_RECEIPT_PLACEHOLDER}1` }])
  })

  test('a write without a key sends none; a step sends to its own path with its headers', async () => {
    const { ctx, requests } = writeWith({ response: responseOf(200, {}, {}) })
    await ctx.write('placeOrder', '{}', null, { path: '/v1/orders/7', headers: { 'x-step': '1' } } as never)
    expect(requests[0]!.path).toBe('/v1/orders/7')
    expect(requests[0]!.headers).toEqual({
      accept: 'application/json',
      'x-api-key': API_KEY,
      'x-step': '1',
      'content-type': 'application/json',
    })
  })

  test('an answer is accepted at 200 and 299, not at 199 or 300, unless the profile lists its statuses', async () => {
    const acceptedAt = async (status: number, accepted?: number[]) => {
      const { ctx } = writeWith({ response: responseOf(status, {}, {}) })
      return (await ctx.write('placeOrder', '{}', 'k', accepted ? ({ accepted } as never) : undefined)).accepted
    }
    expect([await acceptedAt(199), await acceptedAt(200), await acceptedAt(299), await acceptedAt(300)]).toEqual([
      false,
      true,
      true,
      false,
    ])
    expect([await acceptedAt(202, [202]), await acceptedAt(200, [202])]).toEqual([true, false])
  })

  test('an answer refused records its status and learns its receipt, but answers nothing more', async () => {
    const { ctx, writes, support } = writeWith({ response: responseOf(409, {}, { id: 1, receipt: 'r-kept' }) })
    expect(Object.keys(await ctx.write('placeOrder', '{}', 'k'))).toEqual(['exchange', 'accepted'])
    expect(writes[0]).toMatchObject({ status: 409, attempts: 1 })
    expect(writes[0]).not.toHaveProperty('statusIdentifier')
    expect(support.writing.secrets.all().map((secret) => secret.value)).toEqual(['r-kept'])
  })

  test('an unanswered write is refused with no status; a transient 5xx is for the check to judge', async () => {
    const unanswered = writeWith({ error: { code: 'ECONNRESET', message: 'reset' } })
    expect((await unanswered.ctx.write('placeOrder', '{}', 'k')).accepted).toBe(false)
    expect(unanswered.writes[0]!.status).toBeNull()
    const transient = writeWith({ response: responseOf(503) })
    expect((await transient.ctx.write('placeOrder', '{}', 'k')).accepted).toBe(false)
  })

  test('an empty or missing receipt, identifier or duplicate is not recorded', async () => {
    const { ctx, writes, support } = writeWith({ response: responseOf(200, {}, { id: { nested: 1 }, receipt: '' }) })
    const answer = await ctx.write('placeOrder', '{}', 'k')
    expect(answer).not.toHaveProperty('statusIdentifier')
    expect(answer).not.toHaveProperty('receipt')
    expect(writes[0]).not.toHaveProperty('receipt')
    expect(writes[0]).not.toHaveProperty('duplicate')
    expect(support.writing.secrets.all()).toEqual([])
    const numbered = writeWith({ response: responseOf(200, {}, { receipt: 7 }) })
    expect(await numbered.ctx.write('placeOrder', '{}', 'k')).not.toHaveProperty('receipt')
    expect(numbered.support.writing.secrets.all(), 'a receipt that is no text is not learned').toEqual([])
    const stringId = writeWith({ response: responseOf(200, {}, { id: 'o-1' }) })
    expect((await stringId.ctx.write('placeOrder', '{}', 'k')).statusIdentifier).toBe('o-1')
  })

  test('an operation that states no receipt or duplicate pointer reads neither, whatever its answer holds', async () => {
    const { receipt: _receipt, duplicate: _duplicate, ...bare } = placeOrder
    const settings = settingsOf({
      ...withInputs,
      allowWrites: true,
      profile: { values: { writes: { operations: { placeOrder: bare } } } } as unknown as Profile,
    })
    const { client } = fakeClient(() => ({ response: responseOf(200, {}, { id: 3, receipt: 'r-x', duplicate: true }) }))
    const support = supportOf()
    const { ctx, writes } = createCheckContext(settings, client, undefined, support.writing)
    const answer = await ctx.write('placeOrder', '{}', 'k')
    expect(answer).toMatchObject({ accepted: true, statusIdentifier: '3', duplicate: undefined })
    expect(answer).not.toHaveProperty('receipt')
    expect(writes[0]).not.toHaveProperty('duplicate')
    expect(support.writing.secrets.all()).toEqual([])
  })

  test('once() computes a key once for the run, across checks; without a run to share with, at each call', async () => {
    const { client } = fakeClient()
    const reads = new SharedReads()
    let computed = 0
    const compute = async () => ++computed
    const first = createCheckContext(withInputs, client, { reads, checkId: 'a' }).ctx
    const second = createCheckContext(withInputs, client, { reads, checkId: 'b' }).ctx
    expect([await first.once('k', compute), await second.once('k', compute)]).toEqual([1, 1])
    const alone = createCheckContext(withInputs, client).ctx
    expect([await alone.once('k', compute), await alone.once('k', compute)]).toEqual([2, 3])
  })

  test('skip() ends the check as skipped, with the reason given', () => {
    const { ctx } = createCheckContext(withInputs, fakeClient().client)
    expect(() => ctx.skip('not this time')).toThrow(
      expect.objectContaining({ name: 'CheckSkipped', reason: 'not this time' }),
    )
  })

  test('a check that writes more than it declares is stopped before sending', async () => {
    const { ctx, requests } = writeWith({ response: responseOf(200, {}, {}) })
    await ctx.write('placeOrder', '{}', 'a')
    await ctx.write('placeOrder', '{}', 'b')
    expect(await thrown(() => ctx.write('placeOrder', '{}', 'c'))).toEqual({
      name: 'Error',
      text: 'a write check sent more than the 2 submissions it declares',
    })
    expect(requests.length).toBe(2)
  })

  test("a lifecycle step shows a receipt as the writes' placeholder, and a step without one as it is", async () => {
    const { ctx, lifecycle } = createCheckContext(
      writeSettings(true),
      fakeClient().client,
      undefined,
      supportOf().writing,
    )
    const step = { operation: 'placeOrder', state: 'open' } as never
    ctx.lifecycleStep(step, 'r-9')
    ctx.lifecycleStep(step)
    expect(lifecycle).toEqual([{ ...(step as object), receipt: `${WRITE_RECEIPT_PLACEHOLDER}1` }, step])
    const bare = createCheckContext(withInputs, fakeClient().client)
    bare.ctx.lifecycleStep(step, 'r-9')
    expect(bare.lifecycle).toEqual([{ ...(step as object), receipt: 'r-9' }])
  })
})
