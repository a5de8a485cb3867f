import { describe, expect, test } from 'vitest'
import { validateFlag, type Flag } from '../../src/cli/flags.js'
import { numberProblem, validateRunOptions, valueProblem } from '../../src/runner/validate-options.js'

/**
 * The values a run's inputs are judged with, just inside and just outside each edge: the control characters a value
 * must not hold, a URL's scheme, query and fragment, a receipt's length, a number's bounds, a duration's units and
 * bounds, and the form of a replay path. A value outside is one clear line naming it, never a silent default.
 */

describe('valueProblem', () => {
  test.each([
    ['key\u001f', 'holds a control character (U+001F), copied in with the value?'],
    ['key\u007f', 'holds a control character (U+007F), copied in with the value?'],
    ['key\u0000', 'holds a control character (U+0000), copied in with the value?'],
    ['key ~', undefined],
    ['key\u0080', undefined],
  ])('a secret %j: %s', (text, problem) => {
    expect(valueProblem('secret', text)).toBe(problem)
  })

  test('free text may hold a control character', () => {
    expect(valueProblem('text', 'a\tb')).toBeUndefined()
  })

  test.each([
    ['http://127.0.0.1:8080', undefined],
    ['https://example.test/base', undefined],
    ['ftp://example.test', 'must be an http or https URL, got ftp:'],
    ['https://example.test/?a=1', 'must not carry a query or fragment'],
    ['https://example.test/#top', 'must not carry a query or fragment'],
    ['example.test', 'must be an absolute http(s) URL, got "example.test"'],
  ])('a URL %j: %s', (text, problem) => {
    expect(valueProblem('url', text)).toBe(problem)
  })

  test.each([
    ['', 'must be 1 to 512 characters'],
    ['r', undefined],
    ['r'.repeat(512), undefined],
    ['r'.repeat(513), 'must be 1 to 512 characters'],
  ])('a receipt of %#: %s', (text, problem) => {
    expect(valueProblem('receipt', text)).toBe(problem)
  })
})

describe('numberProblem', () => {
  test.each([
    [0, 'must be from 1 to 64, got 0'],
    [1, undefined],
    [64, undefined],
    [65, 'must be from 1 to 64, got 65'],
    [1.5, 'must be a whole number, got 1.5'],
  ])('%s against 1 to 64: %s', (value, problem) => {
    expect(numberProblem(value, { min: 1, max: 64 })).toBe(problem)
  })
})

describe('validateFlag', () => {
  const runs: Flag = { name: 'runs', kind: 'int', help: '', min: 1, max: 10 }
  const duration: Flag = { name: 'duration', kind: 'duration', help: '', min: 1000, max: 7_200_000 }
  const seed: Flag = { name: 'seed', kind: 'int', help: '', min: -5, max: 5 }

  test.each([
    [runs, '1', 1],
    [runs, '10', 10],
    [seed, '-5', -5],
    [duration, '1s', 1000],
    [duration, '90s', 90_000],
    [duration, '10m', 600_000],
    [duration, '2h', 7_200_000],
  ] as const)('--%s %s is %s', (flag, text, value) => {
    expect(validateFlag(flag, text)).toBe(value)
  })

  test.each([
    [runs, '0', '--runs must be from 1 to 10, got 0'],
    [runs, '11', '--runs must be from 1 to 10, got 11'],
    [runs, '1.5', '--runs must be a whole number, got "1.5"'],
    [seed, '-6', '--seed must be from -5 to 5, got -6'],
    [duration, '0s', '--duration must be from 1 s to 2 h, got "0s"'],
    [duration, '121m', '--duration must be from 1 s to 2 h, got "121m"'],
    [duration, '3h', '--duration must be from 1 s to 2 h, got "3h"'],
    [duration, '90sx', '--duration must be a duration such as 90s, 10m or 2h, got "90sx"'],
    [duration, '90', '--duration must be a duration such as 90s, 10m or 2h, got "90"'],
    [duration, '1d', '--duration must be a duration such as 90s, 10m or 2h, got "1d"'],
  ] as const)('--%s %s is refused', (flag, text, message) => {
    expect(() => validateFlag(flag, text)).toThrow(message)
  })
})

describe('a replay path', () => {
  const replay = (replayPath: string) => () =>
    validateRunOptions({ settings: { replayPath, seed: 1 }, only: ['auth/missing-key'] })

  test.each(['coverage:0', 'coverage:12', '7', '3:0:1'])('%j is one a report prints', (path) => {
    expect(replay(path)).not.toThrow()
  })

  test.each(['coverage:', 'coverage:x', '3:', ':3', '3::1', 'x', '3:0:1 '])('%j is refused, named', (path) => {
    expect(replay(path)).toThrow(`settings.replayPath must be a path a report prints`)
  })
})
