import { describe, expect, test } from 'vitest'
import { escapeHtml } from '../../reporters/html.js'
import { hasTimeline, timelineSection } from '../../reporters/html-timeline.js'
import type { CheckOutcome, Report } from '../../src/core/report.js'

/**
 * report.html's timeline drawn for reports made by hand, to the unit of its drawing (1000 wide; the axis from x 280 to
 * 990): where each round and each failure lands, the ticks and their labels, and what it says of itself.
 */

const T0 = Date.parse('2026-11-27T10:00:00.000Z')
const iso = (seconds: number) => new Date(T0 + seconds * 1000).toISOString()
const helpers = { escapeHtml, anchor: (id: string) => `check-${id}` }

const failure = (id: string, level: 'MUST' | 'SHOULD', seconds: number, more: Partial<CheckOutcome> = {}) =>
  ({
    id,
    level,
    status: 'failed',
    evidence: { message: 'm', sample: { round: 0, at: iso(seconds) } },
    ...more,
  }) as CheckOutcome

const reportOf = (more: Partial<Report>) =>
  ({ startedAt: iso(0), durationMs: 10_000, checks: [], ...more }) as unknown as Report

/** The drawing's elements, a line each. */
const partsOf = (section: string) =>
  section.slice(section.indexOf('<svg'), section.indexOf('</svg>')).split('\n').slice(1, -1)

describe("a soak's timeline", () => {
  const report = reportOf({
    resampling: {
      kind: 'soak',
      rounds: 4,
      requests: 60,
      quotaRefusals: 0,
      durationMs: 10_000,
      rate: 10,
      timeline: [
        { first: 1, last: 1, at: iso(10), durationMs: 5000, requests: 40, violations: 0 },
        { first: 2, last: 4, at: iso(15), durationMs: 5000, requests: 20, violations: 2 },
      ],
    },
    checks: [
      failure('late', 'SHOULD', 12, {
        evidence: { message: 'm', sample: { round: 2, at: iso(12), connection: { number: 2, port: 5 } } },
        samples: { showed: 3, of: 9 },
      }),
      failure('early', 'MUST', 5),
      failure('untimed', 'MUST', 0, { evidence: { message: 'm', sample: { round: 0, at: 'never' } } }),
      { ...failure('passed', 'MUST', 1), status: 'passed' },
    ],
  })
  const section = timelineSection(report, helpers)

  test('says what it draws: the rounds, over how long, how many failures', () => {
    expect(section).toContain(
      '<p>Round 0 (the checks), then 4 soak rounds over 20 s; 2 failures at the time of the first sample that showed each (hover for its round, connection and samples).</p>',
    )
    expect(section).toContain(
      '<svg class="timeline" viewBox="0 0 1000 90" width="100%" role="img" aria-label="timeline of 3 round entries and 2 findings">',
    )
  })

  test('six ticks over the time from the start to the last round, the checks, each round as tall as its share of requests, each failure on a row of its own in the order of its time', () => {
    const ticks = [0, 4, 8, 12, 16, 20].flatMap((seconds, tick) => {
      const x = (280 + seconds * 35.5).toFixed(1)
      const anchor = tick === 0 ? 'start' : tick === 5 ? 'end' : 'middle'
      return [
        `<line class="tick" x1="${x}" x2="${x}" y1="20" y2="90"/>`,
        `<text class="axis" x="${x}" y="16" text-anchor="${anchor}">+${seconds} s</text>`,
      ]
    })
    expect(partsOf(section)).toEqual([
      ...ticks,
      '<text class="label" x="4" y="38">rounds (requests; red: violations)</text>',
      '<rect class="round checks" x="280.0" y="27" width="355.0" height="14"><title>round 0: the checks</title></rect>',
      `<rect class="round" x="635.0" y="27.0" width="177.0" height="14.0"><title>round 1: 40 requests, 0 samples with violations, from ${iso(10)}</title></rect>`,
      `<rect class="round violated" x="812.5" y="34.0" width="177.0" height="7.0"><title>rounds 2 to 4: 20 requests, 2 samples with violations, from ${iso(15)}</title></rect>`,
      '<text class="label" x="4" y="58"><a href="#check-early">early</a></text>',
      `<circle class="finding must" cx="457.5" cy="54" r="5"><title>early: first seen ${iso(5)}, round 0</title></circle>`,
      '<text class="label" x="4" y="78"><a href="#check-late">late</a></text>',
      `<circle class="finding should" cx="706.0" cy="74" r="5"><title>late: first seen ${iso(12)}, round 2, connection 2 (client port 5), 3 of 9 samples</title></circle>`,
    ])
  })

  test('a round whose time cannot be read leaves the axis to the others', () => {
    const unread = structuredClone(report)
    unread.resampling!.timeline!.push({ first: 5, last: 5, at: 'never', durationMs: 5000, requests: 1, violations: 0 })
    const labels = [...timelineSection(unread, helpers).matchAll(/text-anchor="\w+">([^<]+)</g)].map(
      ([, label]) => label,
    )
    expect(labels).toEqual(['+0 s', '+4 s', '+8 s', '+12 s', '+16 s', '+20 s'])
  })

  test('a round of few requests is still 2 tall', () => {
    const thin = structuredClone(report)
    thin.resampling!.timeline![1]!.requests = 1
    expect(timelineSection(thin, helpers)).toContain(
      '<rect class="round violated" x="812.5" y="39.0" width="177.0" height="2.0">',
    )
  })
})

