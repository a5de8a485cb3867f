import { describe, expect, test } from 'vitest'
import {
  addRoundSpan,
  assessedLine,
  belowMinimum,
  interruptedReason,
  interruptionCause,
  interruptionLine,
  provenance,
  resamplingLine,
  type CheckOutcome,
  type CoverageSummary,
  type Report,
  type Resampling,
  type RoundSpan,
  type TrafficSummary,
  TIMELINE_SPANS,
} from '../../src/core/report.js'

/**
 * The lines a report's reader reads (src/core/report.ts): what cut a run short, how much it assessed, what the reads
 * after the checks did and where the exchanges came from, each at the edges of the values it turns on.
 */

describe('what cut a run short', () => {
  test('an abort reason that names SIGINT or SIGTERM is that signal; any other reason is the caller’s abort', () => {
    expect(interruptionCause('SIGINT')).toBe('SIGINT')
    expect(interruptionCause('SIGTERM')).toBe('SIGTERM')
    for (const reason of ['SIGHUP', 'sigint', undefined, null, new Error('SIGINT'), 'max-duration'])
      expect(interruptionCause(reason), String(reason)).toBe('abort')
  })

  test.each([
    ['max-duration', "not run: the run's time bound (--max-duration) had passed"],
    ['abort', 'interrupted: the caller aborted the run'],
    ['SIGINT', 'interrupted by SIGINT'],
    ['SIGTERM', 'interrupted by SIGTERM'],
  ] as const)('a check cut off by %s reads "%s"', (by, reason) => {
    expect(interruptedReason(by)).toBe(reason)
  })
})

describe('the share assessed', () => {
  const coverage = (assessed: number, observable: number, minimum?: number): CoverageSummary => ({
    assessed,
    observable,
    percent: Math.floor((assessed * 1000) / observable) / 10,
    ...(minimum === undefined ? {} : { minimum }),
  })

  test('without --min-assessed no share is below it, even none at all', () => {
    expect(belowMinimum(coverage(0, 10))).toBe(false)
  })

  test.each([
    [7, 10, 70, false],
    [7, 10, 69.9, false],
    [7, 10, 70.1, true],
    [7, 10, 100, true],
    [10, 10, 100, false],
    [0, 10, 0, false],
    [0, 10, 0.1, true],
  ])('%i of %i against a minimum of %s%%: below it is %s', (assessed, observable, minimum, below) => {
    expect(belowMinimum(coverage(assessed, observable, minimum))).toBe(below)
  })

  test('the line states the counts and the share, and the minimum only when the share is below it', () => {
    expect(assessedLine(coverage(41, 58))).toBe('assessed 41 of 58 observable requirements (70.6%)')
    expect(assessedLine(coverage(41, 58, 70))).toBe('assessed 41 of 58 observable requirements (70.6%)')
    expect(assessedLine(coverage(41, 58, 75))).toBe(
      'assessed 41 of 58 observable requirements (70.6%), below the 75% --min-assessed asks for',
    )
  })
})

describe('the reads after the checks', () => {
  const soak: Resampling = { kind: 'soak', rounds: 7, requests: 84, quotaRefusals: 0, durationMs: 41_499, rate: 2 }

  test('a soak states its rounds, requests, whole seconds (rounded) and rate', () => {
    expect(resamplingLine(soak)).toBe('soak: 7 rounds, each on new connections, 84 requests in 41 s (at most 2/s)')
    expect(resamplingLine({ ...soak, durationMs: 41_500 })).toContain('84 requests in 42 s')
  })

  test('the 429s waited out are named only when there were some', () => {
    expect(resamplingLine({ ...soak, quotaRefusals: 1 })).toBe(
      'soak: 7 rounds, each on new connections, 84 requests in 41 s (at most 2/s), 1 × 429 waited out',
    )
    const sweep: Resampling = { kind: 'last sweep', rounds: 1, requests: 12, quotaRefusals: 0, durationMs: 900 }
    expect(resamplingLine(sweep)).toBe('last sweep: 12 requests on a new connection')
    expect(resamplingLine({ ...sweep, quotaRefusals: 3 })).toBe(
      'last sweep: 12 requests on a new connection, 3 × 429 waited out',
    )
  })
})

describe("a soak's timeline once merged", () => {
  const round = (n: number): RoundSpan => ({
    first: n,
    last: n,
    at: new Date(Date.UTC(2026, 10, 26) + n * 1000).toISOString(),
    durationMs: 500,
    requests: 1,
    violations: 0,
  })

  test('a new round joins the last entry until it covers as many rounds as the first', () => {
    const timeline: RoundSpan[] = []
    for (let n = 1; n <= TIMELINE_SPANS + 1; n++) addRoundSpan(timeline, round(n))
    expect(timeline).toHaveLength(TIMELINE_SPANS / 2 + 1)
    expect(timeline.at(-1)).toMatchObject({ first: TIMELINE_SPANS + 1, last: TIMELINE_SPANS + 1 })
    addRoundSpan(timeline, round(TIMELINE_SPANS + 2))
    expect(timeline).toHaveLength(TIMELINE_SPANS / 2 + 1)
    expect(timeline.at(-1)).toMatchObject({ first: TIMELINE_SPANS + 1, last: TIMELINE_SPANS + 2, durationMs: 1500 })
    addRoundSpan(timeline, round(TIMELINE_SPANS + 3))
    expect(timeline).toHaveLength(TIMELINE_SPANS / 2 + 2)
    expect(timeline.at(-1)).toMatchObject({ first: TIMELINE_SPANS + 3, last: TIMELINE_SPANS + 3 })
  })
})

