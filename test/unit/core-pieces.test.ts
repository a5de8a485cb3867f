import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { packageRoot } from '../../src/core/package-root.js'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { connectTimeoutFor, randomSeed, settingDefaults, withDefaults } from '../../src/core/defaults.js'
import { ERROR_CODES, isUserFixable, ProfileError, TargetUnreachableError, UsageError } from '../../src/core/errors.js'
import { valueAt } from '../../src/core/json-pointer.js'
import { yamlProblem } from '../../src/core/yaml-problem.js'

/**
 * The small pieces of src/core the rest stands on: the one line of a YAML error, the errors a user can fix, the value a
 * JSON Pointer names, and a run's defaults.
 */

const yamlError = (text: string): unknown => {
  try {
    parse(text)
  } catch (error) {
    return error
  }
  throw new Error(`${JSON.stringify(text)} parsed`)
}

describe('a YAML problem', () => {
  test.each([
    ['a: 1\na: 2\n', 'not valid YAML at line 2, column 1: Map keys must be unique'],
    ['profile:\n\tx: 1\n', 'not valid YAML at line 2, column 1: Tabs are not allowed as indentation'],
    [
      'x: 1\ny: 2\nz: [1,\n',
      'not valid YAML at line 4, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ],
  ])('of the yaml package, %j, is one line: where, then what', (text, problem) => {
    expect(yamlProblem(yamlError(text))).toBe(problem)
  })

  test('drops the position the message ends in, whatever follows it, taking the place from linePos', () => {
    const error = { message: 'Bad key: a at line 12, column 34: excerpt', linePos: [{ line: 12, col: 34 }] }
    expect(yamlProblem(error)).toBe('not valid YAML at line 12, column 34: Bad key: a')
  })

  test('without a place it says what is wrong, its first line, without a trailing colon', () => {
    expect(yamlProblem({ message: 'Implicit keys need to be on a single line:  \nexcerpt' })).toBe(
      'not valid YAML: Implicit keys need to be on a single line',
    )
    expect(yamlProblem(new Error('Unexpected end: of the stream'))).toBe(
      'not valid YAML: Unexpected end: of the stream',
    )
  })

  test('a thrown value that is no error is its text', () => {
    expect(yamlProblem('out of memory')).toBe('not valid YAML: out of memory')
  })
})

describe('the errors the suite raises', () => {
  test('a usage, profile or unreachable-target error is one a user can fix; by its code, not its class', () => {
    expect(isUserFixable(new UsageError('--runs must be a positive integer'))).toBe(true)
    expect(isUserFixable(new ProfileError('p.yaml', 'profile.quota must be object'))).toBe(true)
    expect(isUserFixable(new TargetUnreachableError('nothing answers'))).toBe(true)
    expect(isUserFixable({ code: ERROR_CODES.usage })).toBe(true)
  })

  test.each([
    ['a failed check', { code: ERROR_CODES.checkFailed }],
    ['a skipped check', { code: ERROR_CODES.checkSkipped }],
    ['a check not run', { code: ERROR_CODES.checkNotRun }],
    ['an error without a code', new Error('boom')],
    ['an empty code', { code: '' }],
    ['undefined', undefined],
    ['null', null],
  ])('%s is not', (_, error) => {
    expect(isUserFixable(error)).toBe(false)
  })

  test('each names itself and carries its code; a profile error names where, then the problem', () => {
    const profile = new ProfileError('--profile', 'cannot read p.yaml (ENOENT)')
    expect([profile.name, profile.code, profile.message]).toEqual([
      'ProfileError',
      'IPTS_PROFILE',
      '--profile: cannot read p.yaml (ENOENT)',
    ])
    const usage = new UsageError('--rate must be positive')
    expect([usage.name, usage.code, usage.message]).toEqual(['UsageError', 'IPTS_USAGE', '--rate must be positive'])
    const unreachable = new TargetUnreachableError('no answer')
    expect([unreachable.name, unreachable.code]).toEqual(['TargetUnreachableError', 'IPTS_TARGET_UNREACHABLE'])
    expect(String(usage)).toBe('UsageError: --rate must be positive')
  })
})

describe('the value a JSON Pointer names', () => {
  const json = { data: { items: [{ id: 'a' }, { id: 'b' }], 'a/b': 1, 'm~n': 2, '~1': 3, empty: null, text: 'abc' } }

  test.each([
    ['', json],
    ['/data/items/1/id', 'b'],
    ['/data/a~1b', 1],
    ['/data/m~0n', 2],
    // ~01 is ~ then 1: the ~1 is undone before the ~0, never after.
    ['/data/~01', 3],
    ['/data/empty', null],
  ])('%j names %j', (pointer, value) => {
    expect(valueAt(json, pointer)).toEqual(value)
  })

  test.each([
    ['a member that is not there', '/data/missing'],
    ['an index past the end', '/data/items/2'],
    ['a member of null', '/data/empty/id'],
    ['a member of a string, even its own length', '/data/text/length'],
    ['an inherited member', '/data/toString'],
    ['a member of a number', '/data/a~1b/x'],
  ])('%s is undefined', (_, pointer) => {
    expect(valueAt(json, pointer)).toBeUndefined()
  })

  test('a pointer into a value that is no object names nothing below it', () => {
    expect(valueAt(null, '/a')).toBeUndefined()
    expect(valueAt('abc', '/0')).toBeUndefined()
  })
})

describe("a run's defaults", () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  test('are those docs/flags.md states', () => {
    const flags = readFileSync(join(packageRoot, 'docs/flags.md'), 'utf8').split('\n')
    const documented = (flag: string) =>
      /\(default `([^`]+)`\) \|$/.exec(flags.find((line) => line.startsWith(`| \`--${flag} `)) ?? '')?.[1]
    const defaults = {
      runs: 25,
      concurrency: 8,
      timeout: 10_000,
      'max-duration': 1800,
      rate: 2,
      'cursor-param': 'cursor',
      'limit-param': 'limit',
      'max-pages': 1000,
    }
    expect(Object.fromEntries(Object.keys(defaults).map((flag) => [flag, documented(flag)]))).toEqual(
      Object.fromEntries(Object.entries(defaults).map(([flag, value]) => [flag, String(value)])),
    )
    expect(settingDefaults).toEqual({
      runs: defaults.runs,
      concurrency: defaults.concurrency,
      requestTimeoutMs: defaults.timeout,
      maxDurationMs: defaults['max-duration'] * 1000,
      rate: defaults.rate,
      cursorParam: defaults['cursor-param'],
      limitParam: defaults['limit-param'],
      maxPages: defaults['max-pages'],
      // Not a flag: a body is cut at 4 MiB (docs/benchmark.md). Probing the rate limit is opt-in.
      maxBodyBytes: 4 * 1024 * 1024,
      probeRateLimit: false,
    })
  })

  test('connecting takes at most 5 s, or the whole request bound when that is shorter', () => {
    expect(connectTimeoutFor(4999)).toBe(4999)
    expect(connectTimeoutFor(5000)).toBe(5000)
    expect(connectTimeoutFor(5001)).toBe(5000)
  })

  test('a random seed is an integer from 0 up to 2^31', () => {
    vi.spyOn(Math, 'random')
      .mockReturnValueOnce(0)
      .mockReturnValueOnce(0.5)
      .mockReturnValueOnce(1 - 2 ** -40)
    expect([randomSeed(), randomSeed(), randomSeed()]).toEqual([0, 2 ** 30, 2 ** 31 - 1])
  })

  test('a setting left out, or undefined, takes its default; the connect bound follows the request bound', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.25)
    expect(withDefaults()).toEqual({ ...settingDefaults, seed: 2 ** 29, connectTimeoutMs: 5000 })
    expect(withDefaults({ runs: undefined, requestTimeoutMs: undefined })).toEqual(withDefaults({}))
    expect(withDefaults({ requestTimeoutMs: 3000 })).toMatchObject({ requestTimeoutMs: 3000, connectTimeoutMs: 3000 })
  })

  test('a setting given wins, the seed and the connect bound too', () => {
    expect(withDefaults({ seed: 7, runs: 3, connectTimeoutMs: 100, requestTimeoutMs: 3000 })).toMatchObject({
      seed: 7,
      runs: 3,
      connectTimeoutMs: 100,
      requestTimeoutMs: 3000,
      concurrency: settingDefaults.concurrency,
    })
  })
})
