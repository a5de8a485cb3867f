import { describe, expect, it } from 'vitest'
import { requestIdChecks } from '../../src/checks/request-ids.js'
import type { Check, CheckContext } from '../../src/checks/types.js'
import { scriptedContext } from '../support/check-context.js'
import type { Exchange, ExchangeResponse } from '../../src/http/exchange.js'
import type { Behaviour } from '../../src/reference/types.js'
import { expectEveryCheckPasses, outcomeWithBehaviours } from '../support/run.js'

// Copied from test/support/hand-made.ts (not to be edited): a response and an exchange made by hand.
function responseOf(status: number, headers: Record<string, string> = {}, json?: unknown): ExchangeResponse {
  return {
    status,
    headers,
    body: json === undefined ? '' : JSON.stringify(json),
    truncated: false,
    ...(json === undefined ? { jsonError: 'empty' } : { json }),
  } as ExchangeResponse
}

function exchangeOf(response: ExchangeResponse | undefined, headers: Record<string, string>): Exchange {
  return {
    operation: 'getConfig',
    request: { method: 'GET', url: 'http://127.0.0.1:9/v1/config', headers },
    response,
    retries: [],
  } as unknown as Exchange
}

function check(id: string): Check {
  const found = requestIdChecks.find((c) => c.id === id)
  if (!found) throw new Error(`${id} is not a request-ids check`)
  return found
}

/** A context by hand whose every call gets no response: fail and skip throw as the engine's do. */
function unansweredContext(): CheckContext {
  const unanswered = {
    ...exchangeOf(undefined, {}),
    error: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' },
  }
  return scriptedContext({ apiKey: 'k' }, () => unanswered).ctx
}

/** Answers GET /v1/config without a key with this status instead of its 401. */
function keylessConfig(status: number): Behaviour {
  return {
    name: `keyless-config-${status}`,
    description: `GET /v1/config without a key answers ${status}.`,
    onResponse(response, request, data) {
      if (request.path !== '/v1/config' || request.headers['x-api-key'] !== undefined) return
      response.status = status
      response.body =
        status < 400
          ? structuredClone(data.config)
          : { error: 'bad request', code: 'bad_request', requestId: response.headers['x-request-id'] }
    },
  }
}

describe('request-ids checks on hand-made answers', () => {
  it('a check fails on a request that got no response, naming the error', async () => {
    const context = unansweredContext()
    const exchange = await context.call('getConfig')
    await expect(check('request-ids/present-on-success').run(context)).rejects.toMatchObject({
      name: 'CheckFailure',
      message: 'no response (connect ECONNREFUSED 127.0.0.1:9)',
      details: { exchange },
    })
    await expect(check('request-ids/present-on-error').run(unansweredContext())).rejects.toMatchObject({
      name: 'CheckFailure',
      message: 'no response (connect ECONNREFUSED 127.0.0.1:9)',
    })
  })

  it('a success without x-request-id fails present-on-success; one with it passes', async () => {
    const answered = (headers: Record<string, string>) =>
      check('request-ids/present-on-success').run(scriptedContext({}, () => responseOf(200, headers, {})).ctx)
    await expect(answered({})).rejects.toMatchObject({ name: 'CheckFailure', message: 'x-request-id is missing' })
    await expect(answered({ 'x-request-id': 'srv-id-0001' })).resolves.toBeUndefined()
  })

  it('an invalid ID echoed as the second of two x-request-id values is echoed', () => {
    const recorded = check('request-ids/invalid-not-echoed').recorded!
    const response = responseOf(400, { 'x-request-id': ['srv-id-0001', 'Rid7chr'] as unknown as string })
    const exchange = exchangeOf(response, { 'x-request-id': 'Rid7chr' })
    expect(recorded.violation(response, exchange, {})).toBe(
      'the invalid X-Request-ID "Rid7chr" is echoed in x-request-id',
    )
  })

  it("an error body's empty requestId is one to compare, not one left out", async () => {
    const body = { error: 'no key', code: 'unauthorized', requestId: '' }
    const { ctx } = scriptedContext({}, () => responseOf(401, { 'x-request-id': 'srv-id-0001' }, body))
    await expect(check('request-ids/error-body-id-matches-header').run(ctx)).rejects.toMatchObject({
      name: 'CheckFailure',
      message: 'a 401 body carries requestId "", its header x-request-id "srv-id-0001"',
    })
  })

  it('the recorded valid-echoed judges requests to an operation that sent a valid X-Request-ID only', () => {
    const recorded = check('request-ids/valid-echoed').recorded!
    const sent = (id: string | undefined, operation = 'getConfig') => {
      const exchange = exchangeOf(
        responseOf(200, { 'x-request-id': 'other-id-1' }),
        id === undefined ? {} : { 'x-request-id': id },
      )
      return recorded.applies(
        exchange.response!,
        operation === 'none' ? { ...exchange, operation: undefined } : exchange,
        {},
      )
    }
    expect(sent('ipts-conformance-4')).toBe(true)
    expect(sent('Rid7chr')).toBe(false)
    expect(sent(undefined)).toBe(false)
    expect(sent('ipts-conformance-4', 'none')).toBe(false)
    const exchange = exchangeOf(responseOf(200, { 'x-request-id': 'other-id-1' }), {
      'x-request-id': 'ipts-conformance-4',
    })
    expect(recorded.violation(exchange.response!, exchange, {})).toBe(
      'the valid X-Request-ID "ipts-conformance-4" came back as "other-id-1"',
    )
  })

  it('the recorded invalid-not-echoed judges requests to an operation that sent an invalid X-Request-ID only', () => {
    const recorded = check('request-ids/invalid-not-echoed').recorded!
    const applies = (id: string | undefined, operation?: string) => {
      const exchange = {
        ...exchangeOf(responseOf(400), id === undefined ? {} : { 'x-request-id': id }),
        ...(operation === 'none' ? { operation: undefined } : {}),
      }
      return recorded.applies(exchange.response!, exchange, {})
    }
    expect(applies('Rid7chr')).toBe(true)
    expect(applies('ipts-conformance-4')).toBe(false)
    expect(applies(undefined)).toBe(false)
    expect(applies('Rid7chr', 'none')).toBe(false)
    expect(recorded.notApplicable).toBe('no exchange was a request to an operation with an invalid X-Request-ID')
    expect(check('request-ids/valid-echoed').recorded!.notApplicable).toBe(
      'no exchange was a request to an operation with a valid X-Request-ID',
    )
  })
})

