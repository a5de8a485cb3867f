import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { checksByConcern } from '../../src/checks/index.js'
import { intentsChecks, statusMember } from '../../src/checks/intents.js'
import type { CallOptions, Check, CheckContext } from '../../src/checks/types.js'
import type { CheckId } from '../../src/contract/catalogue-ids.js'
import type { RunSettings } from '../../src/core/settings.js'
import type { Exchange, ExchangeResponse } from '../../src/http/exchange.js'
import { buildReferenceData } from '../../src/reference/data.js'
import type { Behaviour, RefRequest, RefResponse } from '../../src/reference/types.js'
import { expectEveryCheckPasses, outcomeWithBehaviours, runAgainstReference } from '../support/run.js'
import { scriptedContext } from '../support/check-context.js'

// Copied from test/support/hand-made.ts (not to be edited): a response and an exchange made by hand.
function responseOf(status: number, json?: unknown): ExchangeResponse {
  return {
    status,
    headers: {},
    body: json === undefined ? '' : JSON.stringify(json),
    truncated: false,
    ...(json === undefined ? { jsonError: 'empty' } : { json }),
  } as ExchangeResponse
}

function exchangeOf(
  response: ExchangeResponse | undefined,
  url = 'http://127.0.0.1:9/v1/intents/0x00',
  operation: string | undefined = 'getIntentStatus',
): Exchange {
  return { operation, request: { method: 'GET', url, headers: {} }, response, retries: [] } as unknown as Exchange
}

