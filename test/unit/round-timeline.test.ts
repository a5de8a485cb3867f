import { describe, expect, test } from 'vitest'
import { addRoundSpan, TIMELINE_SPANS, type RoundSpan } from '../../src/core/report.js'

/** A timeline of this many rounds, each starting a second after the one before and taking 900 ms. */
function timelineOf(rounds: number): RoundSpan[] {
  const timeline: RoundSpan[] = []
  for (let round = 1; round <= rounds; round++)
    addRoundSpan(timeline, {
      first: round,
      last: round,
      at: new Date(Date.UTC(2026, 10, 26) + round * 1000).toISOString(),
      durationMs: 900,
      requests: round,
      violations: round % 7 === 0 ? 1 : 0,
    })
  return timeline
}

describe("a soak's timeline", () => {
  test('holds each round as it is while it has room', () => {
    const timeline = timelineOf(TIMELINE_SPANS)
    expect(timeline.map((span) => [span.first, span.last])).toEqual(
      Array.from({ length: TIMELINE_SPANS }, (_, i) => [i + 1, i + 1]),
    )
  })

  test.each([TIMELINE_SPANS + 1, 1000, 5003])(
    'of %i rounds: at most TIMELINE_SPANS entries of adjacent rounds, every round and count in one of them',
    (rounds) => {
      const timeline = timelineOf(rounds)
      expect(timeline.length).toBeLessThanOrEqual(TIMELINE_SPANS)
      expect(timeline[0]!.first).toBe(1)
      expect(timeline.at(-1)!.last).toBe(rounds)
      for (let i = 1; i < timeline.length; i++) expect(timeline[i]!.first, `entry ${i}`).toBe(timeline[i - 1]!.last + 1)
      expect(timeline.reduce((sum, span) => sum + span.requests, 0)).toBe((rounds * (rounds + 1)) / 2)
      expect(timeline.reduce((sum, span) => sum + span.violations, 0)).toBe(Math.floor(rounds / 7))
      // A merged entry lasts from its first round's start to its last round's end.
      const [first] = timeline
      expect(first!.durationMs).toBe((first!.last - first!.first) * 1000 + 900)
    },
  )
})
