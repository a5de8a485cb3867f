import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  booleanOf,
  misspeltVariables,
  parseFlags,
  readEnvironment,
  validateFlag,
  type Flag,
} from '../../src/cli/flags.js'

/**
 * How the flags of every command are read: from argv (negative numbers, values that look like flags, lists), from the
 * environment (aliases, empty values, booleans) and against their kinds (a URL's trailing slashes, durations, lists,
 * folders), and which unknown IPTS_ variables are named as slips.
 */

const TABLE: readonly Flag[] = [
  { name: 'base-url', kind: 'url', env: 'IPTS_BASE_URL', envAliases: ['IPTS_URL'], help: '' },
  { name: 'seed', kind: 'int', min: -100, max: 100, help: '' },
  { name: 'check', kind: 'list', env: 'IPTS_CHECK', help: '' },
  { name: 'strict', kind: 'flag', env: 'IPTS_STRICT', help: '' },
  { name: 'duration', kind: 'duration', min: 1000, max: 7_200_000, help: '' },
]
const flag = (name: string) => TABLE.find((f) => f.name === name)!

describe('parseFlags', () => {
  test('a negative number after a flag that takes a value is its value, with a space or an equals sign', () => {
    expect(parseFlags(['--seed', '-5'], TABLE).values.seed).toBe('-5')
    expect(parseFlags(['--seed=-5'], TABLE).values.seed).toBe('-5')
    // After a boolean flag, a negative number is no value of it: parseArgs reads it as a flag, unknown here.
    expect(() => parseFlags(['--strict', '-5'], TABLE)).toThrow('unknown flag -5')
  })

  test('a list flag repeats or is comma-separated; other flags are single strings or booleans', () => {
    const { values, positionals } = parseFlags(['--check', 'a,b', '--check', 'c', 'file', '--strict'], TABLE)
    expect(values).toMatchObject({ check: ['a', 'b', 'c'], strict: true })
    expect(positionals).toEqual(['file'])
  })

  test('a flag without its value, at the end or before another flag, is named', () => {
    expect(() => parseFlags(['--base-url'], TABLE)).toThrow(/^--base-url needs a value$/)
    expect(() => parseFlags(['--base-url', '--strict'], TABLE)).toThrow(
      /^--base-url needs a value \(one that begins with - is written --base-url=VALUE\)$/,
    )
    expect(() => parseFlags(['-x'], TABLE)).toThrow(/^unknown flag -x \(see --help\)$/)
    // Any other mistake parseArgs finds is its own first line.
    expect(() => parseFlags(['--strict=yes'], TABLE)).toThrow(/^Option '--strict' does not take an argument$/)
  })
})

describe('validateFlag by kind', () => {
  test("a URL's trailing slashes go; a duration may have spaces around it; a list drops empty entries", () => {
    expect(validateFlag(flag('base-url'), 'http://127.0.0.1:8080/base//')).toBe('http://127.0.0.1:8080/base')
    expect(validateFlag(flag('duration'), ' 90s ')).toBe(90_000)
    expect(validateFlag(flag('check'), [' a ', '', ' ', 'b'])).toEqual(['a', 'b'])
    expect(validateFlag(flag('strict'), true)).toBe(true)
    expect(validateFlag(flag('strict'), false)).toBe(false)
  })

  test('a URL is held to http or https; a duration to a number and a unit, nothing before or after', () => {
    expect(() => validateFlag(flag('base-url'), 'ftp://127.0.0.1')).toThrow(/^--base-url must be an http or https URL/)
    for (const text of ['x90s', '90sx', '-90s'])
      expect(() => validateFlag(flag('duration'), text), text).toThrow(/^--duration must be a duration such as/)
  })

  test('a folder: not empty, and no file in the way of it, itself or a parent', () => {
    const folder: Flag = { name: 'report-dir', kind: 'folder', help: '' }
    const dir = mkdtempSync(join(tmpdir(), 'ipts-flag-folder-'))
    const file = join(dir, 'a-file')
    writeFileSync(file, '')
    expect(() => validateFlag(folder, '')).toThrow(/^--report-dir must not be empty$/)
    expect(validateFlag(folder, join(dir, 'new', 'deeper'))).toBe(join(dir, 'new', 'deeper'))
    expect(validateFlag(folder, dir)).toBe(dir)
    expect(() => validateFlag(folder, join(file, 'below'), 'IPTS_REPORT_DIR')).toThrow(
      `IPTS_REPORT_DIR must name a folder, but ${file} is a file`,
    )
  })
})

describe('the environment', () => {
  test('a variable by its name or its alias; an empty one is said and not given; booleans by their words', () => {
    const notices: string[] = []
    expect(readEnvironment(TABLE, { IPTS_URL: 'http://x', IPTS_STRICT: ' YES ' }, notices)).toEqual({
      values: { 'base-url': 'http://x', strict: true },
      sources: { 'base-url': 'IPTS_URL', strict: 'IPTS_STRICT' },
    })
    expect(readEnvironment(TABLE, { IPTS_CHECK: 'a,b' }, notices).values).toEqual({ check: ['a', 'b'] })
    expect(readEnvironment(TABLE, { IPTS_CHECK: '' }, notices).values).toEqual({})
    expect(notices).toEqual(['IPTS_CHECK is set but empty: not given'])
    expect(() => readEnvironment(TABLE, { IPTS_BASE_URL: ' ' }, [])).toThrow(/^IPTS_BASE_URL is set but empty/)
    expect(booleanOf(true, 'x')).toBe(true)
    expect(booleanOf(false, 'x')).toBe(false)
    expect(() => booleanOf('maybe', 'IPTS_STRICT')).toThrow(
      'IPTS_STRICT must be one of 1, 0, true, false, yes, no, got "maybe"',
    )
  })

  test('an unknown IPTS_ variable a slip away from a known one (or its alias) is named; farther ones are not', () => {
    expect(misspeltVariables(TABLE, { IPTS_STICT: '1', IPTS_UR: 'x', PATH: '/bin' })).toEqual([
      'IPTS_STICT is not read by any flag; did you mean IPTS_STRICT?',
      'IPTS_UR is not read by any flag; did you mean IPTS_URL?',
    ])
    // IPTS_CHECK has 5 letters after IPTS_: one edit is a slip, two are another name.
    expect(misspeltVariables(TABLE, { IPTS_CHEK: '1', IPTS_CHE: '1' })).toEqual([
      'IPTS_CHEK is not read by any flag; did you mean IPTS_CHECK?',
    ])
    expect(misspeltVariables(TABLE, { IPTS_STICT: '1' }, ['IPTS_STICT'])).toEqual([])
    expect(misspeltVariables(TABLE, { IPTS_STRICT: '1', IPTS_URL: 'x' })).toEqual([])
    // Only IPTS_ variables: another prefix a slip away is another program's.
    expect(misspeltVariables(TABLE, { XPTS_STRICT: '1' })).toEqual([])
    expect(misspeltVariables([], { IPTS_STICT: '1' })).toEqual([])
  })
})
