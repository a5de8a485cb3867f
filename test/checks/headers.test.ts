import { describe, expect, test } from 'vitest'
import { headersChecks } from '../../src/checks/headers.js'
import { STAND_IN } from '../../src/checks/operation-calls.js'
import type { CheckOutcome } from '../../src/core/report.js'
import type { Behaviour, RefRequest, RefResponse } from '../../src/reference/types.js'
import { expectEveryCheckPasses, outcomeWithBehaviours, runAgainstReference } from '../support/run.js'
import { scriptedContext } from '../support/check-context.js'
import { responseOf } from '../support/hand-made.js'
import { answering, rateLimited, setStatus, unreadable } from '../support/scripted-answers.js'

const OPTIONAL = 'headers/optional-request-headers'
const WITHOUT_ACCEPT = 'headers/request-without-accept-served'
const CONTENT_TYPE = 'headers/content-type-json'

const markets = (request: RefRequest) => request.path === '/v1/markets'
const cursorPage = (request: RefRequest) => request.query.has('cursor')
const withShortId = (request: RefRequest) => request.headers['x-request-id'] === 'ipts.rid'
const plainFirstPage = (request: RefRequest) =>
  markets(request) &&
  !cursorPage(request) &&
  request.headers['x-request-id'] === undefined &&
  request.headers.accept !== undefined

const textPlain = (response: RefResponse) => {
  response.headers['content-type'] = 'text/plain'
}

function passedWithoutCrash(outcome: CheckOutcome): void {
  expect(outcome.crashed, `the check crashed: ${outcome.reason}`).toBeFalsy()
  expect(outcome.status, outcome.reason).toBe('passed')
}

