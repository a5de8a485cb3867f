import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RequirementId } from '../../src/contract/catalogue-ids.js'
import { describe, expect, test } from 'vitest'
import { findingMessage } from '../../src/checks/exchange-judge.js'
import { CheckFailure, CheckNotRun, CheckSkipped, type Check, type CheckContext } from '../../src/checks/types.js'
import type { CheckOutcome } from '../../src/core/report.js'
import { summarize } from '../../src/engine/summarize.js'
import type { RunSettings } from '../../src/core/settings.js'
import {
  CRASH_PREFIX,
  NOT_SELECTED,
  cutOff,
  ObservationTally,
  levelOf,
  notSelected,
  outcomeOf as judgedOutcome,
  runOutcomes,
  withObserved,
} from '../../src/engine/judged-outcomes.js'
import { observe, type RuleObservation } from '../../src/engine/observations.js'
import { exchangeJudges } from '../../src/engine/judges.js'
import { missingInputReasons, missingNeed } from '../../src/checks/needs.js'
import { unknownCheckId } from '../../src/checks/index.js'
import { replayCommand, runCheck, type CheckEnvironment } from '../../src/engine/run-check.js'
import { WriteBudget } from '../../src/engine/write-plan.js'
import { RelationTally } from '../../src/engine/relations.js'
import { SharedReads } from '../../src/engine/shared-reads.js'
import { SignedBodySource } from '../../src/generators/signed-bodies.js'
import { GrowingSecrets } from '../../src/http/secrets.js'
import { WRITES_NOT_ASSESSABLE, type WriteOperation } from '../../src/profile/profile.js'
import type { Exchange } from '../../src/http/exchange.js'
import { HttpClient, RUN_INTERRUPTED } from '../../src/http/client.js'
import { gatherExchangeLog } from '../../src/har/exchange-log.js'
import { httpTarget } from '../support/hostile-servers.js'
import { FIXED_SEED } from '../support/run.js'

/**
 * The code that decides pass, fail, skip and the run's verdict, judged by itself: it judges no target, so each of its
 * branches is proven here on outcomes made by hand (npm run mutation, docs/mutation.md).
 */

const MUST: RequirementId = 'CONV-JSON-REQUEST-BODY'
const SHOULD = 'ENV-CURSOR-NO-REPEAT'

const settings: RunSettings = {
  // Nothing listens here: the checks below send no request.
  baseUrl: 'http://127.0.0.1:9',
  embedded: false,
  apiKey: 'secret-key-0123456789',
  seed: FIXED_SEED,
  runs: 1,
  concurrency: 1,
  cursorParam: 'cursor',
  limitParam: 'limit',
  maxPages: 10,
  connectTimeoutMs: 1000,
  requestTimeoutMs: 1000,
  maxBodyBytes: 1024,
  probeRateLimit: false,
}

const secrets = [{ value: 'secret-key-0123456789', placeholder: '$IPTS_API_KEY' }]

function exchange(retried = false): Exchange {
  return {
    request: { method: 'GET', url: 'http://127.0.0.1:9/v1/markets', headers: {} },
    response: { status: 200, headers: {}, body: '{}', truncated: false },
    retries: retried
      ? [{ status: 503, waitedMs: 1, response: { status: 503, headers: {}, body: '', truncated: false } }]
      : [],
  } as unknown as Exchange
}

function checkThat(run: Check['run'], extra: Partial<Check> = {}): Check {
  return { id: 'unit/check', requirement: MUST, title: 'a check made for the test', run, ...extra }
}

async function outcomeOf(check: Check, given: Partial<RunSettings> = {}, exchangeLog?: string): Promise<CheckOutcome> {
  const client = new HttpClient({ ...settings, ...given })
  const env: CheckEnvironment = { settings: { ...settings, ...given }, client, secrets, exchangeLog }
  try {
    return (await runCheck(check, 'unit', env)).outcome
  } finally {
    await client.close()
  }
}

