import { describe, expect, test } from 'vitest'
import { schemaPattern } from '../../src/contract/schemas.js'
import { garbageApiKeyCoverage } from '../../src/generators/api-keys.js'
import {
  characterProbes,
  dangerousWholeValues,
  INJECTION_SHAPES,
  METACHARACTERS,
  VERY_LONG,
  type CoverageCase,
} from '../../src/generators/coverage.js'
import { malformedHexIdentifierCoverage } from '../../src/generators/hex-identifiers.js'
import { nearMissCoverage } from '../../src/generators/near-misses.js'
import { receiptBounds, wrongReceiptCoverage } from '../../src/generators/receipts.js'
import { invalidRequestIdCoverage, validRequestIdCoverage } from '../../src/generators/request-ids.js'

/**
 * The fixed coverage phase's cases (src/generators), each list whole and in order, written out here rather than
 * rebuilt from the tables they come from: a boundary or a dangerous value dropped, shifted or moved fails a test.
 */

const COLLIDING = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'null', 'undefined', 'NaN', 'true']
const METAS = ['/', '..', '%2F', '?', '#', '&', '=']
const INJECTIONS = ["'", '"', ';', '$', '{}', '${7*7}']
const INTEGERS = ['2147483648', '9007199254740993', '18446744073709551616', '-1', '1e3']
const DANGEROUS = [...COLLIDING, ...METAS, ...INJECTIONS, ...INTEGERS]
/** Unicode shapes, whitespace and control characters, in the order characterProbes places them. */
const PROBES = [
  '\u00e9',
  'e\u0301',
  '\u202e',
  '\u05d0',
  '\u{1f600}',
  'A\u030a',
  '\uff10',
  ' ',
  '\t',
  '\u00a0',
  '\n',
].concat(['\u0000', '\u001b', '\u007f'])

const values = <T>(cases: readonly CoverageCase<T>[]) => cases.map((c) => c.value)
const repeatTo = (text: string, length: number) => text.repeat(Math.ceil(length / text.length)).slice(0, length)
/** Printable ASCII, space to tilde, in code order. */
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i))

describe('the dangerous values and character probes', () => {
  test('are these, in this order', () => {
    expect(values(dangerousWholeValues())).toEqual(DANGEROUS)
    expect([...METACHARACTERS, ...INJECTION_SHAPES]).toEqual([...METAS, ...INJECTIONS])
    expect(values(characterProbes((text) => `[${text}]`, 'in brackets'))).toEqual(PROBES.map((text) => `[${text}]`))
  })

  test('very long is 4096 characters, the length docs/checks.md names', () => {
    expect(VERY_LONG).toBe(4096)
  })
})

describe('X-Request-ID cases', () => {
  const allowed = /^[A-Za-z0-9._:-]$/

  test('valid: both bounds, each punctuation at both, and the dangerous values of 8 characters or more', () => {
    // toString is 8 characters, just inside the bound; null, NaN, true and the short integers are outside it.
    expect(values(validRequestIdCoverage())).toEqual([
      repeatTo('a1', 8),
      repeatTo('Z9', 128),
      repeatTo('-.:_a', 8),
      repeatTo('b-.:_', 128),
      'constructor',
      '__proto__',
      'toString',
      'hasOwnProperty',
      'undefined',
      '2147483648',
      '9007199254740993',
      '18446744073709551616',
    ])
  })

  test('invalid: the lengths, then each excluded ASCII character in code order, then each probe, inside an ID', () => {
    const inside = (text: string) => `abcd${text}efgh`
    expect(values(invalidRequestIdCoverage())).toEqual([
      '',
      'a',
      repeatTo('a1', 7),
      repeatTo('Z9', 129),
      repeatTo('Y8', 4096),
      ...PRINTABLE.filter((c) => !allowed.test(c)).map(inside),
      ...PROBES.map(inside),
    ])
  })
})

describe('wrong receipt cases', () => {
  const { min, max } = receiptBounds()

  test('are min and max, the real one with one character around it, its near misses, probes, dangerous values', () => {
    const real = 'rcpt_0123456789abcdef'
    expect([min, max]).toEqual([1, 512])
    expect(values(wrongReceiptCoverage(real))).toEqual([
      'R',
      'R'.repeat(512),
      real + 'R'.repeat(512 - real.length),
      `${real}x`,
      `x${real}`,
      ` ${real}`,
      ...values(nearMissCoverage(real, 'the real receipt', 'url')),
      ...PROBES.map((text) => real + text),
      ...DANGEROUS,
    ])
  })

  test('of a real receipt at the upper bound keep only what stays within it', () => {
    const real = 'Ab'.repeat(256)
    expect(values(wrongReceiptCoverage(real))).toEqual([
      'R',
      'R'.repeat(512),
      'aB'.repeat(256),
      real.slice(0, -1),
      real.slice(1),
      `${real.slice(0, -1)}c`,
      `B${real.slice(1)}`,
      '\uff21\uff42'.repeat(256),
      ...DANGEROUS,
    ])
  })
})

describe('garbage API key cases', () => {
  test('are empty, one character, very long, each real key with one added, probes inside, dangerous values', () => {
    const keyShaped = 'ipts0conformance0garbage0key'
    expect(values(garbageApiKeyCoverage(['key-one-0123', 'key-two-4567']))).toEqual([
      '',
      'k',
      repeatTo(keyShaped, 4096),
      'key-one-0123x',
      'xkey-one-0123',
      'key-two-4567x',
      'xkey-two-4567',
      ...PROBES.map((text) => `ipts0con${text}formance0garbage0key`),
      ...DANGEROUS,
    ])
  })
})

describe('malformed hex identifier cases', () => {
  test.each([
    ['Hash', 64],
    ['Address', 40],
  ] as const)('of %s: lengths, prefixes, a character for a digit, whitespace, dangerous values', (schema, digits) => {
    const hex = repeatTo('c0De', digits)
    const known = `0x${hex}`
    const forSecondDigit = (text: string) => `0xc${text}${hex.slice(2)}`
    const cases = values(malformedHexIdentifierCoverage(schema, [known]))
    expect(cases).toEqual([
      '0',
      '0x',
      known.slice(0, -1),
      `${known}0`,
      `0x${repeatTo(hex, 4096)}`,
      `0X${hex}`,
      hex,
      `0x\uff43${hex.slice(1)}`,
      ...[...'gGxz -.%+:_'].map(forSecondDigit),
      ...PROBES.map(forSecondDigit),
      ...[...METAS, ...INJECTIONS].map(forSecondDigit),
      ` ${known}`,
      `${known} `,
      `${known}\n`,
      ...COLLIDING,
      ...INTEGERS,
    ])
    expect(cases.filter((id) => schemaPattern(schema).test(id))).toEqual([])
  })
})