describe('the axis', () => {
  test('minutes and seconds from two minutes on, seconds before', () => {
    const labels = (durationMs: number) =>
      [
        ...timelineSection(reportOf({ durationMs, checks: [failure('f', 'MUST', 1)] }), helpers).matchAll(
          /text-anchor="\w+">([^<]+)</g,
        ),
      ].map(([, label]) => label)
    expect(labels(185_000)).toEqual(['+0 s', '+37 s', '+74 s', '+111 s', '+2 min 28 s', '+3 min 05 s'])
    expect(labels(600_000)).toEqual([
      '+0 s',
      '+2 min 00 s',
      '+4 min 00 s',
      '+6 min 00 s',
      '+8 min 00 s',
      '+10 min 00 s',
    ])
    expect(labels(595_000)[1], '119 s').toBe('+119 s')
  })
})

describe("recorded traffic's timeline", () => {
  test('spans its samples alone, from the first: no round of checks, whatever the time the report took', () => {
    const recorded = reportOf({
      durationMs: 999_000,
      traffic: { source: 'har', exchanges: 2, judged: 2, outsideV1: 0, otherV1: 0, withoutResponse: 0, withoutBody: 0 },
      checks: [failure('one', 'MUST', 30)],
    })
    const section = timelineSection(recorded, helpers)
    expect(section).toContain('<p>The recorded exchanges over 0 s; 1 failure at the time of the first sample')
    expect(section).toContain('<text class="label" x="4" y="38">the recorded exchanges</text>')
    expect(section).not.toContain('round checks')
    expect(section).toContain(`<circle class="finding must" cx="280.0" cy="54" r="5">`)
  })

  test("a run's last sweep after its checks", () => {
    const resampling = { kind: 'last sweep', rounds: 1, requests: 9, quotaRefusals: 0, durationMs: 1, rate: 1 } as const
    expect(timelineSection(reportOf({ resampling, checks: [failure('f', 'MUST', 1)] }), helpers)).toContain(
      '<p>Round 0 (the checks), then 1 last sweep over 10 s; 1 failure ',
    )
  })

  test('a run without rounds after its checks says so', () => {
    expect(timelineSection(reportOf({ checks: [failure('f', 'MUST', 1)] }), helpers)).toContain(
      '<p>Round 0 (the checks), then no rounds over 10 s; 1 failure ',
    )
  })
})

describe('no timeline', () => {
  test('for a report with no rounds and no failure that says when it was seen', () => {
    const report = reportOf({ checks: [failure('untimed', 'MUST', 0, { evidence: { message: 'm' } })] })
    expect(hasTimeline(report)).toBe(false)
    expect(timelineSection(report, helpers)).toBe('')
    const emptyTimeline = reportOf({
      resampling: {
        kind: 'last sweep',
        rounds: 1,
        requests: 1,
        quotaRefusals: 0,
        durationMs: 1,
        rate: 1,
        timeline: [],
      },
    })
    expect(hasTimeline(emptyTimeline)).toBe(false)
  })
})
