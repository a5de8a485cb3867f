import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { ListWalk } from '../../src/checks/relations.js'
import type { RunSettings } from '../../src/core/settings.js'
import type { HttpClient, OutgoingRequest } from '../../src/http/client.js'
import type { Exchange, ExchangeResponse } from '../../src/http/exchange.js'
import { ObservationTally } from '../../src/engine/judged-outcomes.js'
import type { Judge } from '../../src/engine/judges.js'
import type { Observations } from '../../src/engine/observations.js'
import { RelationTally } from '../../src/engine/relations.js'
import {
  resample,
  roundOfSenders,
  type ResampleEnvironment,
  type ResampleOptions,
  type RoundProgress,
} from '../../src/engine/resample.js'
import type { ResponsesSeen } from '../../src/engine/responses-seen.js'
import type { Profile } from '../../src/profile/profile.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'

/** One request a round's client sent: the round is the client's number (each round reads on a client of its own). */
interface SentRead {
  round: number
  path: string
  headers: Record<string, string>
  at: number
}

type Answer = ExchangeResponse | Exchange | undefined

/** The markets a plain deployment lists: two pages, each with the same checkpoint. */
const MARKET_PAGES: Record<string, Answer> = {
  '': responseOf(200, {}, { data: [{ id: 'm1' }, { id: 'm2' }], cursor: 'c2', checkpoint: 'cp1' }),
  c2: responseOf(200, {}, { data: [{ id: 'm3' }], cursor: null, checkpoint: 'cp1' }),
}

/** The page of the markets a cursor asks for (the first page without one), from these pages. */
const marketsFrom = (pages: Record<string, Answer>) => (sent: SentRead) =>
  pages[new URL(sent.path, 'http://deployment').searchParams.get('cursor') ?? '']

/** A deployment made by hand: each GET answered by what `answer` makes of it, every new client a round's. */
class HandDeployment {
  readonly sent: SentRead[] = []
  closes = 0
  private clients = 0

  constructor(private readonly answer: (sent: SentRead) => Answer) {}

  readonly newClient = (): HttpClient => {
    const round = ++this.clients
    const client = {
      get: async (request: OutgoingRequest): Promise<Exchange> => {
        const sent = { round, path: request.path, headers: request.headers ?? {}, at: Date.now() }
        this.sent.push(sent)
        const made = this.answer(sent)
        const url = `http://127.0.0.1:9${request.path}`
        const exchange =
          made && 'request' in made
            ? { ...made, request: { ...made.request, url, headers: sent.headers } }
            : exchangeOf(made, { url, headers: sent.headers, operation: request.operation })
        return { ...exchange, startedAt: new Date(sent.at).toISOString() }
      },
      close: async () => {
        this.closes++
      },
    }
    return client as unknown as HttpClient
  }

  /** The paths sent, in order, by round. */
  paths(round?: number): string[] {
    return this.sent.filter((sent) => round === undefined || sent.round === round).map((sent) => sent.path)
  }
}

/** Answers the plain read set of a run with the full key alone: config, vault and the markets' two pages. */
function plainAnswers(sent: SentRead): Answer {
  if (sent.path.startsWith('/v1/markets')) return marketsFrom(MARKET_PAGES)(sent)
  return responseOf(200, {}, { data: {} })
}

/** Judges that a response is no 500: the one judge of these rounds, so that each violation is one the test made. */
const no500: Judge = {
  id: 'unit/no-500',
  requirement: 'ERR-UNEXPECTED-FAILURE',
  title: 'no response is a 500',
  notApplicable: 'no response',
  concern: 'unit',
  applies: () => true,
  violation: (response) => (response.status === 500 ? 'answered 500' : undefined),
}

const SETTINGS = { apiKey: 'full-key', cursorParam: 'cursor', limitParam: 'limit', maxPages: 10 }

