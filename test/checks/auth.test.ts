import { describe, expect, test } from 'vitest'
import type { CheckId } from '../../src/contract/catalogue-ids.js'
import { authChecks } from '../../src/checks/auth.js'
import type { CheckOutcome } from '../../src/core/report.js'
import type { Behaviour, RefRequest, RefResponse } from '../../src/reference/types.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'
import { outcomeWithBehaviours, outcomeWithInputs, TEST_RETRY_POLICY } from '../support/run.js'
import { answering, rateLimited, setStatus, unreadable } from '../support/scripted-answers.js'

const QUERY_KEY_NAMES = ['api_key', 'apiKey', 'x-api-key', 'key']

const keyless = (request: RefRequest) => request.headers['x-api-key'] === undefined
const withQueryKey = (request: RefRequest) => QUERY_KEY_NAMES.some((name) => request.query.has(name))
const firstPage = (request: RefRequest) => !request.query.has('cursor')
const at = (path: string) => (request: RefRequest) => request.path === path
const byRestrictedKey = (request: RefRequest, data: { restrictedApiKey: string }) =>
  request.headers['x-api-key'] === data.restrictedApiKey

/** A behaviour for the restricted key's requests to one path (first pages only). */
function restrictedAnswer(name: string, path: string, edit: (response: RefResponse) => void): Behaviour {
  return {
    name,
    description: `the restricted key's requests to ${path} are answered as the test scripts them`,
    onResponse(response, request, data) {
      if (byRestrictedKey(request, data) && at(path)(request) && firstPage(request)) edit(response)
    },
  }
}

function notCrashed(outcome: CheckOutcome): void {
  expect(outcome.crashed, `the check crashed: ${outcome.reason}`).toBeFalsy()
}

describe('auth/missing-key', () => {
  test('fails on a 403 to a request without X-API-Key, naming the operation', async () => {
    const outcome = await outcomeWithBehaviours(
      ['auth/missing-key'],
      [answering('403-without-key', (r) => keyless(r) && at('/v1/markets')(r), setStatus(403))],
    )
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toMatch(/^not 401 to a request without X-API-Key: listMarkets 403\b/)
  })

  test('fails, without crashing, on no readable response to a request without X-API-Key', async () => {
    const outcome = await outcomeWithBehaviours(
      ['auth/missing-key'],
      [answering('broken-without-key', (r) => keyless(r) && at('/v1/config')(r), unreadable)],
    )
    expect(outcome.status).toBe('failed')
    notCrashed(outcome)
    expect(outcome.reason).toMatch(/^not 401 to a request without X-API-Key: getConfig no response \(.+\)/)
  })
})

describe('auth/missing-key and auth/unknown-key without a full key', () => {
  // Without the full key no cursor page can be fetched: the first pages alone are asked, and the reference refuses
  // each.
  test.each<CheckId>(['auth/missing-key', 'auth/unknown-key'])('%s passes on the first pages alone', async (id) => {
    const outcome = await outcomeWithInputs(id, () => ({}))
    expect(outcome.status, outcome.reason).toBe('passed')
  })
})