describe("a report's provenance", () => {
  const traffic = (more: Partial<TrafficSummary> = {}): Report =>
    ({
      seed: 7,
      traffic: {
        source: 'har',
        exchanges: 10,
        judged: 4,
        outsideV1: 0,
        otherV1: 0,
        withoutResponse: 0,
        withoutBody: 0,
        ...more,
      },
    }) as Report

  test('a run states its seed', () => {
    expect(provenance({ seed: 1234 } as Report)).toBe('seed 1234')
  })

  test('recorded traffic states its source, exchanges and judged ones, and nothing left out when nothing was', () => {
    expect(provenance(traffic())).toBe('recorded traffic (HAR): 10 exchanges, 4 judged')
    expect(provenance(traffic({ source: 'proxy' }))).toBe('recorded traffic (proxy): 10 exchanges, 4 judged')
  })

  test.each([
    [{ outsideV1: 2 }, '2 outside /v1'],
    [{ otherV1: 1 }, '1 under /v1 but no operation'],
    [{ withoutResponse: 3 }, '3 without a response'],
    [{ withoutBody: 4 }, '4 without a recorded body'],
    [{ notJudged: 5 }, '5 in a content coding the suite cannot decode or redirected'],
    [{ malformedRequests: 6 }, '6 malformed requests the proxy answered 400 and did not forward'],
  ] as const)('%o not judged reads "%s"', (more, piece) => {
    expect(provenance(traffic(more))).toBe(`recorded traffic (HAR): 10 exchanges, 4 judged; not judged: ${piece}`)
  })

  test('every kind left out is listed, in order, comma-separated', () => {
    const all = { outsideV1: 1, otherV1: 2, withoutResponse: 3, withoutBody: 4, notJudged: 5, malformedRequests: 6 }
    expect(provenance(traffic(all))).toBe(
      'recorded traffic (HAR): 10 exchanges, 4 judged; not judged: 1 outside /v1, 2 under /v1 but no operation, ' +
        '3 without a response, 4 without a recorded body, ' +
        '5 in a content coding the suite cannot decode or redirected, ' +
        '6 malformed requests the proxy answered 400 and did not forward',
    )
  })

  test("channels, the client's breaches and the stand-ins follow, in that order", () => {
    const breach = { requirement: 'SIG-KEY', message: 'signed under another key' }
    expect(
      provenance(
        traffic({
          outsideV1: 1,
          clientRuleBreaches: [breach, breach],
          channels: { opened: 2, messages: 9 },
          standIns: { responses: 3, setAside: { 'rule/a': 2, 'rule/b': 1 } },
        }),
      ),
    ).toBe(
      'recorded traffic (HAR): 10 exchanges, 4 judged; not judged: 1 outside /v1' +
        '; 2 WebSocket channels, 9 messages recorded' +
        '; the client broke a rule for clients 2 times' +
        '; 3 with values recorded as stand-ins (not judged by rule/a in 2, rule/b in 1)',
    )
  })

  test('no breach, and stand-ins with no finding set aside, add nothing but the stand-ins’ count', () => {
    expect(provenance(traffic({ clientRuleBreaches: [], standIns: { responses: 3, setAside: {} } }))).toBe(
      'recorded traffic (HAR): 10 exchanges, 4 judged; 3 with values recorded as stand-ins',
    )
  })
})

describe('the line of a run cut short', () => {
  const check = (id: string, more: Partial<CheckOutcome> = {}): CheckOutcome => ({
    id,
    title: id,
    requirement: 'REQ',
    level: 'MUST',
    inferred: false,
    concern: 'auth',
    status: 'passed',
    ...more,
  })
  const cut = (id: string) => check(id, { status: 'not run', interrupted: true })
  // Every-response rules are no checks the line counts, cut off or not.
  const checks = [check('a'), check('b'), cut('c'), check('rule', { concern: 'every-response' })]
  const at = '2026-11-26T17:00:00.000Z'

  test('a run that ran to its end has none', () => {
    expect(interruptionLine({ checks })).toBeUndefined()
  })

  test.each([
    ['SIGINT', 'INTERRUPTED by SIGINT'],
    ['SIGTERM', 'INTERRUPTED by SIGTERM'],
    ['abort', 'INTERRUPTED by the caller'],
    ['max-duration', 'CUT SHORT by --max-duration'],
  ] as const)('cut short by %s it opens "%s" and counts the checks, not the rules', (by, opening) => {
    expect(interruptionLine({ checks, interrupted: { by, at } })).toBe(
      `${opening} after 2 of 3 checks: the verdict covers only what ran (1 not run)`,
    )
  })

  test('a rule cut off is not counted among the checks not run', () => {
    const rules = [check('a'), check('rule', { concern: 'every-response', status: 'not run', interrupted: true })]
    expect(interruptionLine({ checks: rules, interrupted: { by: 'SIGINT', at } })).toBe(
      'INTERRUPTED by SIGINT after 1 of 1 checks: the verdict covers only what ran (0 not run)',
    )
  })

  test('during a soak it says how many rounds ran and for how long; after a last sweep it does not', () => {
    const soak: Resampling = { kind: 'soak', rounds: 7, requests: 84, quotaRefusals: 0, durationMs: 40_500, rate: 2 }
    const line = (resampling: Resampling) => interruptionLine({ checks, resampling, interrupted: { by: 'SIGINT', at } })
    expect(line(soak)).toBe(
      'INTERRUPTED by SIGINT after 2 of 3 checks and 7 soak rounds (41 s): the verdict covers only what ran (1 not run)',
    )
    expect(line({ ...soak, rounds: 1, durationMs: 40_499 })).toContain('after 2 of 3 checks and 1 soak round (40 s): ')
    expect(line({ ...soak, kind: 'last sweep' })).toBe(
      'INTERRUPTED by SIGINT after 2 of 3 checks: the verdict covers only what ran (1 not run)',
    )
  })
})