/** The rounds' environment over a deployment, with what they show the tallies recorded. */
function environmentOf(deployment: HandDeployment, settings: Partial<RunSettings> = {}) {
  const tally = new ObservationTally()
  const relations = new RelationTally(() => [])
  const responses: ResponsesSeen = {}
  const env: ResampleEnvironment = {
    settings: { ...SETTINGS, ...settings } as RunSettings,
    newClient: deployment.newClient,
    secrets: () => [],
    judges: [no500],
    tally,
    relations,
    responses,
  }
  const added = vi.spyOn(tally, 'add')
  const walked = vi.spyOn(relations, 'walk')
  return {
    env,
    /** The observations of each exchange, in the order they were judged. */
    observations: () => added.mock.calls.map(([observations]) => observations as Observations),
    /** Each walk shown to the relations, with its round and sender. */
    walks: () => walked.mock.calls.map(([walk, time, sentBy]) => ({ walk, round: time.round, sentBy })),
  }
}

/** Runs the rounds with a progress callback; the progress of each round, and what they came to. */
async function resampled(env: ResampleEnvironment, options: ResampleOptions = {}) {
  const progress: RoundProgress[] = []
  const done = await resample(env, { ...options, onRound: (round) => progress.push(round) })
  return { done, progress }
}

/** What a walk shows, but its first exchange. */
const walkShown = ({ first, ...shown }: ListWalk) => {
  expect(first.operation, 'the first page is the evidence').toBe(shown.operation)
  return shown
}

