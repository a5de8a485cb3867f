import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { KEY_BOUNDS } from '../../src/contract/idempotency.js'
import { schemaPattern } from '../../src/contract/schemas.js'
import { garbageApiKey, garbageApiKeyCoverage } from '../../src/generators/api-keys.js'
import {
  characterProbes,
  COLLIDING_IDENTIFIERS,
  CONTROL_CHARACTERS,
  dangerousWholeValues,
  EDGE_INTEGER_SAMPLE,
  EDGE_INTEGERS,
  INJECTION_SHAPES,
  inTurn,
  METACHARACTERS,
  onEvery,
  UNICODE_SHAPES,
  VERY_LONG,
  WHITESPACE,
  type CoverageCase,
} from '../../src/generators/coverage.js'
import { tamper, tampering, tamperingCoverage, type Tampering } from '../../src/generators/cursor-tampering.js'
import {
  anyCaseHexIdentifier,
  malformedHexIdentifier,
  malformedHexIdentifierCoverage,
  validHexIdentifier,
  wellFormedHexIdentifierCoverage,
  type HexIdentifierSchema,
} from '../../src/generators/hex-identifiers.js'
import { idempotencyKey, UNSAFE_KEY_CHARACTERS, unsafeIdempotencyKey } from '../../src/generators/idempotency-keys.js'
import { nearMissCoverage, nearMissPlaceholder } from '../../src/generators/near-misses.js'
import { asciiAlphabet, repetitionBounds } from '../../src/generators/patterns.js'
import {
  outOfBoundsReceipt,
  outOfBoundsReceiptCoverage,
  receiptBounds,
  wrongReceipt,
  wrongReceiptCoverage,
} from '../../src/generators/receipts.js'
import {
  headerValueOf,
  invalidRequestId,
  invalidRequestIdCoverage,
  isSendableHeaderValue,
  validRequestId,
  validRequestIdCoverage,
} from '../../src/generators/request-ids.js'
import {
  invalidUnsignedIntegerString,
  offsetCoverage,
  validUnsignedIntegerString,
} from '../../src/generators/unsigned-integer-strings.js'
import { FIXED_SEED } from '../support/run.js'

/** The seeds a random part is judged over: the suite's own and others, so that no promise holds by one seed's luck. */
const SEEDS = [FIXED_SEED, 1, 7_340_033, 20_261_126]
const SAMPLES = 400

const samples = <T>(arbitrary: fc.Arbitrary<T>, seed: number) => fc.sample(arbitrary, { seed, numRuns: SAMPLES })

/** Every value of every seed holds `holds`; the first that does not is named. */
function eachHolds<T>(arbitrary: fc.Arbitrary<T>, holds: (value: T) => boolean) {
  for (const seed of SEEDS) fc.assert(fc.property(arbitrary, holds), { seed, numRuns: SAMPLES })
}

/** Each named kind is among the values of every seed. */
function eachKindMet<T>(arbitrary: fc.Arbitrary<T>, kinds: Record<string, (value: T) => boolean>) {
  for (const seed of SEEDS) {
    const values = samples(arbitrary, seed)
    for (const [kind, is] of Object.entries(kinds))
      expect(values.some(is), `no ${kind} among ${SAMPLES} values of seed ${seed}`).toBe(true)
  }
}

/** The counterexample fast-check shrinks to when `fails` is false for some value: shrinking must keep it `holds`. */
function shrinksWithin<T>(arbitrary: fc.Arbitrary<T>, fails: (value: T) => boolean, holds: (value: T) => boolean) {
  for (const seed of SEEDS) {
    const run = fc.check(
      fc.property(arbitrary, (value) => !fails(value)),
      { seed, numRuns: SAMPLES },
    )
    expect(run.failed, `seed ${seed} found no value to shrink`).toBe(true)
    const [shrunk] = run.counterexample!
    expect(holds(shrunk), `shrunk to ${JSON.stringify(shrunk)} (seed ${seed})`).toBe(true)
  }
}

const values = <T>(cases: readonly CoverageCase<T>[]) => cases.map((c) => c.value)
const labelOf = <T>(cases: readonly CoverageCase<T>[], value: T) => cases.find((c) => c.value === value)?.label
const repeatTo = (text: string, length: number) => text.repeat(Math.ceil(length / text.length)).slice(0, length)
const probeTexts = [...UNICODE_SHAPES, ...WHITESPACE, ...CONTROL_CHARACTERS].map((probe) => probe.text)