describe('runCheck decides a check outcome', () => {
  test('a check that throws nothing passes, with its identity, level and duration', async () => {
    const outcome = await outcomeOf(checkThat(async () => {}))
    expect(outcome).toMatchObject({
      id: 'unit/check',
      title: 'a check made for the test',
      requirement: MUST,
      level: 'MUST',
      inferred: false,
      concern: 'unit',
      status: 'passed',
    })
    expect(outcome.durationMs).toBeTypeOf('number')
    expect(outcome.durationMs, 'the time the check took, not a clock reading').toBeLessThan(60_000)
    expect(outcome.reason).toBeUndefined()
    expect(outcome.retried, 'no exchange was retried').toBeUndefined()
    expect(outcome.inputs, 'no inputs were counted').toBeUndefined()
    expect(outcome.writes, 'no write was sent').toBeUndefined()
  })

  test('its duration is the time the check took', async () => {
    const outcome = await outcomeOf(checkThat(() => new Promise((resolve) => setTimeout(resolve, 40))))
    expect(outcome.durationMs, 'at least the 40 ms the check waited').toBeGreaterThanOrEqual(35)
    expect(outcome.durationMs, 'not a clock reading').toBeLessThan(5_000)
  })

  test("logs the check's exchanges for the HAR, under its ID, where the run keeps a log", async () => {
    const target = await httpTarget((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'unit-0000-request' })
      res.end('{"data":[]}')
    })
    const dir = mkdtempSync(join(tmpdir(), 'verdict-units-'))
    try {
      await outcomeOf(
        checkThat(async (ctx) => void (await ctx.get('/v1/markets'))),
        { baseUrl: target.baseUrl },
        dir,
      )
      expect([...gatherExchangeLog(dir)].map((entry) => [entry.request.url, entry._checks])).toEqual([
        [`${target.baseUrl}/v1/markets`, ['unit/check']],
      ])
    } finally {
      await target.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('a finding fails it with the message and evidence, secrets replaced', async () => {
    const outcome = await outcomeOf(
      checkThat(async () => {
        throw new CheckFailure('got secret-key-0123456789 back', { exchange: exchange() })
      }),
    )
    expect(outcome.status).toBe('failed')
    expect(outcome.crashed).toBeUndefined()
    expect(outcome.reason).toBe('got $IPTS_API_KEY back')
    expect(outcome.evidence?.message).toBe('got $IPTS_API_KEY back')
    expect(outcome.evidence?.response?.status).toBe(200)
    expect(outcome.evidence?.profile, 'a check without a profile key shows no profile').toBeUndefined()
  })

  test('a finding with a counterexample carries the command that replays it', async () => {
    const outcome = await outcomeOf(
      checkThat(async () => {
        throw new CheckFailure('a property failed', { counterexample: { seed: 7, path: '3:1', value: 'x' } as never })
      }),
    )
    expect(outcome.evidence?.counterexample?.replay).toBe(
      'npx ipts-conformance --base-url http://127.0.0.1:9 --check unit/check --seed 7 --replay-path 3:1',
    )
  })

  test('the replay command names no base URL for the embedded reference', () => {
    expect(replayCommand({ ...settings, embedded: true }, 'a/b', 1, '0')).toBe(
      'npx ipts-conformance --check a/b --seed 1 --replay-path 0',
    )
  })

  test('a finding of a profile check carries the profile value it was held to', async () => {
    const profile = { source: 'unit.json', values: { errorCodes: ['unauthorized'] } }
    const outcome = await outcomeOf(
      checkThat(async (ctx) => ctx.fail('not listed'), { profile: 'errorCodes' }),
      { profile },
    )
    expect(outcome.status).toBe('failed')
    expect(outcome.evidence?.profile).toEqual({ key: 'errorCodes', value: ['unauthorized'], source: 'unit.json' })
  })

  test('a skip skips it with the reason, secrets replaced', async () => {
    const outcome = await outcomeOf(
      checkThat(async () => {
        throw new CheckSkipped('cannot judge secret-key-0123456789')
      }),
    )
    expect(outcome).toMatchObject({ status: 'skipped', reason: 'cannot judge $IPTS_API_KEY' })
  })

  test("a request the circuit breaker held back leaves it 'not run' with the exchange as evidence", async () => {
    const outcome = await outcomeOf(
      checkThat(async () => {
        throw new CheckNotRun('the target stopped answering secret-key-0123456789', exchange())
      }),
    )
    expect(outcome).toMatchObject({ status: 'not run', reason: 'the target stopped answering $IPTS_API_KEY' })
    expect(outcome.evidence?.message).toBe('the target stopped answering $IPTS_API_KEY')
    expect(outcome.evidence?.request).toBeDefined()
  })

  test("a request the run's interruption cut off leaves it 'not run' and marked interrupted; the breaker's is not", async () => {
    const cut = { ...exchange(), response: undefined, error: { code: RUN_INTERRUPTED, message: 'interrupted' } }
    const interrupted = await outcomeOf(
      checkThat(async () => {
        throw new CheckNotRun('interrupted by SIGINT', cut as unknown as Exchange)
      }),
    )
    expect(interrupted).toMatchObject({ status: 'not run', interrupted: true })
    const held = await outcomeOf(
      checkThat(async () => {
        throw new CheckNotRun('the target stopped answering', exchange())
      }),
    )
    expect(held.status).toBe('not run')
    expect(held.interrupted).toBeUndefined()
  })

  test('anything else thrown fails it as crashed, never as a finding', async () => {
    const outcome = await outcomeOf(
      checkThat(async () => {
        throw new TypeError('undefined has no secret-key-0123456789')
      }),
    )
    expect(outcome).toMatchObject({
      status: 'failed',
      crashed: true,
      reason: `${CRASH_PREFIX}TypeError: undefined has no $IPTS_API_KEY`,
    })
    expect(outcome.reason, 'says the check itself failed, not the target').toMatch(
      /^the check itself failed: TypeError/,
    )
    expect(outcome.evidence?.message).toBe(outcome.reason)
  })

  test('a missing input skips it before it runs, with the input to give', async () => {
    let ran = false
    const outcome = await outcomeOf(
      checkThat(
        async () => {
          ran = true
        },
        { needs: ['apiKey', 'trader'] },
      ),
    )
    expect(ran).toBe(false)
    expect(outcome).toMatchObject({ status: 'skipped', reason: 'no trader address given (--trader)' })
  })

  test.each([
    ['apiKey', { apiKey: undefined }, 'no API key given (--api-key)'],
    ['restrictedApiKey', { restrictedApiKey: undefined }, 'no restricted API key given (--restricted-api-key)'],
    ['trader', { trader: undefined }, 'no trader address given (--trader)'],
    ['intent', { intent: undefined }, 'no intent given (--intent-hash and --intent-receipt)'],
    [
      'secondIntent',
      { secondIntent: undefined },
      'no second intent given (--second-intent-hash and --second-intent-receipt)',
    ],
  ] as const)(
    'a check that needs %s runs when it is given and is skipped, naming its flag, when it is not',
    (need, without, reason) => {
      const given = {
        ...settings,
        apiKey: 'k',
        restrictedApiKey: 'r',
        trader: `0x${'a'.repeat(40)}`,
        intent: { hash: 'h', receipt: 'r' },
        secondIntent: { hash: 'h2', receipt: 'r2' },
      } as RunSettings
      expect(missingNeed(given, [need])).toBeUndefined()
      expect(missingNeed(given)).toBeUndefined()
      expect(missingNeed({ ...given, ...without }, [need])).toBe(need)
      expect(missingInputReasons[need]).toBe(reason)
    },
  )

  test('a profile check is skipped as not assessable when the profile does not state its key, and runs when it does', async () => {
    let runs = 0
    const check = checkThat(
      async () => {
        runs++
      },
      { profile: 'errorCodes' },
    )
    expect(await outcomeOf(check)).toMatchObject({
      status: 'skipped',
      reason: 'not assessable without a deployment profile that states errorCodes (--profile)',
    })
    expect(await outcomeOf(check, { profile: { source: 'unit.json', values: { quota: { limit: 1 } } } })).toMatchObject(
      { status: 'skipped' },
    )
    expect(runs).toBe(0)
    expect(await outcomeOf(check, { profile: { source: 'unit.json', values: { errorCodes: [] } } })).toMatchObject({
      status: 'passed',
    })
    expect(runs).toBe(1)
  })

  test('notes retried exchanges and the generated inputs', async () => {
    let answered = 0
    // The first request gets a 503 to retry at once, every later one a 200.
    const target = await httpTarget((_, res) => {
      const status = answered++ === 0 ? 503 : 200
      res.writeHead(status, {
        'content-type': 'application/json',
        'retry-after': '0',
        'x-request-id': 'unit-0000-request',
      })
      res.end('{"data":[]}')
    })
    try {
      const retried = await outcomeOf(
        checkThat(async (ctx) => {
          await ctx.get('/v1/markets')
          ctx.countInputs('random', 5)
        }),
        { baseUrl: target.baseUrl },
      )
      expect(retried.retried, 'the 503 was retried').toBe(true)
      expect(retried.inputs).toEqual({ coverage: 0, random: 5 })
      const plain = await outcomeOf(
        checkThat(async (ctx) => {
          await ctx.get('/v1/markets')
          ctx.countInputs('coverage', 2)
        }),
        { baseUrl: target.baseUrl },
      )
      expect(plain.retried).toBeUndefined()
      expect(plain.inputs).toEqual({ coverage: 2, random: 0 })
    } finally {
      await target.close()
    }
  })
})

describe("runCheck and what a check's reads give the run", () => {
  /** A target that answers every request alike, with the same x-request-id, counting the requests. */
  async function sameAnswerTarget() {
    const seen = { requests: 0 }
    const target = await httpTarget((_, res) => {
      seen.requests++
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'unit-0000-request' })
      res.end('{"data":[]}')
    })
    return {
      baseUrl: target.baseUrl,
      close: () => target.close(),
      get requests() {
        return seen.requests
      },
    }
  }

  test('a read two checks share is sent once for the run, as the first to ask for it sent it', async () => {
    const target = await sameAnswerTarget()
    const given = { ...settings, baseUrl: target.baseUrl }
    const client = new HttpClient(given)
    const sharedReads = new SharedReads()
    const env: CheckEnvironment = { settings: given, client, secrets, sharedReads }
    const reading = (id: string) =>
      checkThat(async (ctx) => void (await ctx.call('listMarkets', { shared: true })), { id })
    try {
      await runCheck(reading('unit/first'), 'unit', env)
      await runCheck(reading('unit/second'), 'unit', env)
      expect(target.requests).toBe(1)
      expect(sharedReads.exchanges.map(({ sentBy }) => sentBy)).toEqual(['unit/first'])
    } finally {
      await client.close()
      await target.close()
    }
  })

  test("a check's responses are shown to the relations as samples of round 0, the checks' round", async () => {
    const target = await sameAnswerTarget()
    const given = { ...settings, baseUrl: target.baseUrl }
    const client = new HttpClient(given)
    const relations = new RelationTally(() => secrets)
    const env: CheckEnvironment = { settings: given, client, secrets, relations }
    try {
      const readTwice = async (ctx: CheckContext) => {
        await ctx.call('listMarkets')
        await ctx.call('listMarkets')
      }
      await runCheck(checkThat(readTwice), 'unit', env)
      const seen = relations.observations()['relations/request-id-unique']!
      expect(seen.violated, 'the second response repeats the first x-request-id').toBe(1)
      expect(seen.violations[0]).toMatchObject({ sentBy: 'unit/check', sample: { round: 0 } })
    } finally {
      await client.close()
      await target.close()
    }
  })
})

