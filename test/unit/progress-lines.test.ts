import { describe, expect, test } from 'vitest'
import type { CheckOutcome } from '../../src/core/report.js'
import { colourFor, createProgress, soakProgressLine } from '../../reporters/progress.js'

/**
 * What a run prints while it runs: the progress of its checks on a terminal and off one, its colours, and a soak's line
 * after each round.
 */

const outcome = (concern: string, status: CheckOutcome['status']): CheckOutcome => ({
  id: `${concern}/x-${status}`,
  title: 't',
  requirement: 'ENV-DATA',
  level: 'MUST',
  inferred: false,
  concern,
  status,
})

/** Everything the progress writes for these outcomes, each write apart. */
function writes(
  isTTY: boolean,
  env: NodeJS.ProcessEnv,
  checksPerConcern: Record<string, number>,
  outcomes: readonly CheckOutcome[],
): string[] {
  const written: string[] = []
  const progress = createProgress({ isTTY, write: (text: string) => written.push(text) }, env, checksPerConcern)
  for (const each of outcomes) progress.onCheck(each)
  progress.end()
  return written
}

const ENVELOPE_THEN_SHAPES = [outcome('envelope', 'passed'), outcome('envelope', 'failed'), outcome('shapes', 'passed')]
const drive = (isTTY: boolean, env: NodeJS.ProcessEnv) =>
  writes(isTTY, env, { envelope: 2, shapes: 1 }, ENVELOPE_THEN_SHAPES).join('')

describe('the progress of the checks', () => {
  test('on a terminal: one status line rewritten in place with the concern and the count, failures in red', () => {
    const text = drive(true, {})
    expect(text).toContain('shapes · 3/3 checks done · 1 failed')
    expect(text).toContain('\x1b[31mfailed\x1b[0m envelope/x-failed')
    expect(text.split('\n'), 'only the failure gets a line of its own').toHaveLength(2)
  })

  test('on a terminal: each write, the status line dimmed after each check, the line cleared before a failure and at the end', () => {
    expect(writes(true, {}, { envelope: 2, shapes: 1 }, ENVELOPE_THEN_SHAPES)).toEqual([
      '\r\x1b[K\x1b[2menvelope · 1/3 checks done · 0 failed\x1b[0m',
      '\r\x1b[K\x1b[31mfailed\x1b[0m envelope/x-failed [ENV-DATA, MUST]\n',
      '\r\x1b[K\x1b[2menvelope · 2/3 checks done · 1 failed\x1b[0m',
      '\r\x1b[K\x1b[2mshapes · 3/3 checks done · 1 failed\x1b[0m',
      '\r\x1b[K',
    ])
  })

  test('off a terminal: one line per concern once its checks are done, with the running total, whichever order they end in', () => {
    const text = writes(false, {}, { envelope: 2, shapes: 2 }, [
      outcome('envelope', 'passed'),
      outcome('shapes', 'passed'),
      outcome('envelope', 'failed'),
      outcome('shapes', 'passed'),
    ]).join('')
    expect(text).toBe(
      [
        'failed envelope/x-failed [ENV-DATA, MUST]',
        'envelope: 2 checks done, 1 failed (3 of 4 in all)',
        'shapes: 2 checks done (4 of 4 in all)',
        '',
      ].join('\n'),
    )
  })

  test('off a terminal: a concern of one check says "1 check done", and the end writes nothing', () => {
    expect(writes(false, {}, { shapes: 1 }, [outcome('shapes', 'passed')])).toEqual([
      'shapes: 1 check done (1 of 1 in all)\n',
    ])
  })

  test('on a terminal with NO_COLOR set: no colour', () => {
    const text = drive(true, { NO_COLOR: '1' })
    expect(text).not.toMatch(/\x1b\[3\dm|\x1b\[2m/)
    expect(text).toContain('failed envelope/x-failed')
  })
})

describe('colours', () => {
  test('on a terminal: red, green, dim and yellow, each reset after its text', () => {
    const paint = colourFor({ isTTY: true, write: () => true }, {})
    expect(['red', 'green', 'dim', 'yellow'].map((c) => paint(c as 'red', 'x'))).toEqual([
      '\x1b[31mx\x1b[0m',
      '\x1b[32mx\x1b[0m',
      '\x1b[2mx\x1b[0m',
      '\x1b[33mx\x1b[0m',
    ])
  })

  test.each([
    ['a stream that does not say it is a terminal', {}, {}],
    ['a stream that is no terminal', { isTTY: false }, {}],
    ['a terminal with NO_COLOR set, even empty', { isTTY: true }, { NO_COLOR: '' }],
  ])('none on %s', (_, stream, env) => {
    expect(colourFor({ ...stream, write: () => true }, env)('red', 'x')).toBe('x')
  })
})

describe("a soak's line after each round", () => {
  const round = { round: 3, elapsedMs: 61_499, durationMs: 120_500, requests: 240, quotaRefusals: 0, findings: 0 }

  test('the round, the seconds spent of the duration, the requests and the rules with findings so far', () => {
    expect(soakProgressLine(round)).toBe(
      'soak: round 3 done, 61 s of 121 s, 240 requests, 0 rules with findings so far',
    )
  })

  test('one rule with findings, the 429s waited out, and the time spent as the whole when no duration is given', () => {
    expect(soakProgressLine({ ...round, durationMs: undefined, quotaRefusals: 2, findings: 1 })).toBe(
      'soak: round 3 done, 61 s of 61 s, 240 requests, 2 × 429 waited out, 1 rule with findings so far',
    )
  })

  test('several rules with findings', () => {
    expect(soakProgressLine({ ...round, findings: 4 })).toMatch(/, 4 rules with findings so far$/)
  })
})