const WHOLE_WALK = {
  operation: 'listMarkets',
  resource: 'listMarkets /v1/markets',
  identities: ['m1', 'm2', 'm3'],
  checkpoint: 'cp1',
  complete: true,
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the last sweep', () => {
  test('reads the read set once on one client, unpaced: each read sent, each list walked whole twice', async () => {
    const deployment = new HandDeployment(plainAnswers)
    const { env, walks, observations } = environmentOf(deployment)
    const { done, progress } = await resampled(env)
    expect(deployment.paths()).toEqual([
      '/v1/config',
      '/v1/vault',
      '/v1/markets',
      '/v1/markets?cursor=c2',
      '/v1/markets',
      '/v1/markets?cursor=c2',
    ])
    expect(deployment.sent.every((sent) => sent.round === 1)).toBe(true)
    expect(deployment.closes, 'the round closes its client').toBe(1)
    expect(done).toMatchObject({ kind: 'last sweep', rounds: 1, requests: 6, quotaRefusals: 0 })
    expect('rate' in done, 'a last sweep has no pace').toBe(false)
    expect(done.durationMs).toBeGreaterThanOrEqual(0)
    expect(done.durationMs, 'not paced at the soak rate (2 a second)').toBeLessThan(1500)
    expect(done.timeline).toHaveLength(1)
    expect(done.timeline![0]).toMatchObject({ first: 1, last: 1, requests: 6, violations: 0 })
    expect(done.timeline![0]!.durationMs).toBeLessThan(1500)
    expect(Date.parse(done.timeline![0]!.at)).toBeLessThanOrEqual(Date.now())
    expect(progress).toEqual([
      { round: 1, elapsedMs: done.durationMs, durationMs: undefined, requests: 6, quotaRefusals: 0, findings: 0 },
    ])
    expect(walks().map(({ walk, round, sentBy }) => [walkShown(walk), round, sentBy])).toEqual([
      [WHOLE_WALK, 1, 'last sweep'],
      [WHOLE_WALK, 1, 'last sweep'],
    ])
    expect(observations().map((observed) => observed['unit/no-500']?.applied)).toEqual([1, 1, 1, 1, 1, 1])
    expect(env.responses).toEqual({
      getConfig: { statuses: { '200': 1 }, judged: 1 },
      getVault: { statuses: { '200': 1 }, judged: 1 },
      listMarkets: { statuses: { '200': 4 }, judged: 4 },
    })
  })

  test('counts each attempt that got a status as a request and each 429 as a quota refusal; no response, none', async () => {
    const retried = (status: number, retries: number[]): Exchange => ({
      ...exchangeOf(responseOf(status, {}, { data: {} })),
      retries: retries.map((attempt) => ({ status: attempt, waitedMs: 0 })),
    })
    const unanswered: Exchange = { ...retried(200, [503]), response: undefined, error: { code: 'E', message: 'e' } }
    const deployment = new HandDeployment((sent) => {
      if (sent.path === '/v1/config') return retried(200, [429, 0, 429])
      if (sent.path === '/v1/vault') return unanswered
      return plainAnswers(sent)
    })
    const { env } = environmentOf(deployment)
    const { done } = await resampled(env)
    expect(done.requests, 'config: 429, 429 and 200; vault: 503; four pages').toBe(8)
    expect(done.quotaRefusals).toBe(2)
    expect(done.timeline![0]!.requests).toBe(8)
    expect(env.responses.getVault, 'the 503 attempt, kept without its response, and the read that got none').toEqual({
      statuses: { 'no response': 2 },
      judged: 0,
    })
  })

  test('logs each exchange for the HAR as sent by the last sweep', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-resample-'))
    try {
      const { env } = environmentOf(new HandDeployment(plainAnswers))
      // Without a progress callback, as a run that shows no progress reads.
      await resample({ ...env, exchangeLog: dir }, {})
      const lines = readdirSync(dir).flatMap((file) => readFileSync(join(dir, file), 'utf8').trim().split('\n'))
      const entries = lines.map((line) => JSON.parse(line) as { request: { url: string }; _checks: string[] })
      expect(entries.map((entry) => new URL(entry.request.url).pathname)).toEqual([
        '/v1/config',
        '/v1/vault',
        '/v1/markets',
        '/v1/markets',
        '/v1/markets',
        '/v1/markets',
      ])
      expect(entries.every((entry) => JSON.stringify(entry._checks) === '["last sweep"]')).toBe(true)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('walks a list in the largest page size the profile states, its query sent with every page', async () => {
    const rule = { minPageSize: 1, maxPageSize: 100, outOfRange: 'reject' as const }
    const profile: Profile = { source: 'test', values: { pagination: { listMarkets: rule } } }
    const deployment = new HandDeployment(plainAnswers)
    const { env, walks } = environmentOf(deployment, { profile })
    await resampled(env)
    expect(deployment.paths().slice(4)).toEqual(['/v1/markets?limit=100', '/v1/markets?limit=100&cursor=c2'])
    const [own, largest] = walks().map(({ walk }) => walk)
    expect('pageSize' in own!, "a walk in the list's own size names none").toBe(false)
    expect(walkShown(largest!)).toEqual({ ...WHOLE_WALK, pageSize: '100' })
  })
})

describe("a list's walk", () => {
  const page = (data: unknown, cursor?: unknown, checkpoint?: unknown) =>
    responseOf(200, {}, { data, ...(cursor === undefined ? {} : { cursor }), ...(checkpoint ? { checkpoint } : {}) })
  const FIRST = page([{ id: 'm1' }, { id: 'm2' }], 'c2', 'cp1')
  const ERROR_WITH_DATA = responseOf(500, {}, { data: [{ id: 'm3' }], cursor: null })

  /** The first walk of a last sweep whose markets answer these pages, and the pages it sent. */
  async function firstWalk(pages: Record<string, Answer>, settings: Partial<RunSettings> = {}) {
    const deployment = new HandDeployment((sent) =>
      sent.path.startsWith('/v1/markets') ? marketsFrom(pages)(sent) : plainAnswers(sent),
    )
    const { env, walks } = environmentOf(deployment, settings)
    await resampled(env)
    const pagesSent = deployment.paths().filter((path) => path.startsWith('/v1/markets')).length / 2
    return { walk: walkShown(walks()[0]!.walk), pagesSent }
  }

  test.each<[string, Record<string, Answer>, string[], boolean, number]>([
    [
      'ends whole at a page whose cursor is null',
      { '': FIRST, c2: page([{ id: 'm3' }], null) },
      ['m1', 'm2', 'm3'],
      true,
      2,
    ],
    ['ends whole at a page without a cursor', { '': FIRST, c2: page([{ id: 'm3' }]) }, ['m1', 'm2', 'm3'], true, 2],
    ['stops at a page that is no 200, whatever it holds', { '': FIRST, c2: ERROR_WITH_DATA }, ['m1', 'm2'], false, 2],
    ['stops at a 200 whose data is no array', { '': FIRST, c2: page({ id: 'm3' }, null) }, ['m1', 'm2'], false, 2],
    ['stops at a 200 whose body is no JSON', { '': FIRST, c2: responseOf(200) }, ['m1', 'm2'], false, 2],
    ['stops at a page that got no response', { '': FIRST, c2: undefined }, ['m1', 'm2'], false, 2],
    ['stops at a cursor that is no string', { '': page([{ id: 'm1' }], 2) }, ['m1'], false, 1],
    ['stops at the page before it again: the cursor was not taken', { '': FIRST, c2: FIRST }, ['m1', 'm2'], false, 2],
    ['is shown when its first page is refused: nothing listed', { '': ERROR_WITH_DATA }, [], false, 1],
    [
      'walks on over empty pages: an empty page again is no page repeated',
      { '': page([], 'c2'), c2: page([], 'c3'), c3: page([{ id: 'm1' }], null) },
      ['m1'],
      true,
      3,
    ],
  ])('%s', async (_, pages, identities, complete, pagesSent) => {
    const shown = await firstWalk(pages)
    expect(shown.walk.identities).toEqual(identities)
    expect(shown.walk.complete).toBe(complete)
    expect(shown.pagesSent).toBe(pagesSent)
  })

  test('stops at --max-pages, incomplete', async () => {
    const pages = { '': FIRST, c2: page([{ id: 'm3' }], 'c3'), c3: page([{ id: 'm4' }], null) }
    const shown = await firstWalk(pages, { maxPages: 2 })
    expect(shown.walk).toMatchObject({ identities: ['m1', 'm2', 'm3'], complete: false })
    expect(shown.pagesSent).toBe(2)
  })

  test.each<[string, unknown, unknown, string | undefined]>([
    ['every page the same checkpoint: that one', 'cp1', 'cp1', 'cp1'],
    ['two checkpoints: none', 'cp1', 'cp2', undefined],
    ['a page without one: none', 'cp1', undefined, undefined],
    ['no page with one: none', undefined, undefined, undefined],
  ])('its checkpoint: %s', async (_, first, second, checkpoint) => {
    const shown = await firstWalk({ '': page([{ id: 'm1' }], 'c2', first), c2: page([{ id: 'm2' }], null, second) })
    expect(shown.walk.checkpoint).toBe(checkpoint)
    expect('checkpoint' in shown.walk, 'a walk without one names none').toBe(checkpoint !== undefined)
  })
})

describe('a soak', () => {
  /** A deployment whose config answers 500 and whose vault answers the same x-request-id every time. */
  const faulty = (sent: SentRead): Answer => {
    if (sent.path === '/v1/config') return responseOf(500, {}, { error: 'e' })
    if (sent.path === '/v1/vault') return responseOf(200, { 'x-request-id': 'vault-id' }, { data: {} })
    return plainAnswers(sent)
  }

  test('of no duration reads one turn of its inputs: three rounds, each on a client of its own, at its rate', async () => {
    const deployment = new HandDeployment(faulty)
    const { env, observations } = environmentOf(deployment)
    const { done, progress } = await resampled(env, { durationMs: 0, rate: 1000 })
    expect(done).toMatchObject({ kind: 'soak', rounds: 3, requests: 14, quotaRefusals: 0, rate: 1000 })
    expect(done.durationMs, 'at 1000 a second, not at the default 2').toBeLessThan(2000)
    expect(deployment.sent.map((sent) => sent.round)).toEqual([1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3])
    expect(deployment.closes).toBe(3)
    // Round 1: the config's 500; each later round the 500 and the vault's x-request-id again (a relation).
    expect(done.timeline!.map(({ first, last, requests, violations }) => [first, last, requests, violations])).toEqual([
      [1, 1, 6, 1],
      [2, 2, 4, 2],
      [3, 3, 4, 2],
    ])
    for (const span of done.timeline!) expect(span.durationMs).toBeLessThan(2000)
    expect(
      progress.map(({ round, requests, findings, durationMs }) => [round, requests, findings, durationMs]),
    ).toEqual([
      [1, 6, 1, 0],
      [2, 10, 2, 0],
      [3, 14, 2, 0],
    ])
    const evidence = observations().flatMap((observed) => observed['unit/no-500']?.violations ?? [])
    expect(evidence.map(({ sentBy, sample }) => [sentBy, sample?.round])).toEqual([
      ['soak round 1', 1],
      ['soak round 2', 2],
      ['soak round 3', 3],
    ])
    const relation = env.relations.observations()['relations/request-id-unique']!
    expect(relation.violations.map(({ sentBy, sample }) => [sentBy, sample?.round])).toEqual([
      ['soak round 2', 2],
      ['soak round 3', 3],
    ])
  })

  test('at the default rate when none is given', async () => {
    const stop = new AbortController()
    const deployment = new HandDeployment((sent) => {
      stop.abort()
      return plainAnswers(sent)
    })
    const { env } = environmentOf(deployment)
    const { done } = await resampled({ ...env, stop: stop.signal }, { durationMs: 60_000 })
    expect(done).toMatchObject({ kind: 'soak', rounds: 1, requests: 1, rate: 2 })
  })

  test('goes on past its turn until its duration is spent', async () => {
    const deployment = new HandDeployment(plainAnswers)
    const { env } = environmentOf(deployment)
    const { done, progress } = await resampled(env, { durationMs: 120, rate: 1000 })
    expect(done.rounds).toBeGreaterThan(3)
    expect(done.durationMs).toBeGreaterThanOrEqual(120)
    expect(done.durationMs).toBeLessThan(3000)
    expect(progress.map(({ round }) => round)).toEqual(Array.from({ length: done.rounds }, (_, i) => i + 1))
    expect(progress.every((round) => round.durationMs === 120)).toBe(true)
  })

  test('sends at most its rate a second', async () => {
    const deployment = new HandDeployment(plainAnswers)
    const { env } = environmentOf(deployment)
    await resampled(env, { durationMs: 0, rate: 50 })
    // The k-th request is sent k turns of 20 ms after the first at the earliest (a timer may fire a ms early).
    const late = deployment.sent.map((sent, k) => sent.at - deployment.sent[0]!.at - k * 20)
    expect(late).toHaveLength(14)
    expect(Math.min(...late), `ms past each turn: ${late.join(', ')}`).toBeGreaterThanOrEqual(-2)
  })
})

describe('the end of the rounds', () => {
  test('a stop before the reads: nothing is sent, one round is counted', async () => {
    for (const options of [{}, { durationMs: 60_000, rate: 1000 }]) {
      const deployment = new HandDeployment(plainAnswers)
      const { env, walks } = environmentOf(deployment)
      const { done, progress } = await resampled({ ...env, stop: AbortSignal.abort() }, options)
      expect(deployment.sent, JSON.stringify(options)).toEqual([])
      expect(done).toMatchObject({ rounds: 1, requests: 0 })
      expect(progress).toHaveLength(1)
      expect(walks()).toEqual([])
      expect(deployment.closes).toBe(1)
    }
  })

  test("a stop during a soak's walk ends it there, incomplete, and ends the soak with that round", async () => {
    const stop = new AbortController()
    const deployment = new HandDeployment((sent) => {
      if (sent.round === 2 && sent.path === '/v1/markets') stop.abort()
      return plainAnswers(sent)
    })
    const { env, walks } = environmentOf(deployment)
    const { done } = await resampled({ ...env, stop: stop.signal }, { durationMs: 60_000, rate: 1000 })
    expect(done.rounds).toBe(2)
    expect(deployment.paths(2)).toEqual(['/v1/config', '/v1/vault', '/v1/markets'])
    const last = walks().at(-1)!
    expect([walkShown(last.walk), last.round, last.sentBy]).toEqual([
      { ...WHOLE_WALK, identities: ['m1', 'm2'], complete: false },
      2,
      'soak round 2',
    ])
  })

  test('a stop while the pacer waits ends the wait at once: the read waited for is not sent', async () => {
    const stop = new AbortController()
    const deployment = new HandDeployment((sent) => {
      if (sent.path === '/v1/vault') setTimeout(() => stop.abort(), 200)
      return plainAnswers(sent)
    })
    const { env, walks } = environmentOf(deployment)
    const started = Date.now()
    const { done } = await resampled({ ...env, stop: stop.signal }, { durationMs: 60_000, rate: 1 })
    expect(deployment.paths(), 'the walk of the markets waited its turn').toEqual(['/v1/config', '/v1/vault'])
    expect(walks(), 'a walk whose first page was not sent is not shown').toEqual([])
    expect(done).toMatchObject({ rounds: 1, requests: 2 })
    expect(Date.now() - started, 'not the whole second the turn was for').toBeLessThan(1800)
  })

  test('a deadline passed before a soak: its first round reads whole, and no other', async () => {
    const deployment = new HandDeployment(plainAnswers)
    const { env } = environmentOf(deployment, { deadlineAt: Date.now() - 1 })
    const { done } = await resampled(env, { durationMs: 60_000, rate: 1000 })
    expect(done).toMatchObject({ rounds: 1, requests: 6 })
  })

  test.each<[string, number, string, string[]]>([
    ["in round 1: the round reads on, whole (a turn's first round is the checks')", 1, '/v1/config', []],
    ['in round 2: the round ends before its next read', 2, '/v1/config', ['/v1/config']],
    [
      'in a round 2 walk: the walk ends before its next page, and is shown incomplete',
      2,
      '/v1/markets',
      ['/v1/config', '/v1/vault', '/v1/markets'],
    ],
  ])('the deadline passing %s', async (_, round, at, roundTwo) => {
    // The settings the rounds read: the deployment moves their deadline into the past as it answers the read named.
    let settings: Partial<RunSettings> = {}
    const deployment = new HandDeployment((sent) => {
      if (sent.round === round && sent.path === at) settings.deadlineAt = Date.now() - 1
      return plainAnswers(sent)
    })
    const { env, walks } = environmentOf(deployment)
    settings = env.settings
    const { done } = await resampled(env, { durationMs: 60_000, rate: 1000 })
    expect(deployment.paths(1)).toHaveLength(6)
    expect(
      walks()
        .filter((walk) => walk.round === 1)
        .map(({ walk }) => walk.complete),
    ).toEqual([true, true])
    expect(deployment.paths(2)).toEqual(roundTwo)
    expect(done.rounds).toBe(round)
    if (at === '/v1/markets') expect(walks().at(-1)!.walk).toMatchObject({ identities: ['m1', 'm2'], complete: false })
  })
})

describe('the edges of the bounds, on a clock that stands still', () => {
  const NOW = Date.UTC(2026, 10, 26, 12)

  afterEach(() => {
    vi.useRealTimers()
  })

  /** A stop a second away in real time: a soak the bound did not end fails its test rather than running on. */
  const backstop = () => ({ stop: AbortSignal.timeout(1000) })

  test('a deadline reached to the millisecond is passed: the soak ends after its first round', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW })
    const { env } = environmentOf(new HandDeployment(plainAnswers), { deadlineAt: NOW })
    const { done } = await resampled({ ...env, ...backstop() }, { durationMs: 60_000, rate: 1000 })
    expect(done.rounds).toBe(1)
  })

  test('a deadline a millisecond away is not passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW })
    const { env } = environmentOf(new HandDeployment(plainAnswers), { deadlineAt: NOW + 1 })
    const { done } = await resampled({ ...env, ...backstop() }, { durationMs: 0, rate: 1000 })
    expect(done.rounds, 'one whole turn').toBe(3)
  })

  test('a duration reached to the millisecond is spent: a soak of no duration ends after its turn', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW })
    const { env } = environmentOf(new HandDeployment(plainAnswers))
    const { done } = await resampled({ ...env, ...backstop() }, { durationMs: 0, rate: 1000 })
    expect(done).toMatchObject({ rounds: 3, durationMs: 0 })
  })
})

describe('the round of a recorded exchange, from its senders', () => {
  test.each<[string, string[] | undefined, number]>([
    ['none named', undefined, 0],
    ['no sender', [], 0],
    ['a check', ['auth/missing-key'], 0],
    ['the last sweep', ['last sweep'], 1],
    ["a soak's round", ['soak round 3'], 3],
    ["a soak's round after a check", ['auth/missing-key', 'soak round 12'], 12],
    ['round 0, then a round', ['soak round 0', 'soak round 2'], 2],
    ['a negative round', ['soak round -1'], 0],
    ['a round that is no integer', ['soak round 1.5'], 0],
    ['a round that is no number', ['soak round x'], 0],
    ['the prefix not at the start', ['my soak round 4'], 0],
  ])('%s', (_, senders, round) => expect(roundOfSenders(senders)).toBe(round))
})
