import fc from 'fast-check'
import { staysInItsSegment } from '../contract/operations.js'
import { schemaPattern } from '../contract/schemas.js'
import { repetitionBounds } from './patterns.js'

/** Hash and Address of specs/openapi.yaml: `0x` and a fixed number of hex digits, either case. */
export type HexIdentifierSchema = 'Hash' | 'Address'
export type LetterCase = 'lower' | 'upper' | 'mixed'

const NOT_HEX = [...'gGxXzZ-_.: +#/%', '\u00e9', '\u0430']

const hexDigitsOf = (schema: HexIdentifierSchema) => repetitionBounds(schemaPattern(schema)).max

const casings: Record<LetterCase, (digits: string) => string> = {
  lower: (digits) => digits.toLowerCase(),
  upper: (digits) => digits.toUpperCase(),
  mixed: (digits) => digits,
}

/** A well-formed identifier in the given letter case (mixed: each letter either case). */
export function validHexIdentifier(schema: HexIdentifierSchema, letterCase: LetterCase = 'mixed'): fc.Arbitrary<string> {
  return fc.stringMatching(schemaPattern(schema)).map((id) => `0x${casings[letterCase](id.slice(2))}`)
}

/** Any case, each case equally likely. */
export function anyCaseHexIdentifier(schema: HexIdentifierSchema): fc.Arbitrary<string> {
  return fc.oneof(validHexIdentifier(schema, 'lower'), validHexIdentifier(schema, 'upper'), validHexIdentifier(schema, 'mixed'))
}

/**
 * Path parameter values, so never one that addresses another path (empty, `.`, `..`: see staysInItsSegment).
 * Near misses of a well-formed identifier first (one digit short or long, `0X` or no prefix, a non-hex digit,
 * surrounding whitespace), then arbitrary text; none matches the schema's pattern. Near misses of the known
 * identifiers (of resources that exist) show a server that normalises what it should refuse: a random one only
 * gets a 404.
 */
export function malformedHexIdentifier(schema: HexIdentifierSchema, known: readonly string[] = []): fc.Arbitrary<string> {
  const pattern = schemaPattern(schema)
  const valid = known.length > 0 ? fc.oneof({ weight: 1, arbitrary: validHexIdentifier(schema) }, { weight: 3, arbitrary: fc.constantFrom(...known) }) : validHexIdentifier(schema)
  const digits = hexDigitsOf(schema)
  return fc
    .oneof(
      { weight: 2, arbitrary: valid.map((id) => id.slice(0, -1)) },
      { weight: 2, arbitrary: fc.tuple(valid, fc.constantFrom(...'0123456789abcdefABCDEF')).map(([id, extra]) => id + extra) },
      { weight: 2, arbitrary: valid.map((id) => `0X${id.slice(2)}`) },
      { weight: 1, arbitrary: valid.map((id) => id.slice(2)) },
      { weight: 2, arbitrary: fc.tuple(valid, fc.nat(digits - 1), fc.constantFrom(...NOT_HEX)).map(([id, at, bad]) => id.slice(0, 2 + at) + bad + id.slice(3 + at)) },
      { weight: 2, arbitrary: fc.tuple(valid, fc.constantFrom(' ', '\t', '\n'), fc.boolean()).map(([id, space, before]) => (before ? space + id : id + space)) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 80 }) },
    )
    .filter((id) => !pattern.test(id) && staysInItsSegment(id))
}
