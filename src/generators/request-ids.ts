import fc from 'fast-check'
import { schemaPattern } from '../contract/schemas.js'
import { characterProbes, dangerousWholeValues, VERY_LONG, type CoverageCase } from './coverage.js'
import { asciiAlphabet, repetitionBounds } from './patterns.js'

const pattern = () => schemaPattern('RequestId')
const bounds = () => repetitionBounds(pattern())
const alphabet = () => asciiAlphabet(new RegExp(`^${/\[[^\]]+\]/.exec(pattern().source)![0]}$`))

const idOfLength = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet()), minLength, maxLength })

/** A valid X-Request-ID: the pattern's alphabet, lengths weighted toward both bounds. */
export function validRequestId(): fc.Arbitrary<string> {
  const { min, max } = bounds()
  return fc.oneof(idOfLength(min, min), idOfLength(max, max), idOfLength(min, max), fc.stringMatching(pattern()))
}

/** Where a character is put into an otherwise valid ID. */
const withInside = (inserted: fc.Arbitrary<string>) =>
  fc
    .tuple(idOfLength(bounds().min, 32), fc.nat(), inserted)
    .map(([id, at, text]) => id.slice(0, at % id.length) + text + id.slice(at % id.length))

/**
 * Near misses of a valid X-Request-ID: one character short or long, a space, unicode, percent-encoding, another
 * ASCII character, CR or LF inside. Surrounding whitespace is left out: HTTP strips it from a header value.
 */
export function invalidRequestId(): fc.Arbitrary<string> {
  const { min, max } = bounds()
  const valid = pattern()
  const allowed = alphabet()
  const outsideAlphabet = asciiAlphabet(/^[^ ]$/).filter((c) => !allowed.includes(c))
  return fc
    .oneof(
      idOfLength(min - 1, min - 1),
      idOfLength(max + 1, max + 1),
      withInside(fc.constant(' ')),
      withInside(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 }).filter((text) => /[^\x00-\x7f]/.test(text)),
      ),
      withInside(fc.constantFrom('%20', '%2F', '%00', '%E2%9C%93')),
      withInside(fc.constantFrom(...outsideAlphabet)),
      withInside(fc.constantFrom('\r', '\n', '\r\n')),
    )
    .filter((id) => !valid.test(id))
}

/** The header value that carries an ID on the wire: non-ASCII as its UTF-8 bytes, one latin1 character per byte. */
export function headerValueOf(id: string): string {
  return Buffer.from(id, 'utf8').toString('latin1')
}

/** Whether an HTTP client can send the value at all: undici refuses CR, LF and other control characters in a header. */
export function isSendableHeaderValue(value: string): boolean {
  return /^[\t\x20-\x7e\x80-\xff]*$/.test(headerValueOf(value))
}

const repeatTo = (text: string, length: number) => text.repeat(Math.ceil(length / text.length)).slice(0, length)

/**
 * The fixed coverage cases of valid IDs: min and max length, every allowed punctuation at both, and the dangerous
 * strings that are valid IDs.
 */
export function validRequestIdCoverage(): CoverageCase<string>[] {
  const { min, max } = bounds()
  const punctuation = alphabet()
    .filter((c) => !/[A-Za-z0-9]/.test(c))
    .join('')
  return [
    { label: `length ${min} (min)`, value: repeatTo('a1', min) },
    { label: `length ${max} (max)`, value: repeatTo('Z9', max) },
    { label: `every allowed punctuation, length ${min}`, value: repeatTo(`${punctuation}a`, min) },
    { label: `every allowed punctuation, length ${max}`, value: repeatTo(`b${punctuation}`, max) },
    ...dangerousWholeValues(),
  ].filter(({ value }) => pattern().test(value))
}

/**
 * The fixed coverage cases of invalid IDs: lengths 0, 1, min-1, max+1 and very long; each printable ASCII character
 * the pattern excludes, and each unicode, whitespace and control probe, inside an otherwise valid ID.
 */
export function invalidRequestIdCoverage(): CoverageCase<string>[] {
  const { min, max } = bounds()
  const allowed = alphabet()
  const around = (text: string) => `abcd${text}efgh`
  return [
    { label: 'length 0', value: '' },
    { label: 'length 1', value: 'a' },
    { label: `length ${min - 1} (min-1)`, value: repeatTo('a1', min - 1) },
    { label: `length ${max + 1} (max+1)`, value: repeatTo('Z9', max + 1) },
    { label: `very long (${VERY_LONG})`, value: repeatTo('Y8', VERY_LONG) },
    ...asciiAlphabet(/^.$/)
      .filter((c) => !allowed.includes(c))
      .map((c) => ({ label: `the excluded character ${JSON.stringify(c)} inside`, value: around(c) })),
    ...characterProbes(around, 'inside'),
  ].filter(({ value }) => !pattern().test(value))
}
