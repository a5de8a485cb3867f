import { describe, expect, test } from 'vitest'
import type { AllowanceName } from '../../src/reference/allowance-names.js'
import { ERROR_CODES } from '../../src/core/errors.js'
import { exchangeJudges } from '../../src/engine/judges.js'
import { observe } from '../../src/engine/observations.js'
import { SharedReads } from '../../src/engine/shared-reads.js'
import type { Exchange, ExchangeResponse } from '../../src/http/exchange.js'
import type { RefRequest } from '../../src/reference/types.js'
import { failureSummary, idsWithStatus, runAgainstReference, TEST_RETRY_POLICY } from '../support/run.js'
import { answering, withAnswer } from '../support/scripted-answers.js'

const HASH = /^\/v1\/intents\/0x[0-9a-fA-F]{64}$/
const withKey = (request: RefRequest) => request.headers['x-api-key'] !== undefined

const timedOut = withAnswer(504, { error: 'a dependency timed out' })
/** A dependency of the vault that never answers in time: every attempt of a keyed vault read gets 504. */
const vaultTimesOut = answering('vault-504', (request) => request.path === '/v1/vault' && withKey(request), timedOut)
/** Every attempt of an intent status request whose hash is malformed gets 504. */
const malformedHashTimesOut = answering(
  'malformed-hash-504',
  (request) => request.path.startsWith('/v1/intents/') && !HASH.test(request.path),
  timedOut,
)