const REFUSED_CONNECTION = { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' }

/** An exchange that got no response: the target refused the connection. */
function unanswered(): Exchange {
  return { ...exchangeOf(undefined), error: REFUSED_CONNECTION } as unknown as Exchange
}

function check(id: string): Check {
  const found = intentsChecks.find((c) => c.id === id)
  if (!found) throw new Error(`${id} is not an intents check`)
  return found
}

/** A context by hand whose every call is answered by answer(): fail and skip throw as the engine's do. */
function contextOf(settings: Partial<RunSettings>, answer: (options: CallOptions) => Exchange): CheckContext {
  return scriptedContext(settings, ({ options }) => answer(options ?? {})).ctx
}

const DATA = buildReferenceData()
const [FIRST, SECOND] = DATA.intents as [(typeof DATA.intents)[0], (typeof DATA.intents)[0]]
/**
 * A configured receipt of 512 characters, the longest the contract allows, in which no stretch recurs: redaction
 * finds every stretch of a receipt such as 'r'.repeat(512) at every place of it, for seconds of CPU a run.
 */
const RECEIPT_512 = Array.from({ length: 8 }, (_, i) => createHash('sha256').update(String(i)).digest('hex')).join('')
const HASH = /^0x[0-9a-fA-F]{64}$/
/** A hash with its hex digits in upper case: the same intent, as the hash pattern allows either case. */
const upperHex = (hash: string) => `0x${hash.slice(2).toUpperCase()}`

function isIntentRequest(request: RefRequest): boolean {
  return request.route?.operation === 'getIntentStatus'
}

/** The stored intent a well-formed hash of the request names, in either case. */
function askedIntent(request: RefRequest, data: { intents: { hash: string }[] }) {
  const hash = isIntentRequest(request) ? request.route!.params.hash! : ''
  return HASH.test(hash) ? data.intents.find((intent) => intent.hash.toLowerCase() === hash.toLowerCase()) : undefined
}

/** Answers an intent request with this status where when() holds (a 5xx keeps the shape of an error body). */
function answerWith(
  name: string,
  status: number,
  when: (request: RefRequest, response: RefResponse) => boolean,
  headers: Record<string, string> = {},
): Behaviour {
  return {
    name,
    description: `Answers some intent requests with ${status}.`,
    onResponse(response, request) {
      if (!isIntentRequest(request) || !when(request, response)) return
      response.status = status
      Object.assign(response.headers, headers)
      if (status >= 400)
        response.body = {
          error: 'scripted',
          code: status === 429 ? 'rate_limited' : 'internal',
          requestId: response.headers['x-request-id'],
        }
    },
  }
}

/** Edits the 200 status of the intents asked for whose stored record passes which(). */
function editStatus(
  name: string,
  which: (intent: { hash: string }) => boolean,
  edit: (status: Record<string, unknown>) => void,
): Behaviour {
  return {
    name,
    description: 'Edits an intent status.',
    onResponse(response, request, data) {
      const intent = askedIntent(request, data)
      if (!intent || response.status !== 200 || !which(intent)) return
      response.body = structuredClone(response.body)
      edit(response.body as Record<string, unknown>)
    },
  }
}

const OTHER_HASH = `0x${'ab'.repeat(32)}`

describe('statusMember', () => {
  it('reads a member of a 200 body only', () => {
    expect(statusMember(exchangeOf(responseOf(200, { orderHash: '0x1' })), 'orderHash')).toBe('0x1')
    // A refusal that carries the member is no intent status.
    expect(statusMember(exchangeOf(responseOf(404, { orderHash: '0x1' })), 'orderHash')).toBeUndefined()
    expect(statusMember(exchangeOf(responseOf(200, [{ orderHash: '0x1' }])), 'orderHash')).toBeUndefined()
    expect(statusMember(exchangeOf(responseOf(200, null)), 'orderHash')).toBeUndefined()
    expect(statusMember(exchangeOf(responseOf(200)), 'orderHash')).toBeUndefined()
    expect(statusMember(unanswered(), 'orderHash')).toBeUndefined()
  })

  it('reads no member of another 2xx: an intent status is a 200 (201 and 299, the edges of the range)', () => {
    for (const status of [201, 299])
      expect(statusMember(exchangeOf(responseOf(status, { orderHash: '0x1' })), 'orderHash'), `${status}`).toBe(
        undefined,
      )
  })
})

describe('intents/missing-receipt-refused, recorded', () => {
  const recorded = check('intents/missing-receipt-refused').recorded!
  const withoutReceipt = 'http://127.0.0.1:9/v1/intents/0x00'
  const withReceipt = 'http://127.0.0.1:9/v1/intents/0x00?receipt=r'

  it('applies to an intent request without a receipt that was not answered 429', () => {
    expect(recorded.applies(responseOf(404), exchangeOf(responseOf(404), withoutReceipt), {})).toBe(true)
    expect(recorded.applies(responseOf(404), exchangeOf(responseOf(404), withReceipt), {})).toBe(false)
    expect(
      recorded.applies(responseOf(404), exchangeOf(responseOf(404), 'http://127.0.0.1:9/v1/intents/0x00?other=1'), {}),
    ).toBe(true)
    expect(
      recorded.applies(
        responseOf(404),
        exchangeOf(responseOf(404), 'http://127.0.0.1:9/v1/markets', 'listMarkets'),
        {},
      ),
    ).toBe(false)
    expect(
      recorded.applies(responseOf(404), { ...exchangeOf(responseOf(404), withoutReceipt), operation: undefined }, {}),
    ).toBe(false)
    expect(recorded.applies(responseOf(429), exchangeOf(responseOf(429), withoutReceipt), {})).toBe(false)
    for (const status of [428, 430, 500])
      expect(
        recorded.applies(responseOf(status), exchangeOf(responseOf(status), withoutReceipt), {}),
        `${status}`,
      ).toBe(true)
    expect(recorded.notApplicable).toBe('no exchange was a request for an intent status without a receipt')
  })

  it('finds a 2xx, and only a 2xx, a grant of access', () => {
    const violation = (status: number) =>
      recorded.violation(responseOf(status), exchangeOf(responseOf(status), withoutReceipt), {})
    expect(violation(200)).toBe('the intent without a receipt answered 200: access was granted')
    expect(violation(299)).toBe('the intent without a receipt answered 299: access was granted')
    expect(violation(199)).toBeUndefined()
    expect(violation(300)).toBeUndefined()
    expect(violation(401)).toBeUndefined()
    expect(violation(404)).toBeUndefined()
    expect(violation(500)).toBeUndefined()
  })
})

describe('intents checks on hand-made answers', () => {
  const settings = { apiKey: 'k', intent: { hash: FIRST.hash, receipt: FIRST.receipt } }

  it('a refusal check fails on a request that got no response, naming the request and the error', async () => {
    const exchange = unanswered()
    await expect(
      check('intents/missing-receipt-refused').run(contextOf(settings, () => exchange)),
    ).rejects.toMatchObject({
      name: 'CheckFailure',
      message: 'the intent without a receipt got no response (connect ECONNREFUSED 127.0.0.1:9)',
      details: { exchange },
    })
  })

  it('a grant check fails on no response, naming the error', async () => {
    await expect(check('intents/receipt-grants-status').run(contextOf(settings, unanswered))).rejects.toMatchObject({
      name: 'CheckFailure',
      message: "the intent's own receipt answered no response (connect ECONNREFUSED 127.0.0.1:9), expected 200",
    })
  })

  it.each([
    [{ orderHash: null }, 'orderHash null, not a string'],
    [{ state: 'pending' }, 'no orderHash'],
  ])(
    'a grant check fails on a status of %o, naming what it has, with the exchange as evidence',
    async (status, has) => {
      const exchange = exchangeOf(responseOf(200, status))
      await expect(
        check('intents/receipt-grants-status').run(contextOf(settings, () => exchange)),
      ).rejects.toMatchObject({
        name: 'CheckFailure',
        message: `the status answered has ${has}`,
        details: { exchange },
      })
    },
  )

  it('each check sends the requests it names, and no others', async () => {
    const given = { ...settings, secondIntent: { hash: SECOND.hash, receipt: SECOND.receipt } }
    const sent = async (id: string, from: Partial<RunSettings>) => {
      const calls: [string | undefined, string | undefined][] = []
      const answer = (options: CallOptions) => {
        calls.push([options.params?.hash, options.query?.receipt])
        return exchangeOf(responseOf(404, { error: 'not found', code: 'intent_not_found' }))
      }
      await check(id)
        .run(contextOf(from, answer))
        .catch(() => undefined)
      return calls.sort()
    }
    const h = FIRST.hash
    const r = FIRST.receipt
    expect(await sent('intents/malformed-hash-refused', given)).toEqual(
      [
        [h.slice(0, -1), r],
        [`${h}0`, r],
        [`0X${h.slice(2)}`, r],
        [`0xg${h.slice(3)}`, r],
        [h.slice(2), r],
      ].sort(),
    )
    expect(await sent('intents/missing-receipt-refused', given)).toEqual([[undefined, undefined]])
    expect(await sent('intents/empty-receipt-refused', given)).toEqual([[undefined, '']])
    expect(await sent('intents/receipt-bound-to-intent', given)).toEqual([[undefined, SECOND.receipt]])
    const malformed = [
      [h.slice(0, -1), r],
      [`${h}0`, r],
      [`0X${h.slice(2)}`, r],
      [`0xg${h.slice(3)}`, r],
      [h.slice(2), r],
    ] as [string, string][]
    expect(await sent('intents/refusals-declared-4xx', given)).toEqual(
      [
        ...malformed,
        [h, undefined],
        [h, ''],
        [h, r.padEnd(513, 'x')],
        [h, 'not-the-receipt.'.repeat(4).slice(0, r.length)],
        [h, SECOND.receipt],
      ].sort(),
    )
    // A receipt that is the filler itself (512 characters, the longest valid), and a second intent of the same receipt:
    // only the probes they allow.
    const filler = 'not-the-receipt.'.repeat(32)
    const bare = {
      apiKey: 'k',
      intent: { hash: h, receipt: filler },
      secondIntent: { hash: SECOND.hash, receipt: filler },
    }
    const bareMalformed = malformed.map(([hash]) => [hash, filler])
    expect(await sent('intents/refusals-declared-4xx', bare)).toEqual(
      [...bareMalformed, [h, undefined], [h, ''], [h, filler.padEnd(513, 'x')]].sort(),
    )
  })

  it('a grant check reads the other intent only when one is given', async () => {
    // Without a second intent, an orderHash other than the hash asked for is no finding.
    const answer = () => exchangeOf(responseOf(200, { orderHash: OTHER_HASH }))
    await expect(check('intents/receipt-grants-status').run(contextOf(settings, answer))).resolves.toBeUndefined()
  })

  it('intents/refusals-declared-4xx: a 2xx up to 299 is no refusal (skipped); from 300 every answer is a refusal, judged', async () => {
    const verdictAt = (status: number) =>
      check('intents/refusals-declared-4xx')
        .run(contextOf(settings, () => exchangeOf(responseOf(status, { error: 'x' }))))
        .then(
          () => 'passed',
          (error: Error) => error.constructor.name,
        )
    expect(await verdictAt(200)).toBe('CheckSkipped')
    expect(await verdictAt(299)).toBe('CheckSkipped')
    expect(await verdictAt(429)).toBe('CheckSkipped')
    expect(await verdictAt(300)).toBe('CheckFailure')
    expect(await verdictAt(399)).toBe('CheckFailure')
    expect(await verdictAt(404)).toBe('passed')
  })

  it('intents/refusals-declared-4xx leaves out a request that got no response', async () => {
    const answer = (options: CallOptions) =>
      options.query?.receipt === undefined
        ? unanswered()
        : exchangeOf(responseOf(404, { error: 'not found', code: 'intent_not_found' }))
    await expect(check('intents/refusals-declared-4xx').run(contextOf(settings, answer))).resolves.toBeUndefined()
  })

  it('intents/refusals-declared-4xx judges a single refusal: every other request answered 429', async () => {
    const oneRefused = (status: number) => (options: CallOptions) =>
      options.query?.receipt === undefined
        ? exchangeOf(responseOf(status, { error: 'x' }))
        : exchangeOf(responseOf(429, { error: 'quota', code: 'rate_limited' }))
    const run = (status: number) => check('intents/refusals-declared-4xx').run(contextOf(settings, oneRefused(status)))
    await expect(run(404)).resolves.toBeUndefined()
    await expect(run(500)).rejects.toMatchObject({
      name: 'CheckFailure',
      message: expect.stringMatching(/^the intent without a receipt answered 500, not a declared 4xx \(one of /),
    })
  })

  it('intents/failure-not-retryable reads only the intents given', async () => {
    const failed = () => exchangeOf(responseOf(200, { orderHash: FIRST.hash, failure: { retryable: false } }))
    await expect(check('intents/failure-not-retryable').run(contextOf(settings, failed))).resolves.toBeUndefined()
    const retryable = () => exchangeOf(responseOf(200, { orderHash: FIRST.hash, failure: { retryable: true } }))
    await expect(check('intents/failure-not-retryable').run(contextOf(settings, retryable))).rejects.toMatchObject({
      name: 'CheckFailure',
      message: 'failure.retryable is true, expected false',
    })
  })
})

describe('intents checks against the scripted reference', () => {
  const first = { hash: FIRST.hash, receipt: FIRST.receipt }

  it('every intents check passes against the reference as it is', async () => {
    await expectEveryCheckPasses('intents')
  })

  it('the intents checks share their reads: the run sends each intent request once', async () => {
    const seen = new Map<string, number>()
    const counter: Behaviour = {
      name: 'intent-request-counter',
      description: 'Counts the intent requests by path and query.',
      onRequest(request) {
        if (!request.path.startsWith('/v1/intents/')) return
        const key = `${request.path}?${request.query.toString()}`
        seen.set(key, (seen.get(key) ?? 0) + 1)
      },
    }
    const report = await runAgainstReference(
      { behaviours: [counter] },
      {},
      { only: checksByConcern.intents.map(({ id }) => id) },
    )
    const ids = new Set(intentsChecks.map(({ id }) => id))
    expect(report.checks.filter(({ id }) => ids.has(id)).map(({ id, status }) => [id, status])).toEqual(
      intentsChecks.map(({ id }) => [id, 'passed']),
    )
    expect(seen.size).toBeGreaterThan(10)
    expect([...seen].filter(([, count]) => count !== 1)).toEqual([])
  })

  it('a 2xx other than 200 to a request without a receipt is a grant of access', async () => {
    const outcome = await outcomeWithBehaviours(
      ['intents/missing-receipt-refused'],
      [answerWith('no-receipt-206', 206, (request) => !request.query.has('receipt'))],
    )
    expect([outcome.status, outcome.reason]).toEqual([
      'failed',
      'the intent without a receipt answered 206: access was granted',
    ])
  })

  it('a 429 to the request leaves the refusal unobserved: skipped', async () => {
    const outcome = await outcomeWithBehaviours(
      ['intents/missing-receipt-refused'],
      [answerWith('no-receipt-429', 429, (request) => !request.query.has('receipt'), { 'retry-after': '3600' })],
    )
    expect([outcome.status, outcome.reason]).toEqual([
      'skipped',
      'the intent without a receipt was answered 429 (quota exceeded), so whether access is refused was not observed',
    ])
  })

  // Each rendering granted alone: the failure names it. (The hash with its first hex digit replaced by g reaches a
  // lookup that ignores the bad digit.)
  it.each([
    ['a hash one hex digit short', (hash: string) => hash.length === 65],
    ['a hash one hex digit long', (hash: string) => hash.length === 67],
    ['a hash with the prefix 0X', (hash: string) => hash.startsWith('0X')],
    ['a hash with a non-hex digit', (hash: string) => hash.startsWith('0xg')],
    ['a hash without the 0x prefix', (hash: string) => hash.length === 64],
  ])('each malformed hash must be refused: %s', async (what, granted) => {
    const grant = answerWith('malformed-granted', 200, (request) => granted(request.route!.params.hash!))
    const outcome = await outcomeWithBehaviours(['intents/malformed-hash-refused'], [grant])
    expect([outcome.status, outcome.reason]).toEqual(['failed', `${what} answered 200: access was granted`])
  })

  it.each<[CheckId, string, (receipt?: string) => boolean]>([
    ['intents/empty-receipt-refused', 'the intent with an empty receipt', (receipt) => receipt === ''],
    [
      'intents/receipt-bound-to-intent',
      "the first intent with the second intent's receipt",
      (receipt) => receipt === SECOND.receipt,
    ],
  ])('%s names its request when access is granted', async (id, what, granted) => {
    const grant = answerWith('receipt-granted', 200, (request) => granted(request.query.get('receipt') ?? undefined))
    const outcome = await outcomeWithBehaviours([id], [grant], { intent: first, secondIntent: SECOND })
    expect([outcome.status, outcome.reason]).toEqual(['failed', `${what} answered 200: access was granted`])
  })

  it('an oversized receipt is 513 characters that start with the real one', async () => {
    const overLong = answerWith(
      'over-long-receipt-skips-comparison',
      200,
      (request) => (request.query.get('receipt') ?? '').length > 512,
    )
    const outcome = await outcomeWithBehaviours(['intents/oversized-receipt-refused'], [overLong])
    expect([outcome.status, outcome.reason]).toEqual([
      'failed',
      'the intent with its receipt padded to 513 characters answered 200: access was granted',
    ])
  })

  it('a configured receipt of 512 characters is padded to 513; one of 513 is refused before the run', async () => {
    const receipt512 = { hash: FIRST.hash, receipt: RECEIPT_512 }
    const padded = await outcomeWithBehaviours(
      ['intents/oversized-receipt-refused'],
      [answerWith('513-granted', 200, (request) => request.query.get('receipt')?.length === 513)],
      { intent: receipt512 },
    )
    expect([padded.status, padded.reason]).toEqual([
      'failed',
      'the intent with its receipt padded to 513 characters answered 200: access was granted',
    ])
    // A configured receipt outside the contract's bounds is refused before the run, as every input is
    // (validateRunOptions).
    await expect(
      outcomeWithBehaviours(['intents/oversized-receipt-refused'], [], {
        intent: { hash: FIRST.hash, receipt: 'r'.repeat(513) },
      }),
    ).rejects.toThrow('settings.intent receipt must be 1 to 512 characters')
  })

  it("a wrong receipt has the real one's length", async () => {
    // A server that compares only the receipt's length grants the wrong receipt of valid length.
    const lengthOnly = answerWith(
      'receipt-compared-by-length',
      200,
      (request, response) => response.status === 404 && request.query.get('receipt')?.length === FIRST.receipt.length,
    )
    const outcome = await outcomeWithBehaviours(['intents/wrong-receipt-refused'], [lengthOnly])
    expect([outcome.status, outcome.reason]).toEqual([
      'failed',
      'the intent with a wrong receipt answered 200: access was granted',
    ])
  })

  it('a configured receipt that is the filler itself cannot be sent as a wrong one: skipped', async () => {
    const outcome = await outcomeWithBehaviours(['intents/wrong-receipt-refused'], [], {
      intent: { hash: FIRST.hash, receipt: 'not-the-receipt.not' },
    })
    expect([outcome.status, outcome.reason]).toEqual([
      'skipped',
      'the configured receipt is the filler this check sends as a wrong receipt',
    ])
  })

  it('intents/receipt-bound-to-intent is skipped for two intents of one hash, or of one receipt', async () => {
    const sameHash = await outcomeWithBehaviours(['intents/receipt-bound-to-intent'], [], {
      intent: first,
      secondIntent: { hash: upperHex(FIRST.hash), receipt: SECOND.receipt },
    })
    expect([sameHash.status, sameHash.reason]).toEqual(['skipped', 'the two intents given have the same hash'])
    const sameReceipt = await outcomeWithBehaviours(['intents/receipt-bound-to-intent'], [], {
      intent: first,
      secondIntent: { hash: SECOND.hash, receipt: FIRST.receipt },
    })
    expect([sameReceipt.status, sameReceipt.reason]).toEqual(['skipped', 'the two intents given have the same receipt'])
  })

  describe('intents/receipt-grants-status and intents/second-receipt-grants-status', () => {
    it("fail on a refusal of the intent's own receipt", async () => {
      const outcome = await outcomeWithBehaviours(
        ['intents/receipt-grants-status'],
        [answerWith('own-receipt-404', 404, (_request, response) => response.status === 200)],
      )
      expect([outcome.status, outcome.reason]).toEqual([
        'failed',
        "the intent's own receipt answered 404, expected 200",
      ])
    })

    it('fail on a status whose orderHash is no string', async () => {
      const outcome = await outcomeWithBehaviours(
        ['intents/receipt-grants-status'],
        [
          editStatus(
            'order-hash-number',
            () => true,
            (status) => (status.orderHash = 5),
          ),
        ],
      )
      expect([outcome.status, outcome.reason]).toEqual(['failed', 'the status answered has orderHash 5, not a string'])
    })

    it('fail when both intents answer one orderHash that is not the hash asked for', async () => {
      const same = editStatus(
        'every-intent-one-order-hash',
        () => true,
        (status) => (status.orderHash = OTHER_HASH),
      )
      const message = `the status answered has orderHash ${OTHER_HASH}, not the hash asked for, and the other intent given, read with its own receipt, answers the same orderHash: one of them was answered with a status not its own`
      for (const id of ['intents/receipt-grants-status', 'intents/second-receipt-grants-status'] as const) {
        const outcome = await outcomeWithBehaviours([id], [same])
        expect({ id, status: outcome.status, reason: outcome.reason }).toEqual({
          id,
          status: 'failed',
          reason: message,
        })
      }
    })

    it('pass on an orderHash other than the hash asked for while the other intent answers its own', async () => {
      // The contract never says that the path's {hash} is the status's orderHash.
      const firstOnly = editStatus(
        'first-order-hash-other',
        (intent) => intent.hash === FIRST.hash,
        (status) => (status.orderHash = OTHER_HASH),
      )
      const outcome = await outcomeWithBehaviours(['intents/receipt-grants-status'], [firstOnly])
      expect([outcome.status, outcome.reason]).toEqual(['passed', undefined])
    })

    it("pass when the intent's status names its hash in the other case of hex digit, whatever the other intent answers", async () => {
      // The hash pattern allows either case; the other intent answering the same orderHash is the other check's
      // finding.
      const upper = editStatus(
        'order-hash-upper-case',
        () => true,
        (status) => (status.orderHash = upperHex(FIRST.hash)),
      )
      const outcome = await outcomeWithBehaviours(['intents/receipt-grants-status'], [upper])
      expect([outcome.status, outcome.reason]).toEqual(['passed', undefined])
    })

    it('pass when the other intent is refused, even with a body that carries the same orderHash', async () => {
      const firstOther = editStatus(
        'first-order-hash-other',
        (intent) => intent.hash === FIRST.hash,
        (status) => (status.orderHash = OTHER_HASH),
      )
      const secondRefused: Behaviour = {
        name: 'second-refused-with-order-hash',
        description: 'The second intent is answered 404 with an error body that also carries an orderHash.',
        onResponse(response, request, data) {
          if (askedIntent(request, data)?.hash !== SECOND.hash) return
          response.status = 404
          response.body = {
            error: 'not found',
            code: 'intent_not_found',
            requestId: response.headers['x-request-id'],
            orderHash: OTHER_HASH,
          }
        },
      }
      const outcome = await outcomeWithBehaviours(['intents/receipt-grants-status'], [firstOther, secondRefused])
      expect([outcome.status, outcome.reason]).toEqual(['passed', undefined])
    })

    it('pass when the second intent given is the first in the other case of hex digit', async () => {
      const same = editStatus(
        'every-intent-one-order-hash',
        () => true,
        (status) => (status.orderHash = OTHER_HASH),
      )
      const outcome = await outcomeWithBehaviours(['intents/receipt-grants-status'], [same], {
        intent: first,
        secondIntent: { hash: upperHex(FIRST.hash), receipt: FIRST.receipt },
      })
      expect([outcome.status, outcome.reason]).toEqual(['passed', undefined])
    })
  })

  describe('intents/refusals-declared-4xx', () => {
    const id = 'intents/refusals-declared-4xx'
    const declared = '(one of 401, 403, 404, 422)'
    /** 500 for the intent request whose receipt is the one given, on a well-formed hash. */
    const crashOn = (receipt: (request: RefRequest) => boolean) =>
      answerWith('receipt-crashes', 500, (request) => HASH.test(request.route!.params.hash!) && receipt(request))

    it('sends each refusal it names', async () => {
      const cases: [string, (request: RefRequest) => boolean][] = [
        ['the intent without a receipt', (request) => !request.query.has('receipt')],
        ['the intent with an empty receipt', (request) => request.query.get('receipt') === ''],
        [
          'the intent with its receipt padded to 513 characters',
          (request) => request.query.get('receipt')?.length === 513,
        ],
        [
          'the intent with a wrong receipt',
          (request) => request.query.get('receipt')?.startsWith('not-the-receipt.') === true,
        ],
        [
          "the first intent with the second intent's receipt",
          (request) => request.query.get('receipt') === SECOND.receipt,
        ],
      ]
      for (const [what, when] of cases) {
        const outcome = await outcomeWithBehaviours([id], [crashOn(when)])
        expect({ what, status: outcome.status, reason: outcome.reason }).toEqual({
          what,
          status: 'failed',
          reason: `${what} answered 500, not a declared 4xx ${declared}`,
        })
      }
    })

    it('leaves which refusal to it: each refusal check takes a 500 as no access granted, and passes', async () => {
      const refusalChecks = [
        'intents/malformed-hash-refused',
        'intents/missing-receipt-refused',
        'intents/empty-receipt-refused',
        'intents/oversized-receipt-refused',
        'intents/wrong-receipt-refused',
        'intents/receipt-bound-to-intent',
      ] as const
      const probes = answerWith('probes-crash', 500, (request) => request.query.get('receipt') !== FIRST.receipt)
      const malformed = answerWith('malformed-crash', 500, (request) => !HASH.test(request.route!.params.hash!))
      for (const check of refusalChecks) {
        const outcome = await outcomeWithBehaviours([check], [probes, malformed])
        expect({ check, status: outcome.status, reason: outcome.reason }).toEqual({
          check,
          status: 'passed',
          reason: undefined,
        })
      }
    })

    it('sends no probe the configured intents do not allow (the real receipt on the real hash is never a refusal probe)', async () => {
      const realReceipt = (receipt: string) => crashOn((request) => request.query.get('receipt') === receipt)
      const given: [string, Partial<RunSettings>][] = [
        ['a receipt that is the filler', { intent: { hash: FIRST.hash, receipt: 'not-the-receipt.' } }],
        [
          'a second intent of the same receipt',
          { intent: first, secondIntent: { hash: SECOND.hash, receipt: FIRST.receipt } },
        ],
      ]
      for (const [what, settings] of given) {
        const outcome = await outcomeWithBehaviours([id], [realReceipt(settings.intent!.receipt)], settings)
        expect({ what, status: outcome.status, reason: outcome.reason }).toEqual({
          what,
          status: 'passed',
          reason: undefined,
        })
      }
      // A second intent of the same hash in the other case: its receipt on the first intent is no refusal probe.
      const sameHash = { intent: first, secondIntent: { hash: upperHex(FIRST.hash), receipt: SECOND.receipt } }
      const outcome = await outcomeWithBehaviours(
        [id],
        [crashOn((request) => request.query.get('receipt') === SECOND.receipt)],
        sameHash,
      )
      expect([outcome.status, outcome.reason]).toEqual(['passed', undefined])
    })

    it('a receipt of 512 characters is padded to 513', async () => {
      const outcome = await outcomeWithBehaviours(
        [id],
        [crashOn((request) => request.query.get('receipt')?.length === 513)],
        { intent: { hash: FIRST.hash, receipt: RECEIPT_512 } },
      )
      expect([outcome.status, outcome.reason]).toEqual([
        'failed',
        `the intent with its receipt padded to 513 characters answered 500, not a declared 4xx ${declared}`,
      ])
    })

    it('leaves grants of access (200 to 299) and 429s to other checks', async () => {
      const grants = [
        answerWith('no-receipt-299', 299, (request) => !request.query.has('receipt')),
        answerWith('empty-receipt-200', 200, (request) => request.query.get('receipt') === ''),
        answerWith(
          'wrong-receipt-429',
          429,
          (request) => request.query.get('receipt')?.startsWith('not-the-receipt.') === true,
          { 'retry-after': '1' },
        ),
      ]
      const outcome = await outcomeWithBehaviours([id], grants)
      expect([outcome.status, outcome.reason]).toEqual(['passed', undefined])
    })

    it('is skipped when every request is granted', async () => {
      const outcome = await outcomeWithBehaviours([id], [answerWith('everything-granted', 200, () => true)])
      expect([outcome.status, outcome.reason]).toEqual([
        'skipped',
        'no request was refused: a grant of access is the finding of the intents/ refusal checks, and a 429 says nothing of the refusal',
      ])
    })
  })

  describe('intents/failure-not-retryable', () => {
    const id = 'intents/failure-not-retryable'

    it('is skipped when no intent reports a failure', async () => {
      const outcome = await outcomeWithBehaviours(
        [id],
        [
          editStatus(
            'no-failure',
            () => true,
            (status) => delete status.failure,
          ),
        ],
      )
      expect([outcome.status, outcome.reason]).toEqual(['skipped', 'no intent given reports a failure'])
    })

    it('fails on a failure of null, which has no retryable false', async () => {
      const outcome = await outcomeWithBehaviours(
        [id],
        [
          editStatus(
            'failure-null',
            (intent) => intent.hash === FIRST.hash,
            (status) => (status.failure = null),
          ),
        ],
      )
      expect([outcome.status, outcome.reason]).toEqual(['failed', 'failure.retryable is undefined, expected false'])
    })

    it('reads the failure of a 200 only', async () => {
      const refusedWithFailure = answerWith('refused-with-failure', 404, () => true)
      const withFailure: Behaviour = {
        ...refusedWithFailure,
        onResponse(response, request, data) {
          refusedWithFailure.onResponse!(response, request, data)
          if (isIntentRequest(request)) (response.body as Record<string, unknown>).failure = { retryable: true }
        },
      }
      const outcome = await outcomeWithBehaviours([id], [withFailure])
      expect([outcome.status, outcome.reason]).toEqual(['skipped', 'no intent given reports a failure'])
    })
  })
})
