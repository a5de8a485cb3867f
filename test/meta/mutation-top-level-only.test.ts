import { describe, expect, test } from 'vitest'
import { strykerPlugins } from '../../mutation/top-level-only.mjs'
import { mutantsOf } from '../../scripts/mutation-pragmas.js'

/**
 * The mutants StrykerJS makes of a module under the static parts' ignorer, as `line: replacement` (lines from 1): those
 * it keeps and those it leaves to the other parts.
 */
async function sorted(lines: string[]): Promise<{ kept: string[]; left: string[] }> {
  const mutants = await mutantsOf(new Map([['module.ts', lines.join('\n')]]), [strykerPlugins[0].value])
  const named = (status: 'kept' | 'left') =>
    mutants
      .filter((m) => (m.status === 'Ignored') === (status === 'left'))
      .map((m) => `${m.location.start.line + 1}: ${m.replacement}`)
  return { kept: named('kept'), left: named('left') }
}

describe('the ignorer of the static parts (mutation/top-level-only.mjs): the code a module runs as it loads', () => {
  test('keeps top-level code and a static field; leaves the body of a function run later and an instance field', async () => {
    const { kept, left } = await sorted([
      'const LIMIT = 10 + 1',
      'export function later(n: number) {',
      '  return n > LIMIT',
      '}',
      'class Counter {',
      '  static readonly start = 1 + 1',
      '  count = 2 + 2',
      '}',
    ])
    expect(kept).toEqual(['1: 10 - 1', '6: 1 - 1'])
    expect(left).toEqual(['2: {}', '3: true', '3: false', '3: n >= LIMIT', '3: n <= LIMIT', '7: 2 - 2'])
  })

  test('keeps the body of a function that top-level code calls by its name, not the functions that body makes', async () => {
    const { kept, left } = await sorted([
      'function ruleFor(name: string) {',
      '  const title = `every ${name} is listed`',
      '  return { title, applies: (value: string) => value.length > 0 }',
      '}',
      'const build = (name: string) => ruleFor(name.trim())',
      'export const rules = [build(" a "), build(" b ")]',
    ])
    expect(kept).toEqual(expect.arrayContaining(['2: ``', '3: {}', '5: name', '6: ""']))
    expect(left).toEqual(['3: true', '3: false', '3: value.length >= 0', '3: value.length <= 0'])
  })

  test('keeps the callbacks of array methods and of a function called at once, not those kept for later', async () => {
    const { kept, left } = await sorted([
      "export const ids = ['a', 'b'].filter((id) => id !== 'b').map((id) => `${id}!`)",
      'export const many = (() => {',
      '  return ids.length > 1',
      '})()',
      "export const sorted = Array.from(ids, (id) => id + '?').sort((a, b) => a.localeCompare(b))",
      "setTimeout(() => console.log('later'), 10)",
      "export const handlers = { stop: () => console.log('stopped') }",
    ])
    expect(kept).toEqual(expect.arrayContaining(["1: id === 'b'", '1: ``', '3: ids.length <= 1', '5: ""']))
    expect(left).toEqual(['6: ""', '7: ""'])
  })

  test('leaves a function called only by one run later that comes before it, its call wrapped in mutants', async () => {
    const { kept, left } = await sorted([
      "export const rules = [{ id: 'a', applies: (n: number) => helper(n) > 0 && n < 10 }]",
      'function helper(n: number) {',
      '  return n + 1',
      '}',
    ])
    expect(kept).toEqual(expect.arrayContaining(['1: ""', '1: {}']))
    expect(left).toEqual(expect.arrayContaining(['2: {}', '3: n - 1']))
  })

  test('leaves a function that only a function run later calls, and one that calls itself', async () => {
    const { kept, left } = await sorted([
      'function helper(n: number) {',
      '  return n * 2',
      '}',
      'function loop(n: number): number {',
      '  return n > 0 ? loop(n - 1) : 0',
      '}',
      'export function later() {',
      '  return helper(1) + loop(2)',
      '}',
    ])
    expect(kept).toEqual([])
    expect(left).toEqual(
      expect.arrayContaining(['1: {}', '2: n / 2', '4: {}', '5: n + 1', '7: {}', '8: helper(1) - loop(2)']),
    )
  })
})