describe('a safe read answered 502, 503 or 504 on every attempt', () => {
  test('leaves the checks that needed it not assessed, naming the status and the attempts, and fails none', async () => {
    const report = await runAgainstReference({ behaviours: [vaultTimesOut] })
    expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([])
    const notRun = report.checks.filter((c) => c.status === 'not run')
    expect(
      notRun.map((c) => c.id),
      'the vault checks are not assessed',
    ).toEqual(
      expect.arrayContaining(['shapes/vault-members', 'shapes/operations-answer-200', 'envelope/checkpoint-type']),
    )
    for (const check of notRun) {
      expect(check.reason, check.id).toBe(
        `not assessed: the target answered 504 to ${TEST_RETRY_POLICY.maxAttempts} attempts of GET /v1/vault, a transient failure of a dependency; what this check needed of that read was not observed`,
      )
      expect(
        check.evidence?.retries?.map((r) => r.status),
        `${check.id}: the attempts are in the evidence`,
      ).toEqual(Array(TEST_RETRY_POLICY.maxAttempts - 1).fill(504))
    }
    expect(report.summary.notRun).toBe(notRun.length)
    // What did not need the vault is judged as ever.
    expect(report.checks.find((c) => c.id === 'shapes/market-members')?.status).toBe('passed')
    // The 504s are still responses: their own shape rules judged them, and found them fine.
    expect(report.checks.find((c) => c.id === 'every-response/error-body')?.status).toBe('passed')
  })

  test('in the coverage phase of a property check, leaves the check not assessed instead of failed', async () => {
    const report = await runAgainstReference(
      { behaviours: [malformedHashTimesOut] },
      {},
      { only: ['properties/malformed-hash-rejected', 'intents/malformed-hash-refused'] },
    )
    for (const id of ['properties/malformed-hash-rejected', 'intents/malformed-hash-refused']) {
      const outcome = report.checks.find((c) => c.id === id)!
      expect(outcome.status, `${id}: ${outcome.reason}`).toBe('not run')
      expect(outcome.reason).toMatch(/^not assessed: the target answered 504 to \d+ attempts of GET \/v1\/intents\//)
    }
    expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([])
  })
})

describe('a read answered 500', () => {
  test('that repeats on the retry fails the operation, with both attempts in the evidence', async () => {
    const report = await runAgainstReference(
      { faults: ['vault-internal-error'] },
      {},
      { only: ['shapes/operations-answer-200'] },
    )
    const check = report.checks.find((c) => c.id === 'shapes/operations-answer-200')!
    expect(check.status).toBe('failed')
    expect(check.evidence?.response?.status).toBe(500)
    expect(
      check.evidence?.retries?.map((r) => r.status),
      'the first 500 is noted',
    ).toEqual([500])
    const rule = report.checks.find((c) => c.id === 'every-response/allowed-request-not-500')!
    expect(rule.status).toBe('failed')
    expect(rule.reason).toContain('was answered 500 to a retry too: the operation failed to serve it')
  })

  test('once, then served, is judged by its second answer: nothing fails, and the checks say they depended on a retry', async () => {
    const report = await runAgainstReference({ allowances: ['server-error-once-on-reads'] })
    expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([])
    expect(report.checks.filter((c) => c.retried).length, 'the allowance answered no read 500').toBeGreaterThan(0)
    // The first 500 of each was seen as a response (its error body judged), not as the operation's answer.
    expect(report.checks.find((c) => c.id === 'every-response/allowed-request-not-500')?.status).toBe('passed')
  })

  test.each<AllowanceName>(['transient-503-on-reads', 'transient-504-on-reads'])(
    'a transient %s once, then served, is retried and judged by its second answer',
    async (allowance) => {
      const report = await runAgainstReference({ allowances: [allowance] })
      expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([])
      expect(report.checks.filter((c) => c.status === 'not run').map((c) => c.id)).toEqual([])
      expect(
        report.checks.filter((c) => c.retried).length,
        'the allowance answered no read with a transient status',
      ).toBeGreaterThan(0)
    },
  )
})

describe('the shared reads of a run', () => {
  const answered = (status: number): Exchange => ({
    request: { method: 'GET', url: 'http://127.0.0.1/v1/vault', headers: {} },
    response: { status, headers: {}, body: '', truncated: false },
    durationMs: 0,
    retries: [],
  })

  test('send a read that was answered transiently again for a later asker, and share one that was answered', async () => {
    const reads = new SharedReads()
    const statuses = [504, 200, 500]
    let sent = 0
    const send = async () => answered(statuses[sent++]!)
    expect((await reads.read('vault', 'a', send)).response?.status).toBe(504)
    expect((await reads.read('vault', 'b', send)).response?.status, 'the 504 was handed to a later asker').toBe(200)
    expect((await reads.read('vault', 'c', send)).response?.status, 'the answer was not shared').toBe(200)
    expect(sent).toBe(2)
    expect(
      reads.exchanges.map((e) => [e.sentBy, e.exchange.response?.status]),
      'both reads are judged and logged',
    ).toEqual([
      ['a', 504],
      ['b', 200],
    ])
  })

  test('compute a result again for a later asker when its computing met a read that was not assessed, and not otherwise', async () => {
    const reads = new SharedReads()
    let computed = 0
    const notAssessed = Object.assign(new Error('not assessed'), { code: ERROR_CODES.checkNotRun })
    const compute = async () => {
      computed++
      if (computed === 1) throw notAssessed
      return computed
    }
    await expect(reads.once('walk', compute)).rejects.toBe(notAssessed)
    expect(await reads.once('walk', compute)).toBe(2)
    expect(await reads.once('walk', compute), 'the walk was computed again').toBe(2)
    expect(computed).toBe(2)
  })
})

describe('the observer of a run', () => {
  const judged = ['auth/missing-key', 'every-response/error-body', 'every-response/allowed-request-not-500']
  const judges = exchangeJudges().filter((judge) => judged.includes(judge.id))
  const errorResponse = (status: number): ExchangeResponse => ({
    status,
    headers: { 'content-type': 'application/json' },
    body: '{"error":"e"}',
    json: { error: 'e' },
    truncated: false,
  })
  /** A keyless vault read answered `status` after the attempts `earlier`. */
  const keyless = (status: number, earlier: number[] = []): Exchange => ({
    operation: 'getVault',
    request: { method: 'GET', url: 'http://127.0.0.1/v1/vault', headers: { accept: 'application/json' } },
    response: errorResponse(status),
    durationMs: 0,
    retries: earlier.map((attempt) => ({ status: attempt, waitedMs: 0, response: errorResponse(attempt) })),
  })

  test('judges an attempt the client sent again, and a transient answer, only by the rules of a response as such', () => {
    const observations = observe([keyless(401, [500]), keyless(504, [502, 503])], {}, [], judges)
    expect(observations['auth/missing-key'], 'only the 401 is an answer').toEqual({
      applied: 1,
      violated: 0,
      violations: [],
    })
    expect(observations['every-response/allowed-request-not-500']).toEqual({ applied: 1, violated: 0, violations: [] })
    expect(observations['every-response/error-body']?.applied, 'every attempt is a response').toBe(5)
  })

  test('judges a 500 that repeated as the answer', () => {
    const observations = observe([keyless(500, [500])], {}, [], judges)
    expect(observations['auth/missing-key']?.violations.map((v) => v.message)).toEqual([
      'answered 500 to a request without X-API-Key, expected 401',
    ])
    expect(observations['every-response/allowed-request-not-500']?.violations.map((v) => v.message)).toEqual([
      'a request the contract allows to getVault was answered 500 to a retry too: the operation failed to serve it',
    ])
  })
})
