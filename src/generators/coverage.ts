/**
 * The fixed coverage phase's building blocks: boundary and known-dangerous values, the same for every seed. Each
 * generator family combines them with its schema's bounds into a list of labelled cases (coverage-cases.ts).
 */

/** One fixed input of the coverage phase; the label says what it probes, in a failure message and docs/checks.md. */
export interface CoverageCase<T> {
  label: string
  value: T
}

/**
 * Long enough to overflow a fixed buffer or a header/URL limit set too low; short of what HTTP servers commonly refuse
 * (8 KiB).
 */
export const VERY_LONG = 4096

/**
 * Identifier-like strings that collide with lookups in a plain object or with values a loosely typed server coerces.
 */
export const COLLIDING_IDENTIFIERS = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'NaN',
  'true',
] as const

/** Path and query metacharacters, and a percent-encoding that decodes to one. */
export const METACHARACTERS = ['/', '..', '%2F', '?', '#', '&', '='] as const

/** Quote, semicolon, dollar and brace shapes of injection into SQL, shells, templates and JSON. */
export const INJECTION_SHAPES = ["'", '"', ';', '$', '{}', '${7*7}'] as const

/** Characters beyond ASCII, each with what it probes. */
export const UNICODE_SHAPES = [
  { label: 'a two-byte character', text: '\u00e9' },
  { label: 'a combining accent', text: 'e\u0301' },
  { label: 'a right-to-left override', text: '\u202e' },
  { label: 'a right-to-left letter', text: '\u05d0' },
  { label: 'an emoji (four bytes in UTF-8)', text: '\u{1f600}' },
  { label: 'a decomposed (NFD) letter', text: 'A\u030a' },
  { label: 'a full-width digit (NFKC folds it to 0)', text: '\uff10' },
] as const

/** Whitespace a server might trim or split on. */
export const WHITESPACE = [
  { label: 'a space', text: ' ' },
  { label: 'a tab', text: '\t' },
  { label: 'a no-break space', text: '\u00a0' },
  { label: 'a line feed', text: '\n' },
] as const

/** Control characters, NUL first (a C string ends there). */
export const CONTROL_CHARACTERS = [
  { label: 'NUL', text: '\u0000' },
  { label: 'an escape', text: '\u001b' },
  { label: 'DEL', text: '\u007f' },
] as const

/**
 * Integers at the edges of 32-, 53- (JavaScript's exact), 63- and 64-bit representations, their neighbours, negatives
 * and exponent forms.
 */
export const EDGE_INTEGERS = [
  '2147483647',
  '2147483648',
  '9007199254740992',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551615',
  '18446744073709551616',
  '-1',
  '-2147483649',
  '1e3',
  '1E+21',
] as const

/** For inputs that are not numbers: one of each kind of edge integer, to keep the phase affordable. */
export const EDGE_INTEGER_SAMPLE = ['2147483648', '9007199254740993', '18446744073709551616', '-1', '1e3'] as const

const cases = <T>(
  items: readonly T[],
  label: (item: T) => string,
  value: (item: T) => string,
): CoverageCase<string>[] => items.map((item) => ({ label: label(item), value: value(item) }))

/**
 * Each dangerous string as a whole value: colliding identifiers, metacharacters, injection shapes, a sample of edge
 * integers.
 */
export function dangerousWholeValues(): CoverageCase<string>[] {
  return [
    ...cases(
      COLLIDING_IDENTIFIERS,
      (id) => `the identifier ${id}`,
      (id) => id,
    ),
    ...cases(
      METACHARACTERS,
      (m) => `the metacharacter ${m}`,
      (m) => m,
    ),
    ...cases(
      INJECTION_SHAPES,
      (s) => `the injection shape ${s}`,
      (s) => s,
    ),
    ...cases(
      EDGE_INTEGER_SAMPLE,
      (n) => `the integer ${n}`,
      (n) => n,
    ),
  ]
}

/** Each character probe (unicode, whitespace, control) placed inside a base value by `place`. */
export function characterProbes(place: (text: string) => string, where: string): CoverageCase<string>[] {
  return [...UNICODE_SHAPES, ...WHITESPACE, ...CONTROL_CHARACTERS].map(({ label, text }) => ({
    label: `${label} ${where}`,
    value: place(text),
  }))
}

/**
 * Coverage cases paired in turn with choices (operations, request paths), so that each case is sent once and every
 * choice is met.
 */
export function inTurn<C, T>(choices: readonly C[], cases: readonly CoverageCase<T>[]): CoverageCase<[C, T]>[] {
  return cases.map(({ label, value }, index) => ({ label, value: [choices[index % choices.length]!, value] }))
}

/** Each case on every one of the choices: for an input class that must be tried on every operation. */
export function onEvery<C extends string, T>(
  choices: readonly C[],
  cases: readonly CoverageCase<T>[],
): CoverageCase<[C, T]>[] {
  return cases.flatMap(({ label, value }) =>
    choices.map((choice) => ({ label: `${label} (${choice})`, value: [choice, value] as [C, T] })),
  )
}
