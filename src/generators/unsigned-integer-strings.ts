import fc from 'fast-check'
import { EDGE_INTEGERS, type CoverageCase } from './coverage.js'
import { schemaPattern } from '../contract/schemas.js'

/** An UnsignedIntegerString in [min, max]: decimal, no leading zeros. */
export function validUnsignedIntegerString(min = 0, max = Number.MAX_SAFE_INTEGER): fc.Arbitrary<string> {
  return fc.integer({ min, max }).map(String)
}

/**
 * Near misses of an unsigned decimal: a leading zero, a sign, an exponent, a fraction, hex, surrounding whitespace,
 * empty.
 */
export function invalidUnsignedIntegerString(min = 0, max = Number.MAX_SAFE_INTEGER): fc.Arbitrary<string> {
  const pattern = schemaPattern('UnsignedIntegerString')
  const number = fc.integer({ min, max })
  return fc
    .oneof(
      number.map((n) => `0${n}`),
      number.map((n) => `+${n}`),
      number.map((n) => `-${n}`),
      number.map((n) => n.toExponential()),
      number.map((n) => `${n}.0`),
      number.map((n) => `0x${n.toString(16)}`),
      number.map((n) => ` ${n}`),
      fc.constant(''),
    )
    .filter((text) => !pattern.test(text))
}

/**
 * The fixed coverage cases of hand-built offsets for a list of pages of `pageSize`: 0, 1, the next pages' offsets,
 * their near misses, and the edge integers.
 */
export function offsetCoverage(pageSize: number): CoverageCase<string>[] {
  const size = Math.max(pageSize, 1)
  return [
    { label: 'offset 0', value: '0' },
    { label: 'offset 1', value: '1' },
    { label: 'the second page', value: String(size) },
    { label: 'the third page', value: String(2 * size) },
    { label: 'the second page with a leading zero', value: `0${size}` },
    { label: 'the second page with a sign', value: `+${size}` },
    { label: 'the second page as a fraction', value: `${size}.0` },
    ...EDGE_INTEGERS.map((n) => ({ label: `the integer ${n}`, value: n })),
  ]
}