describe('unsigned integer strings', () => {
  const pattern = schemaPattern('UnsignedIntegerString')
  const inRange = (min: number, max: number) => (text: string) => Number(text) >= min && Number(text) <= max

  test('valid ones match the pattern, stay in range and reach both ends of it', () => {
    for (const [min, max] of [
      [1, 100],
      [0, 1000],
    ] as const) {
      eachHolds(validUnsignedIntegerString(min, max), (text) => pattern.test(text) && inRange(min, max)(text))
      eachKindMet(validUnsignedIntegerString(min, max), {
        [`the lowest, ${min}`]: (text) => text === String(min),
        [`the highest, ${max}`]: (text) => text === String(max),
      })
    }
    eachHolds(validUnsignedIntegerString(), (text) => pattern.test(text) && Number(text) <= Number.MAX_SAFE_INTEGER)
  })

  test('near misses never match, hold a number in range, and are each kind of near miss', () => {
    const [min, max] = [1, 100]
    const nearMiss = invalidUnsignedIntegerString(min, max)
    // Each kind's number read back, whatever its sign: a near miss of a number out of range would be refused for that.
    eachHolds(nearMiss, (text) => !pattern.test(text) && (text === '' || inRange(min, max)(text.replace(/^-/, ''))))
    const number = String.raw`([1-9][0-9]*)`
    eachKindMet(nearMiss, {
      'leading zero': (text) => new RegExp(`^0${number}$`).test(text),
      'plus sign': (text) => new RegExp(`^\\+${number}$`).test(text),
      'minus sign': (text) => new RegExp(`^-${number}$`).test(text),
      exponent: (text) => /^[1-9](\.[0-9]+)?e\+[0-9]$/.test(text),
      fraction: (text) => new RegExp(`^${number}\\.0$`).test(text),
      hex: (text) => /^0x[1-9a-f][0-9a-f]*$/.test(text),
      'leading space': (text) => new RegExp(`^ ${number}$`).test(text),
      'empty string': (text) => text === '',
    })
    eachHolds(invalidUnsignedIntegerString(), (text) => !pattern.test(text))
    shrinksWithin(
      nearMiss,
      (text) => text.length > 2,
      (text) => !pattern.test(text),
    )
  })

  test("offsets' fixed cases are 0, 1, the next two pages, their near misses and the edge integers", () => {
    const expected = (size: number) => [
      { label: 'offset 0', value: '0' },
      { label: 'offset 1', value: '1' },
      { label: 'the second page', value: String(size) },
      { label: 'the third page', value: String(2 * size) },
      { label: 'the second page with a leading zero', value: `0${size}` },
      { label: 'the second page with a sign', value: `+${size}` },
      { label: 'the second page as a fraction', value: `${size}.0` },
      ...EDGE_INTEGERS.map((n) => ({ label: `the integer ${n}`, value: n })),
    ]
    expect(offsetCoverage(25)).toEqual(expected(25))
    expect(offsetCoverage(0), 'an empty page still has a next offset').toEqual(expected(1))
  })
})

describe('idempotency keys', () => {
  const safe = /^[A-Za-z0-9-]*$/
  const keys = (count: number, length: number, pattern?: RegExp) =>
    Array.from({ length: count }, () => idempotencyKey(length, pattern))
  const charactersOf = (texts: string[]) => new Set(texts.join(''))

  test('are of the length asked for, of letters, digits and hyphens, each of them used', () => {
    for (const length of [KEY_BOUNDS.min, KEY_BOUNDS.max]) expect(idempotencyKey(length)).toHaveLength(length)
    const many = keys(200, KEY_BOUNDS.max)
    expect(many.filter((key) => !safe.test(key))).toEqual([])
    expect([...charactersOf(many)].sort().join('')).toBe(
      [...'-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'].sort().join(''),
    )
    expect(new Set(keys(20, 32)).size, 'keys are fresh each time').toBe(20)
  })

  test("take only the safe characters the profile's keyPattern takes, or all of them when it takes none", () => {
    const lowerOnly = keys(100, 64, /^[a-z]{8,128}$/)
    expect([...charactersOf(lowerOnly)].sort().join('')).toBe('abcdefghijklmnopqrstuvwxyz')
    const noSafeOne = keys(100, 64, /^[._~]{8,128}$/)
    expect(noSafeOne.filter((key) => !safe.test(key))).toEqual([])
    expect(charactersOf(noSafeOne).size, 'the whole safe alphabet').toBe(63)
  })

  test('that are unsafe hold every unsafe character between safe ones, without a pattern', () => {
    const { key, holds } = unsafeIdempotencyKey()
    expect(UNSAFE_KEY_CHARACTERS).toBe(' "<>{}')
    expect(key.slice(12, -12)).toBe(UNSAFE_KEY_CHARACTERS)
    expect(safe.test(key.slice(0, 12)) && safe.test(key.slice(-12))).toBe(true)
    expect(key.length).toBeGreaterThanOrEqual(KEY_BOUNDS.min)
    expect(holds).toBe('a space, quotes, angle brackets and braces, which no reading calls safe')
  })

  test("that are unsafe hold the first doubtful character the profile's keyPattern refuses", () => {
    const refusedBy = (pattern: RegExp) => {
      const { key, holds } = unsafeIdempotencyKey(pattern)
      expect(pattern.test(key), key).toBe(false)
      expect(pattern.test(key.slice(0, 12) + key.slice(-12)), 'the rest is of characters the pattern takes').toBe(true)
      return { middle: key.slice(12, -12), holds }
    }
    expect(refusedBy(/^[A-Za-z0-9._~-]{8,128}$/)).toEqual({
      middle: ':',
      holds: `":", which the profile's writes.keyPattern refuses`,
    })
    expect(refusedBy(/^[A-Za-z0-9._~:+/=-]{8,128}$/).middle, 'tried in their order').toBe('!')
    expect(refusedBy(/^[A-Za-z0-9._~:+/=!*-]{8,128}$/), 'then the unsafe ones').toEqual({
      middle: ' ',
      holds: `" ", which the profile's writes.keyPattern refuses`,
    })
    const { key, holds } = unsafeIdempotencyKey(/^.{8,128}$/)
    expect([key.slice(12, -12), holds]).toEqual([
      UNSAFE_KEY_CHARACTERS,
      'a space, quotes, angle brackets and braces, which no reading calls safe',
    ])
  })
})

