import { describe, expect, test } from 'vitest'
import { KEY_BOUNDS } from '../../src/contract/idempotency.js'
import { schemaPattern, validateAgainst } from '../../src/contract/schemas.js'

/**
 * The patterns of specs/openapi.yaml at their edges, as the code compiles them: schemaPattern (the generators' and the
 * header checks' RegExp) and the compiled schema (the body checks'). Each pattern has values just inside each edge (a
 * bound, each character class, each alternative) and just outside it (one more or one fewer, a character left out,
 * an anchor's text before or after).
 */

const hex = (digits: number, unit = 'aF09') => unit.repeat(Math.ceil(digits / unit.length)).slice(0, digits)

const edges: Record<string, { inside: string[]; outside: string[] }> = {
  UnsignedIntegerString: {
    inside: ['0', '1', '9', '10', '90', '9007199254740993'],
    outside: ['', '00', '01', '-1', '+1', '1.0', '1e3', ' 1', '1 ', '1\n', 'x1', '1x', '0x1', '\uff11'],
  },
  Hash: {
    inside: [`0x${hex(64)}`, `0x${'0'.repeat(64)}`, `0x${'abcdef'.repeat(11).slice(0, 64)}`, `0x${'F'.repeat(64)}`],
    outside: [
      `0x${hex(63)}`,
      `0x${hex(65)}`,
      `0X${hex(64)}`,
      hex(66),
      `0x${hex(63)}g`,
      ` 0x${hex(64)}`,
      `x0x${hex(64)}`,
    ],
  },
  Address: {
    inside: [`0x${hex(40)}`, `0x${'abcdef'.repeat(7).slice(0, 40)}`, `0x${'ABCDEF'.repeat(7).slice(0, 40)}`],
    outside: [`0x${hex(39)}`, `0x${hex(41)}`, `0X${hex(40)}`, `0x${hex(39)}G`, `a0x${hex(40)}`, `0x${hex(40)}\n`],
  },
  ErrorSelector: {
    inside: ['0x08c379a0', '0xABCDEF09', '0xabcdef00'],
    outside: ['0x08c379a', '0x08c379a00', '0X08c379a0', '08c379a0', '0x08c379ag', 'a0x08c379a0', '0x08c379a0 '],
  },
  RequestId: {
    inside: [
      'abcd1234',
      'ABCD.efg',
      'a_b:c-d.',
      '--------',
      'Zz9'.repeat(43).slice(0, 128),
      '.'.repeat(8),
      ':'.repeat(8),
    ],
    outside: [
      'abcd123',
      'a'.repeat(129),
      'abcd 1234',
      'abcd/1234',
      'abcd+1234',
      'abcd\u00e91234',
      'abcd1234\n',
      ' abcd1234',
    ],
  },
  RetryAfterSeconds: {
    inside: ['1', '9', '10', '120', '86400'],
    outside: ['0', '00', '01', '', '-1', '1.5', ' 1', '1 ', '1s', 'a1'],
  },
}

describe('the patterns of specs/openapi.yaml', () => {
  describe.each(Object.entries(edges))('%s', (name, { inside, outside }) => {
    test.each(inside)('%j matches, compiled either way', (value) => {
      expect(schemaPattern(name).test(value)).toBe(true)
      expect(validateAgainst(name, value)).toEqual([])
    })

    test.each(outside)('%j does not, compiled either way', (value) => {
      expect(schemaPattern(name).test(value)).toBe(false)
      expect(validateAgainst(name, value).map(({ keyword }) => keyword)).toContain('pattern')
    })
  })

  test("an error body's code is any text without an upper-case letter, the empty one included", () => {
    const codeViolations = (code: string) =>
      validateAgainst('ErrorBody', { error: 'refused', code }).filter(({ instancePath }) => instancePath === '/code')
    for (const code of ['', 'rate_limited', 'a', 'z', 'invalid-key 2', '\u00e9t\u00e9', '@[`{'])
      expect(codeViolations(code), code).toEqual([])
    for (const code of ['A', 'Z', 'rate_Limited', 'rate_limiteD', 'abc\nD'])
      expect(
        codeViolations(code).map(({ keyword }) => keyword),
        code,
      ).toEqual(['pattern'])
  })

  test("an Idempotency-Key's length bounds are the document's: 8 to 128, KEY_BOUNDS", () => {
    const keywordsOf = (length: number) => validateAgainst('IdempotencyKey', 'k'.repeat(length)).map((v) => v.keyword)
    expect([7, 8, 128, 129].map(keywordsOf)).toEqual([['minLength'], [], [], ['maxLength']])
    expect(KEY_BOUNDS).toEqual({ min: 8, max: 128 })
  })
})
