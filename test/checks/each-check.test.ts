import { describe, expect, test } from 'vitest'
import { checksByConcern } from '../../src/checks/index.js'
import { exchangeRules } from '../../src/checks/every-response.js'
import type { CheckId } from '../../src/contract/catalogue-ids.js'
import { relationRules } from '../../src/checks/relations.js'
import type { CheckOutcome, Report } from '../../src/core/report.js'
import { allowances, allowancesByConcern } from '../../src/reference/allowances/index.js'
import type { Fault } from '../../src/reference/types.js'
import { faults } from '../../src/reference/faults/index.js'
import { failureSummary, runAgainstReference } from '../support/run.js'
import { answering, unreadable } from '../support/scripted-answers.js'

/**
 * Each check run by itself (`only: [id]`) against the plain reference, each fault that names it, the allowances of its
 * concern and those that name it, in this process; each every-response rule under each fault that names it, seen
 * through the traffic of one check (the fault's ruleWitnesses). A check that judges every exchange of a run (its
 * `recorded` judgement) may see a fault only in another check's requests: under such a fault it runs with the checks
 * whose traffic shows it (the fault's checkWitnesses). The whole-run tests (faults.test.ts, allowances.test.ts) stay
 * the proof that a fault fails exactly its `breaks`; these tests are the ones a mutant of one check is judged by (npm
 * run mutation, per-test coverage): a run of one check reaches that check's code and the engine's, and no other check's
 * but its witnesses'. The tests go one after another, as Stryker's per-test coverage needs.
 */

const ruleIds = new Set(exchangeRules.map((rule) => rule.id))

/**
 * IPTS_EACH_CHECK_CONCERNS=cursors,every-response limits these tests to the checks of those concerns (every-response:
 * the rules), for a mutation run over a few files (npm run mutation:ci), whose initial run then runs only their tests.
 */
const concerns = process.env.IPTS_EACH_CHECK_CONCERNS?.split(',').filter(Boolean)
const selected = (concern: string) => concerns === undefined || concerns.includes(concern)

function outcomeOf(report: Report, id: string): CheckOutcome {
  const outcome = report.checks.find((c) => c.id === id)
  if (!outcome) throw new Error(`${id} is not in the report`)
  return outcome
}

/**
 * A failure's reason without what changes from run to run: the embedded server's port, the request IDs it makes up,
 * the signature of its cursors (keyed afresh by each server).
 */
