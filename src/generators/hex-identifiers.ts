import fc from 'fast-check'
import { staysInItsSegment } from '../contract/operations.js'
import { schemaPattern } from '../contract/schemas.js'
import {
  characterProbes,
  COLLIDING_IDENTIFIERS,
  EDGE_INTEGER_SAMPLE,
  INJECTION_SHAPES,
  METACHARACTERS,
  VERY_LONG,
  type CoverageCase,
} from './coverage.js'
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
export function validHexIdentifier(
  schema: HexIdentifierSchema,
  letterCase: LetterCase = 'mixed',
): fc.Arbitrary<string> {
  return fc.stringMatching(schemaPattern(schema)).map((id) => `0x${casings[letterCase](id.slice(2))}`)
}

/** Any case, each case equally likely. */
export function anyCaseHexIdentifier(schema: HexIdentifierSchema): fc.Arbitrary<string> {
  return fc.oneof(
    validHexIdentifier(schema, 'lower'),
    validHexIdentifier(schema, 'upper'),
    validHexIdentifier(schema, 'mixed'),
  )
}

/**
 * Path parameter values, so never one that addresses another path (empty, `.`, `..`: see staysInItsSegment).
 * Near misses of a well-formed identifier first (one digit short or long, `0X` or no prefix, a non-hex digit,
 * surrounding whitespace), then arbitrary text; none matches the schema's pattern. Near misses of the known
 * identifiers (of resources that exist) show a server that normalises what it should refuse: a random one only
 * gets a 404.
 */
export function malformedHexIdentifier(
  schema: HexIdentifierSchema,
  known: readonly string[] = [],
): fc.Arbitrary<string> {
  const pattern = schemaPattern(schema)
  const valid =
    known.length > 0
      ? fc.oneof(
          { weight: 1, arbitrary: validHexIdentifier(schema) },
          { weight: 3, arbitrary: fc.constantFrom(...known) },
        )
      : validHexIdentifier(schema)
  const digits = hexDigitsOf(schema)
  return fc
    .oneof(
      { weight: 2, arbitrary: valid.map((id) => id.slice(0, -1)) },
      {
        weight: 2,
        arbitrary: fc.tuple(valid, fc.constantFrom(...'0123456789abcdefABCDEF')).map(([id, extra]) => id + extra),
      },
      { weight: 2, arbitrary: valid.map((id) => `0X${id.slice(2)}`) },
      { weight: 1, arbitrary: valid.map((id) => id.slice(2)) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(valid, fc.nat(digits - 1), fc.constantFrom(...NOT_HEX))
          .map(([id, at, bad]) => id.slice(0, 2 + at) + bad + id.slice(3 + at)),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(valid, fc.constantFrom(' ', '\t', '\n'), fc.boolean())
          .map(([id, space, before]) => (before ? space + id : id + space)),
      },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 80 }) },
    )
    .filter((id) => !pattern.test(id) && staysInItsSegment(id))
}

/** ASCII characters the hex-digit class excludes, each put in place of one digit. */
const EXCLUDED_FROM_HEX = [...'gGxz -.%+:_']

/**
 * The full-width form of an ASCII character (U+FF01 to U+FF5E), which Unicode compatibility normalisation folds back.
 */
const fullWidth = (c: string) => String.fromCodePoint(c.codePointAt(0)! - 0x21 + 0xff01)

/**
 * A path parameter must stay one: never empty and never a whole `.` or `..` segment, which would address another path.
 */
const staysInPath = (value: string) => value !== '' && value !== '.' && value !== '..'

/**
 * The fixed coverage cases of malformed identifiers: lengths (1, one digit short and long, very long), the prefix
 * mistakes, each excluded or dangerous character in place of one digit of a known identifier, whitespace around it,
 * colliding identifiers and edge integers. None matches the pattern; path values are percent-encoded when sent.
 */
export function malformedHexIdentifierCoverage(
  schema: HexIdentifierSchema,
  known: readonly string[] = [],
): CoverageCase<string>[] {
  const digits = hexDigitsOf(schema)
  const base = known[0] ?? `0x${'ab'.repeat(digits / 2)}`
  const hex = base.slice(2)
  const inPlaceOfDigit = (text: string) => `0x${hex[0]}${text}${hex.slice(2)}`
  const cases: CoverageCase<string>[] = [
    { label: 'length 1', value: '0' },
    { label: 'the prefix alone', value: '0x' },
    { label: 'one digit short (min-1)', value: base.slice(0, -1) },
    { label: 'one digit long (max+1)', value: `${base}0` },
    {
      label: `very long (${VERY_LONG} digits)`,
      value: `0x${hex.repeat(Math.ceil(VERY_LONG / digits)).slice(0, VERY_LONG)}`,
    },
    { label: 'the prefix 0X', value: `0X${hex}` },
    { label: 'no prefix', value: hex },
    {
      label: 'the first digit in its full-width form (NFKC folds it back)',
      value: `0x${fullWidth(hex[0]!)}${hex.slice(1)}`,
    },
    ...EXCLUDED_FROM_HEX.map((c) => ({
      label: `the excluded character ${JSON.stringify(c)} in place of a digit`,
      value: inPlaceOfDigit(c),
    })),
    ...characterProbes(inPlaceOfDigit, 'in place of a digit'),
    ...[...METACHARACTERS, ...INJECTION_SHAPES].map((text) => ({
      label: `${JSON.stringify(text)} in place of a digit`,
      value: inPlaceOfDigit(text),
    })),
    { label: 'a space before it', value: ` ${base}` },
    { label: 'a space after it', value: `${base} ` },
    { label: 'a line feed after it', value: `${base}\n` },
    ...COLLIDING_IDENTIFIERS.map((id) => ({ label: `the identifier ${id}`, value: id })),
    ...EDGE_INTEGER_SAMPLE.map((n) => ({ label: `the integer ${n}`, value: n })),
  ]
  const pattern = schemaPattern(schema)
  return cases.filter(({ value }) => !pattern.test(value) && staysInPath(value))
}

/**
 * The fixed coverage cases of well-formed identifiers: the known ones in each letter case, and the lowest and highest.
 */
export function wellFormedHexIdentifierCoverage(
  schema: HexIdentifierSchema,
  known: readonly string[] = [],
): CoverageCase<string>[] {
  const digits = hexDigitsOf(schema)
  return [
    ...known.flatMap((id) => [
      { label: 'a known one in lower case', value: `0x${id.slice(2).toLowerCase()}` },
      { label: 'a known one in upper case', value: `0x${id.slice(2).toUpperCase()}` },
    ]),
    { label: 'all zeros', value: `0x${'0'.repeat(digits)}` },
    { label: 'all f, lower case', value: `0x${'f'.repeat(digits)}` },
    { label: 'all F, upper case', value: `0x${'F'.repeat(digits)}` },
  ]
}
