import fc from 'fast-check'
import { schemaPattern } from '../contract/schemas.js'

/** An UnsignedIntegerString in [min, max]: decimal, no leading zeros. */
export function validUnsignedIntegerString(min = 0, max = Number.MAX_SAFE_INTEGER): fc.Arbitrary<string> {
  return fc.integer({ min, max }).map(String)
}

/** Near misses of an unsigned decimal: a leading zero, a sign, an exponent, a fraction, hex, surrounding whitespace, empty. */
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