describe('headers/optional-request-headers and headers/request-without-accept-served', () => {
  test('fail when a cursor page answers a valid X-Request-ID with a 400, naming the cursor page', async () => {
    const outcome = await outcomeWithBehaviours(
      [OPTIONAL],
      [answering('cursor-page-refuses-id', (r) => markets(r) && cursorPage(r) && withShortId(r), setStatus(400))],
    )
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toBe(
      'a cursor page of listMarkets answered 200 as the suite sends it and 400 with the valid X-Request-ID "ipts.rid"',
    )
  })

  test.each([
    ['shorter than 9 characters', (id: string) => id.length < 9, 'failed'],
    ['longer than 127 characters', (id: string) => id.length > 127, 'failed'],
    ['longer than 128 characters', (id: string) => id.length > 128, 'passed'],
    ['shorter than 8 characters', (id: string) => id.length < 8, 'passed'],
  ])('a server refusing an X-Request-ID %s: %s (the IDs sent are of 8 and of 128)', async (_, refuses, expected) => {
    const outcome = await outcomeWithBehaviours(
      [OPTIONAL],
      [
        answering(
          'refuses-id-length',
          (r) => r.headers['x-request-id'] !== undefined && refuses(r.headers['x-request-id']),
          setStatus(400),
        ),
      ],
    )
    expect(outcome.status, outcome.reason).toBe(expected)
  })

  test('judge a plain answer of 500 that repeats on the retry as an outcome: a variant answered 200 changed it', async () => {
    const outcome = await outcomeWithBehaviours([OPTIONAL], [answering('plain-500', plainFirstPage, setStatus(500))])
    expect(outcome.status, outcome.reason).toBe('failed')
    expect(outcome.reason).toBe(
      'GET /v1/markets answered 500 as the suite sends it and 200 with the valid X-Request-ID "ipts.rid"',
    )
  })

  test('are not assessed when the plain answer is a 503 on every attempt (a transient failure says nothing of a header)', async () => {
    const outcome = await outcomeWithBehaviours([OPTIONAL], [answering('plain-503', plainFirstPage, setStatus(503))])
    expect(outcome.status, outcome.reason).toBe('not run')
    expect(outcome.reason).toMatch(/^not assessed: the target answered 503 to \d+ attempts of GET \/v1\/markets, /)
  })

  test('say nothing of a request whose plain answer is a 429', async () => {
    // Retry-After 61 s is longer than the client waits, so the 429 is the answer; its variants, sent at the same time,
    // get 200.
    const refused = answering('plain-429', plainFirstPage, (response) => {
      rateLimited(response)
      response.headers['retry-after'] = '61'
    })
    passedWithoutCrash(await outcomeWithBehaviours([OPTIONAL], [refused]))
  })

  test('are skipped when no plain answer shows an outcome: every request answered 429', async () => {
    const everyRequest = answering(
      'all-429',
      (request) => request.path.startsWith('/v1/'),
      (response) => {
        rateLimited(response)
        response.headers['retry-after'] = '61'
      },
    )
    for (const id of [OPTIONAL, WITHOUT_ACCEPT] as const) {
      const outcome = await outcomeWithBehaviours([id], [everyRequest])
      expect(outcome.status, `${id}: ${outcome.reason}`).toBe('skipped')
      expect(outcome.reason).toMatch(/^no request, as the suite sends it, got an answer that shows its outcome \(/)
    }
  })

  test('pass when a single request shows its outcome, and skip when none does (answers made by hand)', async () => {
    // Without a trader or an intent: the vault, the markets, the configuration and the markets' cursor page.
    for (const id of [OPTIONAL, WITHOUT_ACCEPT] as const) {
      const check = headersChecks.find((c) => c.id === id)!
      const vaultServed = scriptedContext({}, ({ operation }) => responseOf(operation === 'getVault' ? 200 : 429))
      await expect(check.run(vaultServed.ctx), id).resolves.toBeUndefined()
      const noneServed = scriptedContext({}, () => responseOf(429))
      await expect(check.run(noneServed.ctx), id).rejects.toMatchObject({ name: 'CheckSkipped' })
    }
  })

  test('say nothing of a request whose plain answer is unreadable', async () => {
    passedWithoutCrash(
      await outcomeWithBehaviours([WITHOUT_ACCEPT], [answering('plain-broken', plainFirstPage, unreadable)]),
    )
  })

  test('fail on a variant answered 500 on the retry too; say nothing of a variant that is unreadable', async () => {
    const outcome = await outcomeWithBehaviours(
      [OPTIONAL],
      [answering('varied-500', (r) => markets(r) && withShortId(r), setStatus(500))],
    )
    expect(outcome.status, outcome.reason).toBe('failed')
    expect(
      outcome.evidence?.retries?.map((r) => r.status),
      'the first 500 is in the evidence',
    ).toEqual([500])
    passedWithoutCrash(
      await outcomeWithBehaviours(
        [WITHOUT_ACCEPT],
        [answering('varied-broken', (r) => markets(r) && r.headers.accept === undefined, unreadable)],
      ),
    )
  })

  test('share each plain read with the run: both send each read once, plain or in a variant', async () => {
    const sent = new Map<string, number>()
    const counter: Behaviour = {
      name: 'read-counter',
      description: 'Counts the reads of every operation but the lists, by path, query and variant.',
      onResponse(_, request) {
        const operation = request.route?.operation
        // The preflight's probes send no Accept-Encoding. A list's first page is asked afresh for each cursor page.
        if (request.headers['accept-encoding'] === undefined || !operation || operation.startsWith('list')) return
        const variant =
          request.headers['x-request-id'] ?? (request.headers.accept === undefined ? 'without Accept' : 'plain')
        const key = `${request.path}?${request.query.toString()} ${variant}`
        sent.set(key, (sent.get(key) ?? 0) + 1)
      },
    }
    const report = await runAgainstReference({ behaviours: [counter] }, {}, { only: [OPTIONAL, WITHOUT_ACCEPT] })
    const judged = report.checks.filter(({ id }) => id === OPTIONAL || id === WITHOUT_ACCEPT)
    expect(judged.map(({ id, status }) => [id, status])).toEqual([
      [OPTIONAL, 'passed'],
      [WITHOUT_ACCEPT, 'passed'],
    ])
    // The vault, the configuration, a trader's PnL and an intent, each plain and in three variants.
    expect(sent.size).toBe(16)
    expect([...sent].filter(([, count]) => count !== 1)).toEqual([])
  })

  test('leave out a list that gives no cursor', async () => {
    const noCursor = answering(
      'markets-without-cursor',
      (r) => markets(r) && !cursorPage(r),
      (response) => {
        if (response.status === 200 && typeof response.body === 'object' && response.body !== null)
          (response.body as Record<string, unknown>).cursor = null
      },
    )
    passedWithoutCrash(await outcomeWithBehaviours([OPTIONAL], [noCursor]))
  })
})

describe('headers/content-type-json', () => {
  test('fails on a 401 without a JSON content type, naming its path and status', async () => {
    const outcome = await outcomeWithBehaviours(
      [CONTENT_TYPE],
      [answering('401-text-plain', (r) => markets(r) && r.headers['x-api-key'] === undefined, textPlain)],
    )
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toMatch(/^\/v1\/markets \(401\): /)
  })

  test('fails on an unknown trader’s answer without a JSON content type, naming its path', async () => {
    const outcome = await outcomeWithBehaviours(
      [CONTENT_TYPE],
      [answering('pnl-text-plain', (r) => r.path.includes(STAND_IN.address), textPlain)],
    )
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toMatch(new RegExp(`^/v1/traders/${STAND_IN.address}/pnl \\(\\d+\\): `))
  })

  test('fails, without crashing, when the 401 is unreadable', async () => {
    const outcome = await outcomeWithBehaviours(
      [CONTENT_TYPE],
      [answering('401-broken', (r) => markets(r) && r.headers['x-api-key'] === undefined, unreadable)],
    )
    expect(outcome.crashed, outcome.reason).toBeFalsy()
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toMatch(/^\/v1\/markets got no response \(.+\)$/)
    expect(outcome.reason).not.toMatch(/undefined/)
  })
})

describe('headers checks against the reference as it is', () => {
  test('every headers check passes, none skipped', async () => {
    await expectEveryCheckPasses('headers')
  })
})