describe('auth/missing-key judged on any exchange of a run (its recorded judgement)', () => {
  const judgement = authChecks.find((c) => c.id === 'auth/missing-key')!.recorded!
  // The judgement reads no settings.
  const settings = {} as Parameters<typeof judgement.applies>[2]
  const judged = (status: number, headers: Record<string, string> = {}, operation: { operation?: string } = {}) => {
    const response = responseOf(status)
    const exchange = exchangeOf(response, { ...operation, headers: { accept: 'application/json', ...headers } })
    return judgement.applies(response, exchange, settings)
      ? (judgement.violation(response, exchange, settings) ?? 'conforms')
      : 'not judged'
  }

  test('a keyless request answered other than 401 is a violation, and a 401 conforms', () => {
    expect(judged(200)).toBe('answered 200 to a request without X-API-Key, expected 401')
    expect(judged(499)).toBe('answered 499 to a request without X-API-Key, expected 401')
    expect(judged(401)).toBe('conforms')
  })

  test('a 429 says nothing of authentication; a 500 (one that repeated, in a run) is an answer', () => {
    expect(judged(429)).toBe('not judged')
    expect(judged(500)).toBe('answered 500 to a request without X-API-Key, expected 401')
  })

  test('judges the answer: the engine leaves out a transient 502, 503 or 504 and an attempt the client sent again (test/runs/server-errors.test.ts)', () => {
    expect(judgement.judgesAnswer).toBe(true)
  })

  test('a request with a key, or to no operation, is not judged', () => {
    expect(judged(200, { 'x-api-key': 'some-key' })).toBe('not judged')
    expect(judged(200, {}, { operation: undefined })).toBe('not judged')
  })

  test("a request with a cursor (another key's) may be refused for it first: any 4xx conforms, a page served does not", () => {
    const withCursor = (
      status: number,
      settings: Parameters<typeof judgement.applies>[2] = {},
      url = 'http://127.0.0.1:9/v1/markets?cursor=abc',
    ) => {
      const response = responseOf(status)
      const exchange = exchangeOf(response, { url, headers: { accept: 'application/json' } })
      return judgement.violation(response, exchange, settings) ?? 'conforms'
    }
    expect(withCursor(400)).toBe('conforms')
    expect(withCursor(403)).toBe('conforms')
    expect(withCursor(200)).toBe('answered 200 to a request without X-API-Key, expected 401')
    expect(withCursor(302)).toBe('answered 302 to a request without X-API-Key, expected 401')
    // The run's cursor parameter, not a parameter named cursor.
    expect(withCursor(400, { cursorParam: 'after' })).toBe('answered 400 to a request without X-API-Key, expected 401')
    expect(withCursor(400, { cursorParam: 'after' }, 'http://127.0.0.1:9/v1/markets?after=abc')).toBe('conforms')
  })

  test('a request with an invalid X-Request-ID may be refused for that first; one with a valid ID may not', () => {
    expect(judged(400, { 'x-request-id': 'bad id!' })).toBe('not judged')
    expect(judged(400, { 'x-request-id': 'valid-id-0001' })).toBe(
      'answered 400 to a request without X-API-Key, expected 401',
    )
  })
})

/**
 * Lists refuse a cursor presented with a key other than the one it was issued to (none included), with the given
 * status.
 */
function cursorsBoundToKeys(status: number): Behaviour {
  const issuedTo = new Map<string, Set<string | undefined>>()
  return {
    name: `cursor-of-another-key-${status}`,
    description: `a cursor presented with another key than its own is answered ${status}`,
    onResponse(response, request) {
      const sent = request.query.get('cursor')
      if (sent !== null && !issuedTo.get(sent)?.has(request.headers['x-api-key']) && response.status < 500) {
        Object.assign(response, {
          status,
          body: { error: 'cursor of another key', requestId: response.headers['x-request-id'] },
        })
        return
      }
      const cursor = (response.body as { cursor?: unknown } | undefined)?.cursor
      // The reference's cursors name their page, not their key: each key given one may use it.
      if (typeof cursor === 'string')
        issuedTo.set(cursor, (issuedTo.get(cursor) ?? new Set()).add(request.headers['x-api-key']))
    },
  }
}

describe('cursor pages with a cursor of another key', () => {
  test.each([400, 404, 422])('auth/missing-key and auth/unknown-key take a %s to it as a refusal', async (status) => {
    for (const id of ['auth/missing-key', 'auth/unknown-key'] as const) {
      const outcome = await outcomeWithBehaviours([id], [cursorsBoundToKeys(status)])
      expect(outcome.status, `${id}: ${outcome.reason}`).toBe('passed')
    }
  })

  test("auth/restricted-key-scope sends the restricted key its own cursor where it is given one, and takes any refusal of the full key's", async () => {
    const seen: string[] = []
    const record: Behaviour = {
      name: 'record-restricted-cursor-pages',
      description: "records the restricted key's cursor pages and their answers",
      onResponse(response, request, data) {
        if (byRestrictedKey(request, data) && request.query.has('cursor'))
          seen.push(`${request.path} ${response.status}`)
      },
    }
    const outcome = await outcomeWithBehaviours(['auth/restricted-key-scope'], [cursorsBoundToKeys(422), record])
    expect(outcome.status, outcome.reason).toBe('passed')
    // The markets with a cursor it was given itself, served; the balances, whose first page it is refused, with the
    // full key's, refused.
    expect(seen.sort()).toEqual([
      '/v1/markets 200',
      expect.stringMatching(/^\/v1\/traders\/0x[0-9a-f]{40}\/balances 422$/),
    ])
  })
})