function stable(reason: string | undefined): string | undefined {
  return reason
    ?.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
    .replace(/\b(gen|ref)-[0-9a-f]{16}\b/g, '$1-<random>')
    .replace(/\.[A-Za-z0-9_-]{22}(?=["\\])/g, '.<signature>')
}

/**
 * A write check's text without what a write is answered afresh each run: a fresh signed body is a new submission, with
 * a hash and a status identifier of its own, and a channel's message the time it was updated.
 */
function withoutWrittenIdentifiers(text: string | undefined): string | undefined {
  return text
    ?.replace(/\b0x[0-9a-f]{64}\b/g, '0x<written>')
    .replace(/\b([a-z]+)_[0-9a-f]{24}\b/g, '$1_<written>')
    .replace(/(updatedAt\\*":\\*")\d+/g, '$1<time>')
}

/**
 * The exchange a failure's evidence shows, as the request's method and path and the response's status: a failure
 * names the request that shows it, so that it can be reproduced.
 */
function shownExchange(evidence: CheckOutcome['evidence']): string | undefined {
  if (!evidence?.request) return undefined
  const { pathname } = new URL(evidence.request.url)
  return `${evidence.request.method} ${pathname} answered ${evidence.response?.status ?? evidence.transportError?.code}`
}

/** The every-response rules that failed in a run: the traffic of one check on a conforming target violates none. */
function failedRules(report: Report): string[] {
  return report.checks.filter((c) => ruleIds.has(c.id) && c.status === 'failed').map((c) => `${c.id}: ${c.reason}`)
}

/**
 * The checks whose traffic shows a fault to the every-response rules it breaks, when they run alone (found by running
 * every check under the fault; faults.test.ts proves it over the whole run): the fault's ruleWitnesses, or else the
 * checks of its breaks that are no rule. A rule is judged over the exchanges of the checks that ran, so its test needs
 * some check's traffic, and one check keeps it short.
 */
const ruleWitnessesOf = (fault: Fault): readonly CheckId[] =>
  fault.ruleWitnesses ?? fault.breaks.filter((id) => !ruleIds.has(id))

const ruleCases = !selected('every-response')
  ? []
  : faults.flatMap((fault) =>
      fault.breaks.filter((id) => ruleIds.has(id)).map((rule) => [rule, fault.name, fault] as const),
    )

describe.runIf(selected('every-response'))('each every-response rule', () => {
  test('has a witness for each fault that names it', () => {
    const missing = ruleCases
      .filter(([, , fault]) => ruleWitnessesOf(fault).length === 0)
      .map(([rule, name]) => `${rule} under ${name}`)
    expect(missing, 'give the fault ruleWitnesses: a check whose traffic shows it').toEqual([])
  })

  test('pass on the plain reference, through the traffic of every witness', async () => {
    const report = await runAgainstReference(
      {},
      {},
      { only: [...new Set(ruleCases.flatMap(([, , fault]) => ruleWitnessesOf(fault)))] },
    )
    expect(failedRules(report)).toEqual([])
  })

  test.each(ruleCases.filter(([, , fault]) => ruleWitnessesOf(fault).length > 0))(
    '%s fails under the fault %s, with evidence',
    async (rule, name, fault) => {
      const witnesses = ruleWitnessesOf(fault)
      const report = await runAgainstReference(
        { faults: [name] },
        { probeRateLimit: fault.run?.probeRateLimit ?? false, allowWrites: fault.run?.allowWrites ?? false },
        { only: [...witnesses] },
      )
      const outcome = outcomeOf(report, rule)
      const otherRules = failedRules(report).filter(
        (failed) => !fault.breaks.some((id) => failed.startsWith(`${id}: `)),
      )
      expect(otherRules, `rules the fault ${name} does not name failed`).toEqual([])
      expect(outcome.status, `${rule} under ${name} through ${witnesses.join(', ')}: ${outcome.reason}`).toBe('failed')
      expect(outcome.crashed, `${rule} crashed: ${outcome.reason}`).toBeFalsy()
      expect(outcome.evidence?.message, `${rule} failed without evidence`).toBeTruthy()
      expect(stable(outcome.reason)).toMatchSnapshot()
    },
  )
})

const relationIds = new Set(relationRules.map((rule) => rule.id as CheckId))

const relationCases = !selected('relations')
  ? []
  : faults.flatMap((fault) =>
      fault.breaks.filter((id) => relationIds.has(id)).map((rule) => [rule, fault.name, fault] as const),
    )

/** The soak that shows a relation's fault when the checks do not run: the rounds of one turn of the inputs. */
const SHORT_SOAK = { durationMs: 1000, rate: 200 }

/** A relation's reason without the counts that grow with the rounds a soak has time for. */
const withoutCounts = (reason: string | undefined) => stable(reason)?.replace(/^(?:one|\d+) responses? of \d+: /, '')

describe.runIf(selected('relations'))('each relation between responses', () => {
  test('passes on the plain reference, through the last sweep alone', async () => {
    const report = await runAgainstReference({}, {}, { only: [...relationIds] })
    expect(report.checks.filter((c) => relationIds.has(c.id as CheckId) && c.status !== 'passed')).toEqual([])
  })

  test.each(relationCases)('%s fails under the fault %s, with evidence of when', async (rule, name, fault) => {
    // A soak however short takes a whole turn of its inputs: each page size, letter case and key, on new connections.
    const report = await runAgainstReference(
      { faults: [name] },
      { durationMs: fault.run?.durationMs ?? SHORT_SOAK.durationMs, rate: fault.run?.rate ?? SHORT_SOAK.rate },
      { only: [rule] },
    )
    const outcome = outcomeOf(report, rule)
    expect(outcome.status, `${rule} under ${name}: ${outcome.reason}`).toBe('failed')
    expect(outcome.crashed, `${rule} crashed: ${outcome.reason}`).toBeFalsy()
    expect(outcome.evidence?.sample?.round, `${rule} names the round of its first sample`).toBeGreaterThanOrEqual(1)
    expect(withoutCounts(outcome.reason)).toMatchSnapshot()
  })
})

const recordedChecks = new Set<string>(
  Object.values(checksByConcern).flatMap((checks) => checks.filter((check) => check.recorded).map((check) => check.id)),
)

test('each check witness names a fault that breaks a check judging every exchange', () => {
  const stray = faults.flatMap((fault) =>
    (Object.keys(fault.checkWitnesses ?? {}) as CheckId[])
      .filter((id) => !recordedChecks.has(id) || !fault.breaks.includes(id))
      .map((id) => `${id} under ${fault.name}`),
  )
  expect(stray, 'a witness is for a recorded judgement the fault breaks').toEqual([])
})

/**
 * Every answer under /v1 unreadable (the description the profile names is still served): each exchange of the check
 * has no response, only its error.
 */
const STOPS_ANSWERING = answering('stops-answering', (request) => request.path.startsWith('/v1/'), unreadable)

/**
 * Checks that pass with no answer: of what an answer must not carry, which none carries, or of the description, still
 * served.
 */
const PASSES_WITHOUT_ANSWERS = new Set([
  'errors/unknown-route-serves-no-operation',
  'properties/invalid-request-id-not-echoed',
  'profile/openapi-document',
  'profile/openapi-compatible',
])

const catalogue = Object.entries(checksByConcern)
  .filter(([concern]) => selected(concern))
  .flatMap(([concern, checks]) => checks.map((check) => [check.id, concern] as const))

describe.each(catalogue)('%s run by itself', (id, concern) => {
  const steady = (text: string | undefined) =>
    concern === 'writes' || concern === 'realtime' ? withoutWrittenIdentifiers(stable(text)) : stable(text)
  test('passes against the plain reference, or skips with a reason of its own', async () => {
    // A write check sends its writes, as it does in a run with --allow-writes and the reference's profile.
    const report = await runAgainstReference({}, { allowWrites: concern === 'writes' }, { only: [id] })
    const outcome = outcomeOf(report, id)
    expect(outcome.status, failureSummary(report)).toMatch(/^(passed|skipped)$/)
    if (outcome.status === 'skipped') expect(outcome.reason, `${id} is skipped without a reason`).toBeTruthy()
    // A skip says why in words of its own: the same run skips for the same reason.
    expect(`${outcome.status}${outcome.reason === undefined ? '' : `: ${steady(outcome.reason)}`}`).toMatchSnapshot()
    expect(failedRules(report), 'an every-response rule failed on the plain reference').toEqual([])
  })

  const naming = faults.filter((fault) => fault.breaks.includes(id))
  test.each(naming.map((fault) => [fault.name, fault] as const))(
    'fails under the fault %s, with evidence',
    async (_, fault) => {
      const witnesses = fault.checkWitnesses?.[id] ?? []
      const report = await runAgainstReference(
        { faults: [fault.name] },
        { probeRateLimit: fault.run?.probeRateLimit ?? false, allowWrites: fault.run?.allowWrites ?? false },
        { only: [id, ...witnesses] },
      )
      const outcome = outcomeOf(report, id)
      expect(
        outcome.status,
        `${id} under ${fault.name}${witnesses.length > 0 ? ` through ${witnesses.join(', ')}` : ''}: ${outcome.reason}`,
      ).toBe('failed')
      expect(outcome.crashed, `${id} crashed: ${outcome.reason}`).toBeFalsy()
      expect(outcome.evidence?.message, `${id} failed without evidence`).toBeTruthy()
      // What the failure says is its evidence: the same seed finds the same thing, says it in the same words and shows
      // the same exchange.
      expect(steady(outcome.reason)).toMatchSnapshot()
      expect(steady(shownExchange(outcome.evidence)), 'the exchange the evidence shows').toMatchSnapshot()
    },
  )

  test('fails with an unanswered request as evidence, or skips, against a target that stops answering after the probe', async () => {
    // The circuit breaker trips after as many unanswered requests in a row as the concurrency: at 64, each check meets
    // its unanswered requests itself.
    const report = await runAgainstReference(
      { behaviours: [STOPS_ANSWERING] },
      { allowWrites: concern === 'writes', concurrency: 64 },
      { only: [id] },
    )
    const outcome = outcomeOf(report, id)
    expect(outcome.crashed, `${id} crashed: ${outcome.reason}`).toBeFalsy()
    expect(outcome.status, `${id}: ${outcome.reason}`).toMatch(
      PASSES_WITHOUT_ANSWERS.has(id) ? /^passed$/ : /^(failed|skipped|not run)$/,
    )
    if (outcome.status === 'failed')
      expect(outcome.evidence?.transportError, `${id} failed without the unanswered request as evidence`).toBeTruthy()
    expect(`${outcome.status}${outcome.reason === undefined ? '' : `: ${steady(outcome.reason)}`}`).toMatchSnapshot()
  })

  const relevant = allowances.filter(
    (allowance) =>
      allowancesByConcern[concern]?.includes(allowance) ||
      allowance.skips?.includes(id) ||
      allowance.readings?.includes(id),
  )
  test.each(relevant.map((allowance) => [allowance.name, allowance] as const))(
    'passes under the allowance %s, skipping only where it names the check, failing only a reading it names',
    async (_, allowance) => {
      const report = await runAgainstReference({ allowances: [allowance.name] }, allowance.run ?? {}, { only: [id] })
      const outcome = outcomeOf(report, id)
      const expected = allowance.readings?.includes(id)
        ? /^failed$/
        : allowance.skips?.includes(id)
          ? /^skipped$/
          : /^(passed|skipped)$/
      expect(outcome.status, `${id} under ${allowance.name}: ${outcome.reason}`).toMatch(expected)
      expect(`${outcome.status}${outcome.reason === undefined ? '' : `: ${steady(outcome.reason)}`}`).toMatchSnapshot()
      const otherRules = failedRules(report).filter(
        (failed) => !allowance.readings?.some((reading) => failed.startsWith(`${reading}: `)),
      )
      expect(otherRules, `an every-response rule failed under ${allowance.name}`).toEqual([])
    },
  )
})