/**
 * A context by hand whose GET /v1/config echoes the X-Request-ID sent, in x-request-id and the body's requestId, where
 * `echoes` holds for it, and gives an ID of its own elsewhere.
 */
function echoingContext(echoes: (sent: string) => boolean): CheckContext {
  const context = unansweredContext()
  return {
    ...context,
    call: async (_: string, options?: { headers?: Record<string, string> }) => {
      const sent = options?.headers?.['x-request-id']
      const id = sent !== undefined && echoes(sent) ? sent : 'server-chosen-1'
      return exchangeOf(responseOf(200, { 'x-request-id': id }, { requestId: id }), options?.headers ?? {})
    },
  } as CheckContext
}

describe('the X-Request-ID examples, each sent', () => {
  const runOf = (id: string, echoes: (sent: string) => boolean) => check(id).run(echoingContext(echoes))

  it.each([
    ['too short (7 characters)', (sent: string) => sent.length === 7, '"Rid7chr"'],
    ['too long (129 characters)', (sent: string) => sent.length === 129, JSON.stringify(`${'x'.repeat(121)}.9_:-AbZ`)],
    ['with a space', (sent: string) => sent.includes(' '), '"ipts conformance"'],
    ['with a slash', (sent: string) => sent.includes('/'), '"ipts/conformance"'],
    ['non-ASCII', (sent: string) => /[^\x20-\x7e]/.test(sent), '"ipts-conformancé"'],
  ])('invalid-not-echoed sends one %s: a server that echoes only it fails', async (name, echoes, shown) => {
    await expect(runOf('request-ids/invalid-not-echoed', echoes)).rejects.toMatchObject({
      name: 'CheckFailure',
      message: `the ${name} X-Request-ID ${shown} is echoed in x-request-id`,
    })
  })

  it('invalid-not-echoed passes a server that echoes every valid ID and no invalid one', async () => {
    await expect(
      runOf('request-ids/invalid-not-echoed', (sent) => /^[A-Za-z0-9._:-]{8,128}$/.test(sent)),
    ).resolves.toBeUndefined()
  })

  it.each([
    ['shortest (8 characters)', (sent: string) => sent.length === 8],
    ['longest (128 characters)', (sent: string) => sent.length === 128],
    ['dotted', (sent: string) => sent === 'ipts.conformance.1'],
    ['underscored', (sent: string) => sent.includes('_') && sent.length < 128],
    ['colon-separated', (sent: string) => sent.includes(':') && sent.length < 128],
    ['hyphenated', (sent: string) => sent.includes('-') && sent.length < 128],
  ])('valid-echoed sends one %s: a server that garbles only it fails', async (name, garbles) => {
    await expect(runOf('request-ids/valid-echoed', (sent) => !garbles(sent))).rejects.toMatchObject({
      name: 'CheckFailure',
      message: expect.stringMatching(
        new RegExp(`^the ${name.replace(/[()]/g, '\\$&')} X-Request-ID "[^"]+" came back as "server-chosen-1"$`),
      ),
    })
  })
})

describe('request-ids checks against the scripted reference', () => {
  it('every request-ids check passes against the reference as it is', async () => {
    await expectEveryCheckPasses('request-ids')
  })

  it('a keyless GET /v1/config answered 200 gives no error to judge: skipped', async () => {
    for (const id of [
      'request-ids/present-on-error',
      'request-ids/error-echoes-sent-id',
      'request-ids/error-body-id-matches-header',
    ] as const) {
      const outcome = await outcomeWithBehaviours([id], [keylessConfig(200)])
      expect({ id, status: outcome.status, reason: outcome.reason }).toEqual({
        id,
        status: 'skipped',
        reason: 'GET /v1/config without a key answered 200, not an error',
      })
    }
  })

  it('a keyless GET /v1/config answered 400 is an error to judge', async () => {
    const outcome = await outcomeWithBehaviours(['request-ids/error-echoes-sent-id'], [keylessConfig(400)])
    expect([outcome.status, outcome.reason]).toEqual(['passed', undefined])
  })
})