describe('runCheck and the writes of a check', () => {
  const RECEIPT = 'receipt-secret-0123456789abcdef'
  const submit: WriteOperation = {
    kind: 'intent',
    method: 'POST',
    path: '/v1/unit-intents',
    statusIdentifier: '/id',
    receipt: '/receipt',
    duplicate: '/duplicate',
    bodies: { files: ['one.json', 'two.json'] },
  }
  const writeSettings = (baseUrl: string): Partial<RunSettings> => ({
    baseUrl,
    allowWrites: true,
    profile: { source: 'unit.yaml', values: { writes: { operations: { submit } } } },
  })
  /** A check that declares two submissions and sends one, failing with the receipt it was handed when told to. */
  const writer = (failWithReceipt = false) =>
    checkThat(
      async (ctx) => {
        const answer = await ctx.write('submit', await ctx.signedBody('submit'), 'unit-key-0001')
        if (failWithReceipt) ctx.fail(`handed ${answer.receipt}`)
      },
      { writes: () => 2 },
    )

  async function withWriteTarget(
    run: (baseUrl: string, writing: NonNullable<CheckEnvironment['writing']>, budget: WriteBudget) => Promise<void>,
    max?: number,
  ) {
    const target = await httpTarget((_, res) => {
      res.writeHead(202, { 'content-type': 'application/json', 'x-request-id': 'unit-0000-request' })
      res.end(JSON.stringify({ id: 'status-1', receipt: RECEIPT, duplicate: false }))
    })
    const dir = mkdtempSync(join(tmpdir(), 'verdict-writes-'))
    for (const file of ['one.json', 'two.json']) writeFileSync(join(dir, file), '{"signed":true}')
    const budget = new WriteBudget(max)
    try {
      await run(
        target.baseUrl,
        { bodies: new SignedBodySource(dir, 1000), budget, secrets: new GrowingSecrets(secrets) },
        budget,
      )
    } finally {
      await target.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }

  async function outcomeWith(
    check: Check,
    given: Partial<RunSettings>,
    writing?: CheckEnvironment['writing'],
  ): Promise<CheckOutcome> {
    const client = new HttpClient({ ...settings, ...given })
    try {
      return (await runCheck(check, 'unit', { settings: { ...settings, ...given }, client, secrets, writing })).outcome
    } finally {
      await client.close()
    }
  }

  test('a write check in a run that may not write is skipped as not assessable, and sends nothing', async () => {
    await withWriteTarget(async (baseUrl) => {
      const outcome = await outcomeWith(writer(), writeSettings(baseUrl))
      expect(outcome).toMatchObject({ status: 'skipped', reason: WRITES_NOT_ASSESSABLE })
      expect(outcome.writes).toBeUndefined()
    })
  })

  test('a check that writes nothing runs in a run that may not write', async () => {
    expect(
      (
        await outcomeWith(
          checkThat(async () => {}),
          {},
        )
      ).status,
    ).toBe('passed')
  })

  test('a write check that does not fit in what is left of --max-writes is skipped, saying so, and takes nothing', async () => {
    await withWriteTarget(async (baseUrl, writing, budget) => {
      const outcome = await outcomeWith(writer(), writeSettings(baseUrl), writing)
      expect(outcome).toMatchObject({
        status: 'skipped',
        reason: 'skipped: it sends up to 2 submissions, more than the 1 left of --max-writes 1',
      })
      expect(budget.take(1), 'the one submission left is still there').toBe(true)
    }, 1)
  })

  test('a write check that fits takes its declared submissions from the budget, and lists the write it sent with its receipt as a placeholder', async () => {
    await withWriteTarget(async (baseUrl, writing, budget) => {
      const outcome = await outcomeWith(writer(), writeSettings(baseUrl), writing)
      expect(outcome.status, outcome.reason).toBe('passed')
      expect(outcome.writes).toEqual([
        {
          operation: 'submit',
          method: 'POST',
          url: `${baseUrl}/v1/unit-intents`,
          idempotencyKey: 'unit-key-0001',
          status: 202,
          attempts: 1,
          statusIdentifier: 'status-1',
          receipt: '$IPTS_WRITE_RECEIPT_1',
          duplicate: false,
        },
      ])
      expect(budget.take(2), 'the check took 2 of the 3').toBe(false)
      expect(budget.take(1)).toBe(true)
    }, 3)
  })

  test('a write check is held to its declared submissions: the allowance is what it declares, not the whole budget', async () => {
    await withWriteTarget(async (baseUrl, writing) => {
      const greedy = checkThat(
        async (ctx) => {
          for (let i = 0; i < 2; i++) await ctx.write('submit', await ctx.signedBody('submit'), `unit-key-000${i}`)
        },
        { writes: () => 1 },
      )
      const outcome = await outcomeWith(greedy, writeSettings(baseUrl), writing)
      expect(outcome).toMatchObject({ status: 'failed', crashed: true })
      expect(outcome.reason).toContain('a write check sent more than the 1 submissions it declares')
    })
  })

  test("the lifecycle steps a check records are its outcome's, in order, each receipt as its placeholder; a check that records none has none", async () => {
    await withWriteTarget(async (baseUrl, writing) => {
      const walker = checkThat(
        async (ctx) => {
          const answer = await ctx.write('submit', await ctx.signedBody('submit'), 'unit-key-0001')
          ctx.lifecycleStep({
            kind: 'rest',
            label: 'intake',
            request: 'POST /v1/unit-intents',
            outcome: '202',
            at: 'a',
          })
          const request = `GET /v1/unit-intents/1?receipt=${answer.receipt}`
          ctx.lifecycleStep({ kind: 'rest', label: 'status', request, outcome: '200', at: 'b' }, answer.receipt)
          ctx.fail('after two steps')
        },
        { writes: () => 1 },
      )
      const outcome = await outcomeWith(walker, writeSettings(baseUrl), writing)
      expect(outcome.status, 'a failed check keeps its steps').toBe('failed')
      expect(outcome.lifecycle).toEqual([
        { kind: 'rest', label: 'intake', request: 'POST /v1/unit-intents', outcome: '202', at: 'a' },
        {
          kind: 'rest',
          label: 'status',
          request: 'GET /v1/unit-intents/1?receipt=$IPTS_WRITE_RECEIPT_1',
          outcome: '200',
          at: 'b',
          receipt: '$IPTS_WRITE_RECEIPT_1',
        },
      ])
      expect(await outcomeWith(writer(), writeSettings(baseUrl), writing)).not.toHaveProperty('lifecycle')
    }, 3)
  })

  test("a receipt a write was handed is a secret in the check's reason and evidence", async () => {
    await withWriteTarget(async (baseUrl, writing) => {
      const outcome = await outcomeWith(writer(true), writeSettings(baseUrl), writing)
      expect(outcome.status).toBe('failed')
      expect(outcome.reason).toBe('handed $IPTS_WRITE_RECEIPT_1')
      expect(JSON.stringify(outcome)).not.toContain(RECEIPT)
    })
  })
})

test('a selection of check IDs is refused by the first ID no check or rule has, naming the closest', () => {
  expect(unknownCheckId(undefined)).toBeUndefined()
  expect(unknownCheckId(['auth/missing-key', 'every-response/json-content-type'])).toBeUndefined()
  expect(unknownCheckId(['auth/missing-key', 'auth/missing-kye', 'no/such'])).toBe(
    'no check has the ID "auth/missing-kye" (closest: auth/missing-key, auth/unknown-key, writes/missing-key-refused; docs/checks.md lists them all)',
  )
})

test('the errors a check throws name themselves where they are printed (a stack trace, vitest under npx vitest run)', () => {
  expect(String(new CheckFailure('found'))).toBe('CheckFailure: found')
  expect(String(new CheckSkipped('no input'))).toBe('CheckSkipped: no input')
  expect(String(new CheckNotRun('the target stopped answering', exchange()))).toBe(
    'CheckNotRun: the target stopped answering',
  )
})

test('a finding with schema violations is told by its message', () => {
  expect(findingMessage('a plain finding')).toBe('a plain finding')
  expect(findingMessage({ message: 'a finding with violations', violations: [] })).toBe('a finding with violations')
})

test('the replay command carries the flags that shaped the run', () => {
  const shaped = { ...settings, shapingFlags: ['--profile p.json', '--cursor-param page'] }
  expect(replayCommand(shaped, 'unit/check', 7, '0:1')).toBe(
    'npx ipts-conformance --base-url http://127.0.0.1:9 --profile p.json --cursor-param page --check unit/check --seed 7 --replay-path 0:1',
  )
})

describe('an outcome as the report holds it', () => {
  const named = { id: 'unit/check', title: 'a check made for the test', requirement: MUST }

  test('has a reason only when it is given one', () => {
    expect(judgedOutcome(named, 'unit', 'passed')).toStrictEqual({
      ...named,
      level: 'MUST',
      inferred: false,
      concern: 'unit',
      status: 'passed',
    })
    expect(judgedOutcome(named, 'unit', 'skipped', 'why')).toStrictEqual({
      ...named,
      level: 'MUST',
      inferred: false,
      concern: 'unit',
      status: 'skipped',
      reason: 'why',
    })
  })

  test('a check a run left out is skipped as not selected, having taken no time', () => {
    expect(notSelected(named, 'unit')).toStrictEqual({
      ...named,
      level: 'MUST',
      inferred: false,
      concern: 'unit',
      status: 'skipped',
      reason: NOT_SELECTED,
      durationMs: 0,
    })
    expect(NOT_SELECTED, 'names what left it out').toContain('--check')
  })
})

describe("the observer's findings added to a check's own outcome", () => {
  const own = (status: CheckOutcome['status'], reason?: string): CheckOutcome => ({
    ...outcome(status),
    id: 'unit/check',
    ...(reason === undefined ? {} : { reason }),
  })
  const observed: CheckOutcome = {
    ...outcome('failed'),
    id: 'unit/check',
    reason: 'one response of 3: wrong',
    evidence: { message: 'one response of 3: wrong', sentBy: 'unit/other' },
  }

  test("a violation in another check's traffic fails a check that passed or skipped, with that evidence", () => {
    for (const status of ['passed', 'skipped'] as const) {
      const result = withObserved(own(status, status === 'skipped' ? 'nothing to judge' : undefined), observed)
      expect(result).toMatchObject({
        status: 'failed',
        reason: 'one response of 3: wrong',
        evidence: { sentBy: 'unit/other' },
      })
      expect('crashed' in result, 'a finding is no crash').toBe(false)
    }
    expect(withObserved(own('passed'), { ...observed, crashed: true })).toMatchObject({
      status: 'failed',
      crashed: true,
    })
  })

  test('a check that failed by itself, was not run or was left out keeps its outcome; an observer that found nothing adds nothing', () => {
    const settled = [
      own('failed', 'its own finding'),
      own('not run', 'the target stopped answering'),
      own('skipped', NOT_SELECTED),
    ]
    for (const outcome of settled) expect(withObserved(outcome, observed)).toBe(outcome)
    const passed = own('passed')
    expect(withObserved(passed, { ...observed, status: 'passed', reason: undefined })).toBe(passed)
    expect(withObserved(passed, undefined)).toBe(passed)
  })

  test("a run's outcomes are the checks', with their observations, then each every-response rule once", () => {
    const judge = (id: string, concern: string) => ({
      id,
      title: id,
      requirement: MUST,
      notApplicable: 'nothing it applies to',
      concern,
    })
    const tally = new ObservationTally()
    tally.add({ 'unit/check': observation(1, ['bad']), 'every-response/first': observation(1) })
    const checks = [own('passed'), { ...own('passed'), id: 'every-response/second' }]
    const judges = [
      judge('unit/check', 'unit'),
      judge('unit/left-out', 'unit'),
      judge('every-response/first', 'every-response'),
      judge('every-response/second', 'every-response'),
      judge('relations/first', 'relations'),
    ]
    const outcomes = runOutcomes(checks, tally, judges, undefined)
    expect(outcomes.map((o) => `${o.id} ${o.status}`)).toEqual([
      'unit/check failed',
      'every-response/second passed',
      'every-response/first passed',
      'relations/first skipped',
    ])
  })
})

describe('levelOf', () => {
  test('gives the requirement level and whether it is a reading', () => {
    expect(levelOf(MUST)).toEqual({ level: 'MUST', inferred: false })
    expect(levelOf(SHOULD)).toEqual({ level: 'SHOULD', inferred: true })
  })
})

function observation(applied: number, messages: string[] = [], crash?: string): RuleObservation {
  return {
    applied,
    violated: messages.length,
    violations: messages.map((message) => ({ message })),
    ...(crash === undefined ? {} : { crash }),
  }
}

describe('the tally of every-response observations', () => {
  const judge = {
    id: 'every-response/unit',
    title: 'a rule made for the test',
    requirement: MUST,
    notApplicable: 'no response it applies to',
    concern: 'every-response',
  }

  test('a rule that never applied is skipped with its reason', () => {
    const [outcome] = new ObservationTally().outcomes([judge], undefined)
    expect(outcome).toMatchObject({
      id: judge.id,
      title: judge.title,
      requirement: MUST,
      level: 'MUST',
      concern: 'every-response',
      status: 'skipped',
      reason: 'no response it applies to',
    })
  })

  test('a rule that holds responses to a profile fact is skipped as not assessable without it, and as not applicable with it', () => {
    const profiled = { ...judge, profile: 'errorCodes' as const }
    expect(new ObservationTally().outcomes([profiled], undefined)[0]!.reason).toBe(
      'not assessable without a deployment profile that states errorCodes (--profile)',
    )
    expect(
      new ObservationTally().outcomes([profiled], { source: 'unit.json', values: { errorCodes: ['x'] } })[0]!.reason,
    ).toBe('no response it applies to')
  })

  test('a rule that applied without a violation passes, without a reason', () => {
    const tally = new ObservationTally()
    tally.add({ [judge.id]: observation(2) })
    const [outcome] = tally.outcomes([judge], undefined)
    expect(outcome!.status).toBe('passed')
    expect(outcome!.reason).toBeUndefined()
    expect(outcome!.evidence).toBeUndefined()
  })

  test('one violation fails it, counted over every check, with its evidence', () => {
    const tally = new ObservationTally()
    tally.add({ [judge.id]: observation(2) })
    tally.add({ [judge.id]: observation(1, ['no header']) })
    const [outcome] = tally.outcomes([judge], undefined)
    expect(outcome).toMatchObject({
      status: 'failed',
      reason: 'one response of 3: no header',
      evidence: { message: 'one response of 3: no header' },
    })
    expect(outcome!.evidence?.others).toBeUndefined()
    expect(outcome!.crashed).toBeUndefined()
  })

  test('two violations, the first edge past one: counted as responses, the second kept as other evidence', () => {
    const tally = new ObservationTally()
    tally.add({ [judge.id]: observation(3, ['first', 'second']) })
    const [outcome] = tally.outcomes([judge], undefined)
    expect(outcome!.reason).toBe('2 responses of 3: first')
    expect(outcome!.evidence?.others?.map((e) => e.message)).toEqual(['second'])
  })

  test('several violations are counted and the first few kept as evidence', () => {
    const tally = new ObservationTally()
    tally.add({ [judge.id]: observation(3, ['first', 'second', 'third']) })
    tally.add({ [judge.id]: observation(4, ['fourth', 'fifth', 'sixth']) })
    const [outcome] = tally.outcomes([judge], undefined)
    expect(outcome!.reason).toBe('6 responses of 7: first')
    expect(outcome!.evidence?.others?.map((e) => e.message)).toEqual(['second', 'third', 'fourth', 'fifth'])
  })

  test('has room for five violations of each judge, less those it kept', () => {
    const tally = new ObservationTally()
    expect(tally.room(judge.id)).toBe(5)
    tally.add({ [judge.id]: observation(3, ['first', 'second']) })
    expect(tally.room(judge.id)).toBe(3)
    expect(tally.room('every-response/other')).toBe(5)
    tally.add({ [judge.id]: observation(4, ['third', 'fourth', 'fifth', 'sixth']) })
    expect(tally.room(judge.id)).toBe(0)
  })

  test('observations built for its room alone count every violation and keep the same evidence as those built whole', () => {
    // Eight answers an HTML 404 to an operation of the contract: each violates every-response/json-content-type.
    const answers = Array.from({ length: 8 }, (_, index): Exchange => ({
      operation: 'getVault',
      request: { method: 'GET', url: `http://127.0.0.1:1/v1/vaults/${index}`, headers: {} },
      response: { status: 404, headers: { 'content-type': 'text/html' }, body: `<p>${index}</p>`, truncated: false },
      durationMs: 1,
      retries: [],
    }))
    const settings = { seed: FIXED_SEED } as RunSettings
    const whole = new ObservationTally()
    const roomy = new ObservationTally()
    const built: number[] = []
    for (const answer of answers) {
      whole.add(observe([answer], settings, []))
      const observations = observe([answer], settings, [], undefined, undefined, undefined, 0, (id) => roomy.room(id))
      built.push(observations['every-response/json-content-type']!.violations.length)
      expect(observations['every-response/json-content-type']).toMatchObject({ applied: 1, violated: 1 })
      roomy.add(observations)
    }
    expect(built, 'evidence built for the first five alone').toEqual([1, 1, 1, 1, 1, 0, 0, 0])
    const outcome = roomy.outcomes(exchangeJudges(), undefined).find((o) => o.id === 'every-response/json-content-type')
    expect(outcome).toMatchObject({ status: 'failed', samples: { showed: 8, of: 8 } })
    expect(outcome!.evidence?.others).toHaveLength(4)
    expect(roomy.outcomes(exchangeJudges(), undefined)).toEqual(whole.outcomes(exchangeJudges(), undefined))
  })

  test('a rule that threw is crashed, whatever it found, with the first error', () => {
    const tally = new ObservationTally()
    tally.add({ [judge.id]: observation(1, ['found'], 'TypeError: x') })
    tally.add({ [judge.id]: observation(1, [], 'RangeError: y') })
    const [outcome] = tally.outcomes([judge], undefined)
    expect(outcome).toEqual(
      expect.objectContaining({
        status: 'failed',
        crashed: true,
        reason: `${CRASH_PREFIX}TypeError: x`,
        evidence: { message: `${CRASH_PREFIX}TypeError: x` },
      }),
    )
  })

  test('redactKept redacts the evidence and the crash kept so far, and leaves a rule that did not crash uncrashed', () => {
    const secret = { value: 'secret-key-0123456789', placeholder: '$IPTS_API_KEY' }
    const other = { ...judge, id: 'every-response/other' }
    const tally = new ObservationTally()
    tally.add({ [judge.id]: observation(1, ['saw secret-key-0123456789'], 'TypeError: secret-key-0123456789') })
    tally.add({ [other.id]: observation(1, ['echoed secret-key-0123456789']) })
    tally.redactKept([secret])
    const [crashed, failed] = tally.outcomes([judge, other], undefined)
    expect(crashed).toMatchObject({
      status: 'failed',
      crashed: true,
      reason: `${CRASH_PREFIX}TypeError: $IPTS_API_KEY`,
    })
    expect(failed).toMatchObject({ status: 'failed', reason: 'one response of 1: echoed $IPTS_API_KEY' })
    expect(failed!.crashed).toBeUndefined()
    expect(JSON.stringify([crashed, failed])).not.toContain(secret.value)
  })

  test('violatedRules counts the rules that showed a violation or crashed by now, not their violations', () => {
    const tally = new ObservationTally()
    expect(tally.violatedRules()).toBe(0)
    tally.add({ 'every-response/held': observation(5) })
    expect(tally.violatedRules(), 'a rule that applied and held').toBe(0)
    tally.add({ 'every-response/broken': observation(2, ['first', 'second']) })
    tally.add({ 'every-response/broken': observation(1, ['third']) })
    expect(tally.violatedRules(), 'one rule, however many violations').toBe(1)
    tally.add({ 'every-response/crashed': observation(1, [], 'TypeError: x') })
    expect(tally.violatedRules(), 'a crash counts without a violation').toBe(2)
  })

  test('each rule is tallied by itself', () => {
    const other = { ...judge, id: 'every-response/other' }
    const tally = new ObservationTally()
    tally.add({ [other.id]: observation(1, ['bad']) })
    expect(tally.outcomes([judge, other], undefined).map((o) => o.status)).toEqual(['skipped', 'failed'])
  })
})

function outcome(status: CheckOutcome['status'], level: CheckOutcome['level'] = 'MUST'): CheckOutcome {
  return { id: `unit/${status}`, title: '', requirement: MUST, level, inferred: false, concern: 'unit', status }
}

describe('summarize decides the verdict of a run', () => {
  test('a run that assessed less than --min-assessed asks for fails; at the share, or with no minimum, it passes', () => {
    const coverage = (assessed: number, minimum?: number) => ({
      assessed,
      observable: 10,
      percent: assessed * 10,
      ...(minimum === undefined ? {} : { minimum }),
    })
    expect(summarize([outcome('passed')], false, [], coverage(7, 80)).verdict).toBe('fail')
    expect(summarize([outcome('passed')], false, [], coverage(8, 80)).verdict).toBe('pass')
    expect(summarize([outcome('passed')], false, [], coverage(1)).verdict).toBe('pass')
  })

  test("a check the run's interruption cut off is not run with the reason, interrupted, and fails nothing", () => {
    const check = { id: 'unit/cut', title: 'a check cut off', requirement: MUST }
    const cut = cutOff(check, 'unit', 'SIGTERM')
    expect(cut).toMatchObject({
      id: 'unit/cut',
      title: 'a check cut off',
      concern: 'unit',
      status: 'not run',
      reason: 'interrupted by SIGTERM',
      interrupted: true,
      durationMs: 0,
    })
    expect(summarize([outcome('passed'), cut], false, []).verdict).toBe('pass')
  })

  test('counts each status', () => {
    const summary = summarize(
      [
        outcome('passed', 'SHOULD'),
        outcome('passed'),
        outcome('failed', 'SHOULD'),
        outcome('skipped'),
        outcome('waived'),
      ],
      false,
      [],
    )
    expect(summary).toEqual({
      passed: 2,
      failed: 1,
      skipped: 1,
      waived: 1,
      notRun: 0,
      total: 5,
      failedMust: 0,
      failedShould: 1,
      verdict: 'pass',
    })
  })

  test('a failed MUST fails the run', () => {
    expect(summarize([outcome('passed'), outcome('failed', 'MUST')], false, [])).toMatchObject({
      failedMust: 1,
      failedShould: 0,
      verdict: 'fail',
    })
  })

  test('a failed SHOULD fails the run only when strict', () => {
    expect(summarize([outcome('failed', 'SHOULD')], false, []).verdict).toBe('pass')
    expect(summarize([outcome('failed', 'SHOULD')], true, []).verdict).toBe('fail')
    expect(summarize([outcome('passed')], true, []).verdict).toBe('pass')
  })

  test("a check 'not run' fails the run", () => {
    expect(summarize([outcome('passed'), outcome('not run')], false, [])).toMatchObject({ notRun: 1, verdict: 'fail' })
  })

  test('an error of the run itself fails it', () => {
    expect(summarize([outcome('passed')], false, ['a suite file did not load']).verdict).toBe('fail')
  })

  test('skipped and waived checks alone pass', () => {
    expect(summarize([outcome('skipped'), outcome('waived')], false, []).verdict).toBe('pass')
  })
})