/** The behaviour for every intent path under the given prefix (restrictedAnswer matches one path exactly). */
const intentPaths = (behaviour: Behaviour): Behaviour => ({
  ...behaviour,
  onResponse(response, request, data) {
    if (byRestrictedKey(request, data) && request.path.startsWith('/v1/intents/'))
      behaviour.onResponse!(response, { ...request, path: '/v1/intents/' }, data)
  },
})

describe('auth/restricted-key-scope', () => {
  const scope = 'auth/restricted-key-scope'

  test('passes when the configuration grants the restricted key with a 2xx other than 200 (201, and 299 at the edge)', async () => {
    for (const status of [201, 299]) {
      const outcome = await outcomeWithBehaviours(
        [scope],
        [restrictedAnswer(`config-${status}`, '/v1/config', setStatus(status))],
      )
      expect(outcome.status, `${status}: ${outcome.reason}`).toBe('passed')
    }
  })

  test('fails when another operation answers the restricted key 201', async () => {
    const outcome = await outcomeWithBehaviours(
      [scope],
      [restrictedAnswer('markets-201', '/v1/markets', setStatus(201))],
    )
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toBe('the restricted key got neither 200 (a 2xx for config) nor 403: listMarkets 201')
  })

  test('fails when the configuration answers the restricted key 300', async () => {
    const outcome = await outcomeWithBehaviours([scope], [restrictedAnswer('config-300', '/v1/config', setStatus(300))])
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toBe('the restricted key got neither 200 (a 2xx for config) nor 403: getConfig 300')
  })

  test('fails, without crashing, on no readable response to the restricted key', async () => {
    const outcome = await outcomeWithBehaviours(
      [scope],
      [restrictedAnswer('markets-broken', '/v1/markets', unreadable)],
    )
    expect(outcome.status).toBe('failed')
    notCrashed(outcome)
    expect(outcome.reason).toMatch(
      /^the restricted key got neither 200 \(a 2xx for config\) nor 403: listMarkets no response \(.+\)$/,
    )
  })

  test("says nothing of a 404 or 422 to the intent's receipt, given for the API key's intent (a receipt may be bound to its key); a 401 still fails", async () => {
    for (const status of [404, 422]) {
      const outcome = await outcomeWithBehaviours(
        [scope],
        [restrictedAnswer(`intent-${status}`, '/v1/intents/', setStatus(status))].map(intentPaths),
      )
      expect(outcome.status, `${status}: ${outcome.reason}`).toBe('passed')
    }
    const outcome = await outcomeWithBehaviours(
      [scope],
      [intentPaths(restrictedAnswer('intent-401', '/v1/intents/', setStatus(401)))],
    )
    expect(outcome.reason).toBe('the restricted key got neither 200 (a 2xx for config) nor 403: getIntentStatus 401')
  })

  test("fails when a cursor page the restricted key's own cursor asks for answers neither 200 nor 403", async () => {
    const ownCursorPage: Behaviour = {
      name: 'restricted-cursor-page-201',
      description: "the restricted key's cursor pages of the markets are answered 201",
      onResponse(response, request, data) {
        if (byRestrictedKey(request, data) && at('/v1/markets')(request) && !firstPage(request))
          setStatus(201)(response)
      },
    }
    const outcome = await outcomeWithBehaviours([scope], [ownCursorPage])
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toBe('the restricted key got neither 200 (a 2xx for config) nor 403: listMarkets 201')
  })

  test('says nothing of a 429 (the contract allows it for any read)', async () => {
    // Retried once, not until the client gives up: each attempt waits out its Retry-After.
    const outcome = await outcomeWithBehaviours(
      [scope],
      [restrictedAnswer('markets-429', '/v1/markets', rateLimited)],
      {},
      { retryPolicy: { ...TEST_RETRY_POLICY, maxAttempts: 2 } },
    )
    expect(outcome.status, outcome.reason).toBe('passed')
  })

  test('fails on a 500 that repeats on the retry: the operation failed to serve the key', async () => {
    const outcome = await outcomeWithBehaviours([scope], [restrictedAnswer('config-500', '/v1/config', setStatus(500))])
    expect(outcome.status, outcome.reason).toBe('failed')
    expect(outcome.reason).toBe('the restricted key got neither 200 (a 2xx for config) nor 403: getConfig 500')
  })
})