describe('X-Request-IDs', () => {
  const pattern = schemaPattern('RequestId')
  const punctuation = ['-', '.', ':', '_']

  test('valid ones are of every length and every allowed character, and shrink to valid ones', () => {
    eachHolds(validRequestId(), (id) => pattern.test(id))
    eachKindMet(validRequestId(), {
      'ID of 8': (id) => id.length === 8,
      'ID of 128': (id) => id.length === 128,
      'ID between the bounds': (id) => id.length > 8 && id.length < 128,
      ...Object.fromEntries(punctuation.map((c) => [`ID with ${c}`, (id: string) => id.includes(c)])),
    })
    shrinksWithin(
      validRequestId(),
      (id) => id.length > 20,
      (id) => pattern.test(id),
    )
  })

  test('invalid ones are a valid ID of 8 to 32 with something put inside it, or one short or long', () => {
    eachHolds(invalidRequestId(), (id) => {
      if (pattern.test(id)) return false
      if (!/[^A-Za-z0-9._:-]/.test(id)) return id.length === 7 || id.length === 129
      const rest = id.replace(/%[0-9A-F]{2}/g, '').replace(/[^A-Za-z0-9._:-]/gu, '')
      // A grapheme put inside may bring letters of its own: only an ASCII insertion leaves the ID it went into.
      return pattern.test(rest) && (/[^\x00-\x7f]/.test(id) || rest.length <= 32)
    })
    const alone = (inside: RegExp) => (id: string) =>
      new RegExp(`^[A-Za-z0-9._:-]*(?:${inside.source})[A-Za-z0-9._:-]*$`).test(id)
    eachKindMet(invalidRequestId(), {
      'a space alone': alone(/ /),
      'another ASCII character alone': alone(/[!"#$&'()*+,/;<=>?@[\\\]^`{|}~]/),
      'something put first': (id) => /^[^A-Za-z0-9._:-]/.test(id),
      'something put in the middle': (id) => /^[A-Za-z0-9._:-]+[^A-Za-z0-9._:-]/.test(id),
      ...Object.fromEntries(
        ['%20', '%2F', '%00', '%E2%9C%93', '\r\n'].map((text) => [
          JSON.stringify(text),
          (id: string) => id.includes(text),
        ]),
      ),
      'a lone CR': (id) => /\r(?!\n)/.test(id),
      'a lone LF': (id) => /(?<!\r)\n/.test(id),
    })
    shrinksWithin(
      invalidRequestId(),
      (id) => id.length > 9,
      (id) => !pattern.test(id),
    )
  })

  test('a header value is sendable when it holds tabs, printable ASCII and UTF-8 bytes only', () => {
    for (const value of ['', ' ', '~', 'a\tb', 'abc\u00e9', '\u{1f600}'])
      expect(isSendableHeaderValue(value), value).toBe(true)
    for (const value of ['a\rb', 'a\nb', 'abc\r\n', '\u0000abc', 'a\u001fb', 'a\u007fb'])
      expect(isSendableHeaderValue(value), JSON.stringify(value)).toBe(false)
    expect(headerValueOf('\u00e9')).toBe('\u00c3\u00a9')
  })

  test('fixed valid cases are at both bounds, each allowed punctuation, and the matching dangerous strings', () => {
    const cases = validRequestIdCoverage()
    expect(cases.slice(0, 4)).toEqual([
      { label: 'length 8 (min)', value: repeatTo('a1', 8) },
      { label: 'length 128 (max)', value: repeatTo('Z9', 128) },
      { label: 'every allowed punctuation, length 8', value: repeatTo(`${punctuation.join('')}a`, 8) },
      { label: 'every allowed punctuation, length 128', value: repeatTo(`b${punctuation.join('')}`, 128) },
    ])
    const dangerous = dangerousWholeValues().filter((c) => pattern.test(c.value))
    expect(dangerous.map((c) => c.value)).toEqual(expect.arrayContaining(['constructor', '__proto__', '2147483648']))
    expect(cases.slice(4)).toEqual(dangerous)
  })

  test('fixed invalid cases are of each length, and each excluded character and probe inside a valid ID', () => {
    const cases = invalidRequestIdCoverage()
    expect(cases.slice(0, 5)).toEqual([
      { label: 'length 0', value: '' },
      { label: 'length 1', value: 'a' },
      { label: 'length 7 (min-1)', value: repeatTo('a1', 7) },
      { label: 'length 129 (max+1)', value: repeatTo('Z9', 129) },
      { label: `very long (${VERY_LONG})`, value: repeatTo('Y8', VERY_LONG) },
    ])
    const excluded = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).filter(
      (c) => !/[A-Za-z0-9._:-]/.test(c),
    )
    expect(excluded).toHaveLength(95 - 66)
    for (const c of excluded)
      expect(labelOf(cases, `abcd${c}efgh`), c).toBe(`the excluded character ${JSON.stringify(c)} inside`)
    for (const text of probeTexts) expect(values(cases), JSON.stringify(text)).toContain(`abcd${text}efgh`)
    expect(labelOf(cases, 'abcd\u0000efgh')).toBe('NUL inside')
    expect(values(cases).filter((id) => pattern.test(id))).toEqual([])
  })
})

describe('receipts', () => {
  const real = 'rcpt_0123456789abcdef'
  const { min, max } = receiptBounds()
  const receiptCharacters = /^[A-Za-z0-9_-]*$/

  test('out of bounds are empty, just over, long or the real one padded, of receipt characters', () => {
    eachHolds(outOfBoundsReceipt(real), (r) => (r.length < min || r.length > max) && r.length <= 2048)
    eachHolds(outOfBoundsReceipt(real), (r) => receiptCharacters.test(r))
    eachKindMet(outOfBoundsReceipt(real), {
      'empty receipt': (r) => r === '',
      'receipt of 513': (r) => r.length === 513 && !r.startsWith(real),
      'receipt of 514': (r) => r.length === 514,
      'receipt of 515 to 2048': (r) => r.length > 514 && !r.startsWith(real),
      'padded real receipt of 513': (r) => r.length === 513 && r.startsWith(real),
      'padded real receipt of 2048': (r) => r.length === 2048 && r.startsWith(real),
    })
    shrinksWithin(
      outOfBoundsReceipt(real),
      (r) => r.length > max,
      (r) => r.length > max,
    )
  })

  test('wrong ones are within the bounds, not the real one, and the real one with 1 to 8 characters added', () => {
    eachHolds(wrongReceipt(real), (r) => r !== real && r.length >= min && r.length <= max && receiptCharacters.test(r))
    eachKindMet(wrongReceipt(real), {
      'receipt of 1': (r) => r.length === 1,
      'receipt of 512': (r) => r.length === 512,
      'receipt between': (r) => r.length > 1 && r.length < 512 && !r.includes(real),
      'real receipt with one after it': (r) => r.length === real.length + 1 && r.startsWith(real),
      'real receipt with eight after it': (r) => r.length === real.length + 8 && r.startsWith(real),
      'real receipt with one before it': (r) => r.length === real.length + 1 && r.endsWith(real),
      'real receipt with eight before it': (r) => r.length === real.length + 8 && r.endsWith(real),
    })
    eachHolds(wrongReceipt(real), (r) => !r.includes(real) || r.length <= real.length + 8)
    // Each bound is a branch of its own, about one receipt in seven: the branch of any length alone seldom draws it.
    for (const seed of SEEDS) {
      const lengths = samples(wrongReceipt(real), seed).map((r) => r.length)
      for (const bound of [min, max])
        expect(lengths.filter((length) => length === bound).length, `length ${bound}, seed ${seed}`).toBeGreaterThan(
          SAMPLES / 20,
        )
    }
    // A real receipt at either bound: the shortest is drawn among random ones, the longest has no room for more.
    for (const edge of ['a', 'r'.repeat(max)]) eachHolds(wrongReceipt(edge), (r) => r !== edge && r.length <= max)
  })

  test('fixed cases out of bounds are empty, 513 and very long, of filler and of the real one padded', () => {
    expect(outOfBoundsReceiptCoverage(real)).toEqual([
      { label: 'length 0 (min-1)', value: '' },
      { label: 'length 513 (max+1)', value: 'R'.repeat(513) },
      { label: 'the real receipt padded to 513 (max+1)', value: real + 'R'.repeat(513 - real.length) },
      { label: `very long (${VERY_LONG})`, value: 'R'.repeat(VERY_LONG) },
      { label: `the real receipt padded to ${VERY_LONG}`, value: real + 'R'.repeat(VERY_LONG - real.length) },
    ])
  })

  test('fixed wrong cases are at both bounds, the real one with a character added, its near misses and probes', () => {
    const cases = wrongReceiptCoverage(real)
    expect(cases.slice(0, 6)).toEqual([
      { label: 'length 1 (min)', value: 'R' },
      { label: 'length 512 (max)', value: 'R'.repeat(512) },
      { label: 'the real receipt padded to 512 (max)', value: real + 'R'.repeat(512 - real.length) },
      { label: 'a character after the real receipt', value: `${real}x` },
      { label: 'a character before the real receipt', value: `x${real}` },
      { label: 'a space before the real receipt', value: ` ${real}` },
    ])
    expect(cases).toEqual(expect.arrayContaining(nearMissCoverage(real, 'the real receipt', 'url')))
    for (const text of probeTexts) expect(values(cases), JSON.stringify(text)).toContain(real + text)
    expect(labelOf(cases, `${real}\u0000`)).toBe('NUL after the real receipt')
    expect(cases).toEqual(expect.arrayContaining(dangerousWholeValues()))
    for (const edge of ['R', 'R'.repeat(max)])
      expect(values(wrongReceiptCoverage(edge)).filter((r) => r === edge || r.length > max)).toEqual([])
  })
})

describe.each<[HexIdentifierSchema, number]>([
  ['Hash', 64],
  ['Address', 40],
])('%s identifiers', (schema, digits) => {
  const pattern = schemaPattern(schema)
  const known = `0x${'aB3'.repeat(digits).slice(0, digits)}`
  const hex = known.slice(2)

  test('valid ones are in every letter case when asked for any', () => {
    const lettersOf = (id: string) => id.slice(2).replace(/[0-9]/g, '')
    eachKindMet(validHexIdentifier(schema), {
      'mixed case': (id) => /[a-f]/.test(id) && /[A-F]/.test(id),
    })
    eachKindMet(anyCaseHexIdentifier(schema), {
      'lower case': (id) => lettersOf(id) !== '' && lettersOf(id) === lettersOf(id).toLowerCase(),
      'upper case': (id) => lettersOf(id) !== '' && lettersOf(id) === lettersOf(id).toUpperCase(),
      'mixed case': (id) => /[a-f]/.test(id) && /[A-F]/.test(id),
    })
    eachHolds(validHexIdentifier(schema, 'upper'), (id) => id.startsWith('0x') && pattern.test(id))
  })

  test('malformed ones are mostly near misses of the known identifier, one change each', () => {
    const malformed = malformedHexIdentifier(schema, [known])
    eachHolds(malformed, (id) => !pattern.test(id) && id !== '' && id !== '.' && id !== '..')
    const differsAtOne = (id: string) =>
      id.length === known.length && [...id].filter((c, i) => c !== known[i]).length === 1
    eachKindMet(malformed, {
      'known one digit short': (id) => id === known.slice(0, -1),
      'known one digit long': (id) => id.startsWith(known) && /^[0-9a-fA-F]$/.test(id.slice(known.length)),
      'known with 0X': (id) => id === `0X${hex}`,
      'known without prefix': (id) => id === hex,
      'known with a non-hex first digit': (id) => differsAtOne(id) && !/[0-9a-fA-F]/.test(id[2]!),
      'known with a non-hex last digit': (id) => differsAtOne(id) && !/[0-9a-fA-F]/.test(id.at(-1)!),
      'known with a space before': (id) => id === ` ${known}`,
      'known with a tab after': (id) => id === `${known}\t`,
      'known with a line feed before': (id) => id === `\n${known}`,
      'another one digit short': (id) =>
        /^0x[0-9a-fA-F]+$/.test(id) && id.length === 1 + digits && id !== known.slice(0, -1),
      // No near miss is shorter than `digits` or longer than 3 more: text of another length is the text of no shape.
      'text of no shape': (id) => id.length < digits || id.length > digits + 3,
      // A non-ASCII character in place of a digit keeps the length: only free text brings one into text of another.
      'unicode text of no shape': (id) => (id.length < digits || id.length > digits + 3) && /[^\x00-\x7f]/.test(id),
    })
    // Without known identifiers, the near misses are of random well-formed ones: most keep a run of their hex digits.
    for (const seed of SEEDS) {
      const ids = samples(malformedHexIdentifier(schema), seed)
      const nearOne = ids.filter((id) => new RegExp(`[0-9a-fA-F]{${digits - 1}}`).test(id))
      expect(nearOne.length, `seed ${seed}`).toBeGreaterThan(SAMPLES / 2)
    }
    shrinksWithin(
      malformed,
      (id) => id.length > 3,
      (id) => !pattern.test(id) && id !== '' && id !== '.' && id !== '..',
    )
  })

  test('a digit put out of the hex class is a letter past f, a prefix letter, a separator or a look-alike', () => {
    const digitsReplaced = new Set<string>()
    for (const id of fc.sample(malformedHexIdentifier(schema, [known]), { seed: FIXED_SEED, numRuns: 5000 })) {
      if (id.length !== known.length || !id.startsWith('0x')) continue
      for (const c of id.slice(2)) if (!/[0-9a-fA-F]/.test(c)) digitsReplaced.add(c)
    }
    for (const c of ['g', 'G', 'x', 'z', '-', '_', ':', '\u00e9', '\u0430']) expect(digitsReplaced).toContain(c)
  })

  test('fixed well-formed cases are the known ones in both cases, all zeros and all f', () => {
    expect(values(wellFormedHexIdentifierCoverage(schema)), 'none known').toEqual([
      `0x${'0'.repeat(digits)}`,
      `0x${'f'.repeat(digits)}`,
      `0x${'F'.repeat(digits)}`,
    ])
    const cases = wellFormedHexIdentifierCoverage(schema, [known])
    expect(cases).toEqual([
      { label: 'a known one in lower case', value: known.toLowerCase() },
      { label: 'a known one in upper case', value: `0x${hex.toUpperCase()}` },
      { label: 'all zeros', value: `0x${'0'.repeat(digits)}` },
      { label: 'all f, lower case', value: `0x${'f'.repeat(digits)}` },
      { label: 'all F, upper case', value: `0x${'F'.repeat(digits)}` },
    ])
    expect(values(cases).filter((id) => !pattern.test(id))).toEqual([])
  })

  test('fixed malformed cases are of each length and prefix mistake, and a character in place of a digit', () => {
    const cases = malformedHexIdentifierCoverage(schema, [known])
    expect(cases.slice(0, 8)).toEqual([
      { label: 'length 1', value: '0' },
      { label: 'the prefix alone', value: '0x' },
      { label: 'one digit short (min-1)', value: known.slice(0, -1) },
      { label: 'one digit long (max+1)', value: `${known}0` },
      { label: `very long (${VERY_LONG} digits)`, value: `0x${repeatTo(hex, VERY_LONG)}` },
      { label: 'the prefix 0X', value: `0X${hex}` },
      { label: 'no prefix', value: hex },
      { label: 'the first digit in its full-width form (NFKC folds it back)', value: `0x\uff41${hex.slice(1)}` },
    ])
    const inPlaceOfSecondDigit = (text: string) => `0x${hex[0]}${text}${hex.slice(2)}`
    for (const c of 'gGxz -.%+:_')
      expect(labelOf(cases, inPlaceOfSecondDigit(c)), c).toBe(
        `the excluded character ${JSON.stringify(c)} in place of a digit`,
      )
    for (const text of probeTexts) expect(values(cases), JSON.stringify(text)).toContain(inPlaceOfSecondDigit(text))
    expect(labelOf(cases, inPlaceOfSecondDigit('\u0000'))).toBe('NUL in place of a digit')
    expect(labelOf(cases, inPlaceOfSecondDigit('${7*7}'))).toBe('"${7*7}" in place of a digit')
    expect(labelOf(cases, inPlaceOfSecondDigit('%2F'))).toBe('"%2F" in place of a digit')
    expect(cases).toEqual(
      expect.arrayContaining([
        { label: 'a space before it', value: ` ${known}` },
        { label: 'a space after it', value: `${known} ` },
        { label: 'a line feed after it', value: `${known}\n` },
        { label: 'the identifier hasOwnProperty', value: 'hasOwnProperty' },
        { label: 'the integer 9007199254740993', value: '9007199254740993' },
      ]),
    )
    // A known identifier the server gave may be anything: no case made of it is well-formed or addresses another path.
    for (const odd of ['0x.', '0x..', `0x${'a'.repeat(digits + 1)}`]) {
      const made = values(malformedHexIdentifierCoverage(schema, [odd]))
      expect(
        made.filter((id) => pattern.test(id) || ['', '.', '..'].includes(id)),
        odd,
      ).toEqual([])
    }
    const withoutKnown = malformedHexIdentifierCoverage(schema)
    expect(labelOf(withoutKnown, `0x${'ab'.repeat(digits / 2)}0`)).toBe('one digit long (max+1)')
  })
})

describe('garbage API keys', () => {
  const realKeys = ['ipts_full_0123456789abcdef', 'ipts_restricted_fedcba9876543210']
  const keyCharacters = /^[A-Za-z0-9_-]+$/

  test('are key-shaped, free text, or a real key with 1 to 3 key characters added', () => {
    const added = (key: string) =>
      realKeys.flatMap((real) => [
        key.startsWith(real) ? key.slice(real.length) : undefined,
        key.endsWith(real) ? key.slice(0, -real.length) : undefined,
      ])
    eachKindMet(garbageApiKey(realKeys), {
      'key-shaped text of 16': (key) => key.length === 16 && keyCharacters.test(key),
      'longer key-shaped text': (key) => key.length > 40 && keyCharacters.test(key),
      'free text': (key) => /[^A-Za-z0-9_-]/.test(key),
      'real key with 1 after it': (key) =>
        realKeys.some((real) => key.length === real.length + 1 && key.startsWith(real)),
      'real key with 3 before it': (key) =>
        realKeys.some((real) => key.length === real.length + 3 && key.endsWith(real)),
    })
    eachHolds(garbageApiKey(realKeys), (key) =>
      added(key).every(
        (extra) => extra === undefined || extra === '' || (extra.length <= 3 && keyCharacters.test(extra)),
      ),
    )
    eachHolds(garbageApiKey([]), (key) => key.trim() === key)
    eachHolds(garbageApiKey(['abcdefgh']), (key) => key !== 'abcdefgh')
  })

  test('fixed cases are empty, one character, very long, a real key with one added, probes, dangerous strings', () => {
    const cases = garbageApiKeyCoverage(realKeys)
    const keyShaped = 'ipts0conformance0garbage0key'
    expect(cases.slice(0, 7)).toEqual([
      { label: 'length 0', value: '' },
      { label: 'length 1', value: 'k' },
      { label: `very long (${VERY_LONG})`, value: repeatTo(keyShaped, VERY_LONG) },
      { label: 'real key 1 with a character after it', value: `${realKeys[0]}x` },
      { label: 'real key 1 with a character before it', value: `x${realKeys[0]}` },
      { label: 'real key 2 with a character after it', value: `${realKeys[1]}x` },
      { label: 'real key 2 with a character before it', value: `x${realKeys[1]}` },
    ])
    for (const text of probeTexts)
      expect(values(cases), JSON.stringify(text)).toContain(`${keyShaped.slice(0, 8)}${text}${keyShaped.slice(8)}`)
    expect(labelOf(cases, 'ipts0con\tformance0garbage0key')).toBe('a tab inside')
    expect(cases.slice(-dangerousWholeValues().length)).toEqual(dangerousWholeValues())
    expect(values(garbageApiKeyCoverage(['k'])), 'a real key is never sent as garbage').not.toContain('k')
  })
})

describe('cursor tampering', () => {
  const cursor = 'eyJvcCI6Imxpc3RNYXJrZXRzIn0.AbCdEfGhIjKlMnOpQrStUv'
  const base64url = /^[A-Za-z0-9_-]+$/

  test('a flip puts its character at its place, wrapping, and another one where it is the same', () => {
    expect(tamper('abcdef', { kind: 'flip', at: 2, to: 'Z' })).toBe('abZdef')
    expect(tamper('abcdef', { kind: 'flip', at: 8, to: 'Z' }), 'at wraps around the length').toBe('abZdef')
    expect(tamper('abcdef', { kind: 'flip', at: 0, to: 'a' })).toBe('Abcdef')
    expect(tamper('Abcdef', { kind: 'flip', at: 0, to: 'A' })).toBe('Bbcdef')
  })

  test('a truncation keeps 1 to length-1 characters; a cursor of one character is extended instead', () => {
    expect(tamper('abcdef', { kind: 'truncate', keep: 0 })).toBe('a')
    expect(tamper('abcdef', { kind: 'truncate', keep: 4 })).toBe('abcde')
    expect(tamper('abcdef', { kind: 'truncate', keep: 5 }), 'keep wraps around').toBe('a')
    expect(tamper('ab', { kind: 'truncate', keep: 7 })).toBe('a')
    expect(tamper('a', { kind: 'truncate', keep: 3 })).toBe('aA')
  })

  test('an extension adds its suffix; random text replaces the cursor', () => {
    expect(tamper('abc', { kind: 'extend', suffix: '.x' })).toBe('abc.x')
    expect(tamper('abc', { kind: 'random-base64url', text: 'Zz' })).toBe('Zz')
    expect(tamper('abc', { kind: 'random-text', text: '\u00e9' })).toBe('\u00e9')
  })

  test('random changes are of every kind, of base64url characters and dots where they are made of them', () => {
    const ofKind = (kind: Tampering['kind']) => (change: Tampering) => change.kind === kind
    eachKindMet(tampering(), {
      flip: ofKind('flip'),
      'flip to a dot': (change) => change.kind === 'flip' && change.to === '.',
      truncation: ofKind('truncate'),
      extension: ofKind('extend'),
      'extension by 8': (change) => change.kind === 'extend' && change.suffix.length === 8,
      'extension by a dot': (change) => change.kind === 'extend' && change.suffix.includes('.'),
      'random base64url': ofKind('random-base64url'),
      'random text beyond base64url': (change) => change.kind === 'random-text' && !base64url.test(change.text),
    })
    eachHolds(tampering(), (change) => {
      switch (change.kind) {
        case 'flip':
          return change.at >= 0 && /^[A-Za-z0-9_.-]$/.test(change.to)
        case 'truncate':
          return change.keep >= 0
        case 'extend':
          return change.suffix.length >= 1 && change.suffix.length <= 8 && /^[A-Za-z0-9_.-]+$/.test(change.suffix)
        case 'random-base64url':
          return change.text.length <= 80 && base64url.test(change.text)
        case 'random-text':
          return change.text.length >= 1 && change.text.length <= 40
      }
    })
    eachHolds(tampering(), (change) => tamper(cursor, change) !== '')
  })

  test('fixed changes cut to one character, extend by one and by very long, add each probe, and replace it', () => {
    const cases = tamperingCoverage()
    expect(cases.slice(0, 3)).toEqual([
      { label: 'cut to one character', value: { kind: 'truncate', keep: 0 } },
      { label: 'one character longer', value: { kind: 'extend', suffix: 'A' } },
      { label: `${VERY_LONG} characters longer`, value: { kind: 'extend', suffix: 'A'.repeat(VERY_LONG) } },
    ])
    expect(tamper(cursor, cases[0]!.value)).toHaveLength(1)
    const probes = cases.slice(3, 3 + probeTexts.length)
    expect(probes.map((c) => c.value)).toEqual(probeTexts.map((suffix) => ({ kind: 'extend', suffix })))
    expect(probes[0]!.label).toBe('a two-byte character after it')
    expect(cases.slice(3 + probeTexts.length)).toEqual(
      dangerousWholeValues().map(({ label, value }) => ({
        label: `${label} in its place`,
        value: { kind: 'random-text', text: value },
      })),
    )
  })
})

describe('the coverage building blocks', () => {
  test('colliding identifiers are keys every plain object has, or what a loosely typed server makes of a value', () => {
    const plainObjectKeys = COLLIDING_IDENTIFIERS.filter((id) => id in {})
    expect(plainObjectKeys).toEqual(['constructor', '__proto__', 'toString', 'hasOwnProperty'])
    expect(COLLIDING_IDENTIFIERS.filter((id) => !(id in {}))).toEqual([null, undefined, NaN, true].map(String))
  })

  test('metacharacters each change a path or query, as a character, a dot segment or an encoded slash', () => {
    for (const m of METACHARACTERS)
      expect(
        encodeURIComponent(m) !== m || new URL(`http://h/a/${m}/b`).pathname === '/b' || decodeURIComponent(m) === '/',
        m,
      ).toBe(true)
    expect(METACHARACTERS).toEqual(expect.arrayContaining(['/', '..', '%2F', '?', '#', '&', '=']))
    for (const shape of INJECTION_SHAPES) expect(shape, 'an injection shape').toMatch(/['";$]|\{.*\}/)
  })

  test('unicode shapes are each what their label says', () => {
    const is: Record<string, (text: string) => boolean> = {
      'a two-byte character': (text) => text.length === 1 && Buffer.byteLength(text) === 2,
      'a combining accent': (text) => /^[a-z]\u0301$/.test(text),
      'a right-to-left override': (text) => text === '\u202e',
      'a right-to-left letter': (text) => /^[\u0590-\u05ff]$/.test(text),
      'an emoji (four bytes in UTF-8)': (text) =>
        /^\p{Extended_Pictographic}$/u.test(text) && Buffer.byteLength(text) === 4,
      'a decomposed (NFD) letter': (text) => text.length === 2 && text.normalize('NFC').length === 1,
      'a full-width digit (NFKC folds it to 0)': (text) => text !== '0' && text.normalize('NFKC') === '0',
    }
    expect(UNICODE_SHAPES.map((shape) => shape.label)).toEqual(Object.keys(is))
    for (const { label, text } of UNICODE_SHAPES) expect(is[label]!(text), label).toBe(true)
  })

  test('whitespace is one whitespace character each; control characters one each, NUL first', () => {
    expect(WHITESPACE.map((w) => w.text)).toEqual([' ', '\t', '\u00a0', '\n'])
    expect(WHITESPACE.filter((w) => !/^\s$/.test(w.text))).toEqual([])
    expect(CONTROL_CHARACTERS[0]).toEqual({ label: 'NUL', text: '\u0000' })
    expect(CONTROL_CHARACTERS.filter((c) => !/^[\x00-\x1f\x7f]$/.test(c.text))).toEqual([])
    expect(CONTROL_CHARACTERS.map((c) => c.text.charCodeAt(0))).toEqual([0x00, 0x1b, 0x7f])
  })

  test('edge integers are the edges of 32, 53, 63 and 64 bits and their neighbours, negatives and exponents', () => {
    const power = (bits: number) => 2n ** BigInt(bits)
    const edges = [power(31) - 1n, power(31), power(53), power(53) + 1n, power(63) - 1n, power(63), power(64) - 1n]
    expect(EDGE_INTEGERS).toEqual([...[...edges, power(64), -1n, -power(31) - 1n].map(String), '1e3', '1E+21'])
    expect([Number('1e3'), Number('1E+21')]).toEqual([1000, 1e21])
    expect(EDGE_INTEGER_SAMPLE.filter((n) => !(EDGE_INTEGERS as readonly string[]).includes(n))).toEqual([])
    const kinds = {
      'past 32 bits': (n: string) => /^\d+$/.test(n) && BigInt(n) === power(31),
      'past 53 bits': (n: string) => /^\d+$/.test(n) && BigInt(n) === power(53) + 1n,
      'past 64 bits': (n: string) => /^\d+$/.test(n) && BigInt(n) === power(64),
      negative: (n: string) => n.startsWith('-'),
      exponent: (n: string) => /e/i.test(n),
    }
    expect(EDGE_INTEGER_SAMPLE.map((n) => Object.entries(kinds).find(([, is]) => is(n))?.[0])).toEqual(
      Object.keys(kinds),
    )
  })

  test('dangerous whole values are each list in turn, labelled by its kind', () => {
    expect(dangerousWholeValues()).toEqual([
      ...COLLIDING_IDENTIFIERS.map((id) => ({ label: `the identifier ${id}`, value: id })),
      ...METACHARACTERS.map((m) => ({ label: `the metacharacter ${m}`, value: m })),
      ...INJECTION_SHAPES.map((s) => ({ label: `the injection shape ${s}`, value: s })),
      ...EDGE_INTEGER_SAMPLE.map((n) => ({ label: `the integer ${n}`, value: n })),
    ])
  })

  test('character probes are unicode, whitespace and control characters in turn, placed and labelled', () => {
    const probes = characterProbes((text) => `<${text}>`, 'in brackets')
    expect(probes).toEqual(
      [...UNICODE_SHAPES, ...WHITESPACE, ...CONTROL_CHARACTERS].map(({ label, text }) => ({
        label: `${label} in brackets`,
        value: `<${text}>`,
      })),
    )
  })

  test('cases in turn meet every choice once round; cases on every choice are each sent to each', () => {
    const cases = ['a', 'b', 'c', 'd', 'e'].map((value) => ({ label: `case ${value}`, value }))
    expect(inTurn(['GET', 'POST'], cases)).toEqual([
      { label: 'case a', value: ['GET', 'a'] },
      { label: 'case b', value: ['POST', 'b'] },
      { label: 'case c', value: ['GET', 'c'] },
      { label: 'case d', value: ['POST', 'd'] },
      { label: 'case e', value: ['GET', 'e'] },
    ])
    expect(onEvery(['GET', 'POST'], cases.slice(0, 2))).toEqual([
      { label: 'case a (GET)', value: ['GET', 'a'] },
      { label: 'case a (POST)', value: ['POST', 'a'] },
      { label: 'case b (GET)', value: ['GET', 'b'] },
      { label: 'case b (POST)', value: ['POST', 'b'] },
    ])
  })
})

describe('the patterns of specs/openapi.yaml read', () => {
  test('a character class admits the printable ASCII characters it matches, space to tilde', () => {
    expect(asciiAlphabet(/^[a-c9]$/)).toEqual(['9', 'a', 'b', 'c'])
    const printable = asciiAlphabet(/^.$/)
    expect([printable.length, printable[0], printable.at(-1)]).toEqual([95, ' ', '~'])
  })

  test('the repetition bounds at the end, one number or two, and no other', () => {
    expect(repetitionBounds(/^[A-Za-z0-9._:-]{8,128}$/)).toEqual({ min: 8, max: 128 })
    expect(repetitionBounds(/^0x[0-9a-fA-F]{64}$/)).toEqual({ min: 64, max: 64 })
    for (const unbounded of [/^a{2,5}/, /^a{3}b$/, /^a{3}$|^b+$/, /^a+$/])
      expect(() => repetitionBounds(unbounded)).toThrow(
        `pattern ${unbounded.source} does not end in a bounded repetition`,
      )
  })
})

describe('near misses as cases', () => {
  test('are labelled by the name of the secret and what was done to it', () => {
    expect(nearMissCoverage('abcdefgh12', 'the key', 'header').map((c) => c.label)).toEqual([
      'the key with its letters in the other case',
      'the key without its last character',
      'the key without its first character',
      'the key with its last character changed',
      'the key with its first character changed',
    ])
    expect(nearMissCoverage('abcdefgh12', 'the receipt', 'url').at(-1)).toEqual({
      label: 'the receipt in full-width characters (NFKC folds them back)',
      value: '\uff41\uff42\uff43\uff44\uff45\uff46\uff47\uff48\uff11\uff12',
    })
  })

  test("take the secret's placeholder with the kind of near miss after a tilde", () => {
    expect(nearMissPlaceholder('$IPTS_API_KEY', 'case-swapped')).toBe('$IPTS_API_KEY~case-swapped')
  })
})