describe('auth/query-key-not-accepted', () => {
  const query = 'auth/query-key-not-accepted'

  test.each(QUERY_KEY_NAMES)('fails a server that takes the key as ?%s= alone', async (name) => {
    const outcome = await outcomeWithBehaviours(
      [query],
      [
        {
          name: `key-in-query-${name}`,
          description: `a key in the query as ${name} authenticates`,
          onRequest(request) {
            const fromQuery = request.query.get(name)
            if (keyless(request) && fromQuery !== null) request.headers['x-api-key'] = fromQuery
          },
        },
      ],
    )
    expect(outcome.status, outcome.reason).toBe('failed')
    expect(outcome.reason).toContain(`?${name}=`)
  })

  test('does not judge an operation that answers requests without a key', async () => {
    const outcome = await outcomeWithBehaviours(
      [query],
      [
        {
          name: 'public-markets',
          description: 'the markets are served without a key',
          onRequest: (request, data) =>
            void (keyless(request) && at('/v1/markets')(request) && (request.headers['x-api-key'] = data.apiKey)),
        },
      ],
    )
    expect(outcome.status, outcome.reason).toBe('passed')
  })

  test('is skipped when no operation refuses a request without a key', async () => {
    const outcome = await outcomeWithBehaviours(
      [query],
      [
        {
          name: 'all-public',
          description: 'every operation is served without a key',
          onRequest: (request, data) => void (keyless(request) && (request.headers['x-api-key'] = data.apiKey)),
        },
      ],
    )
    expect(outcome.status).toBe('skipped')
    expect(outcome.reason).toBe(
      'no operation refused a request without X-API-Key, so a key in the query string cannot be told apart',
    )
  })

  test('does not judge, nor crash on, an operation whose keyless answer is unreadable', async () => {
    const outcome = await outcomeWithBehaviours(
      [query],
      [answering('broken-without-key', (r) => keyless(r) && !withQueryKey(r) && at('/v1/markets')(r), unreadable)],
    )
    notCrashed(outcome)
    expect(outcome.status, outcome.reason).toBe('passed')
  })

  test('takes a 429 to a key in the query as an answer, without waiting it out', async () => {
    const outcome = await outcomeWithBehaviours(
      [query],
      [answering('query-key-429', (r) => keyless(r) && withQueryKey(r), rateLimited)],
    )
    expect(outcome.status, outcome.reason).toBe('passed')
    expect(outcome.retried, 'a request with a key in the query was retried').toBeUndefined()
  })
})

describe('auth/unknown-key', () => {
  test('sends one key of its own, neither given key nor empty, and fails on a 200 to it, naming the operation', async () => {
    const keys = new Set<string | undefined>()
    const givenKeys = new Set<string>()
    const outcome = await outcomeWithBehaviours(
      ['auth/unknown-key'],
      [
        answering(
          'unknown-key-served',
          (r, data) => {
            keys.add(r.headers['x-api-key'])
            givenKeys.add(data.apiKey).add(data.restrictedApiKey)
            return at('/v1/markets')(r) && firstPage(r)
          },
          setStatus(200),
        ),
      ],
    )
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toMatch(/listMarkets 200\b/)
    // The full key's requests are those for the cursors of the cursor pages; every other request carries the one key.
    const others = [...keys].filter((key) => !givenKeys.has(key!) && key !== undefined)
    expect(others, 'the keys sent besides the given ones').toEqual([expect.stringMatching(/^\S{8,}$/)])
  })
})
