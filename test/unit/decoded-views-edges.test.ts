import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import {
  base64Bytes,
  compressedStart,
  DECODERS,
  decodedViews,
  growScratch,
  gzipDataStart,
  inflated,
  inflatedBytes,
  MAX_INFLATED,
  mostlyUtf8,
  Output,
  readingBudget,
  textUtf8,
  utf16Parities,
  utf8At,
  VIEW_UNITS_FLOOR,
  VIEW_UNITS_PER_UNIT,
} from '../../src/http/decoded-views.js'

/**
 * The pieces the decoded views of a text are read with, each at its edges: the budget of a text, the output that
 * collects units with their spans, UTF-8 sequences and the judgement of bytes as text or UTF-16, the headers of
 * compressed streams and their inflation within the budget, the readings of bytes pushed in a token's place, and
 * percent-escapes. Each case sits just inside or just outside an edge, so that moving the edge changes its answer.
 */

const bytesOf = (values: number[]): Uint8Array => Uint8Array.from(values)

/** `length` bytes of 'a', zero at each of `zeros`. */
function withZerosAt(length: number, zeros: number[]): Uint8Array {
  const bytes = new Uint8Array(length).fill(0x61)
  for (const at of zeros) bytes[at] = 0
  return bytes
}

/** Every even (or odd) position in [from, to). */
function positions(from: number, to: number, parity: 0 | 1): number[] {
  const out: number[] = []
  for (let i = from; i < to; i++) if (i % 2 === parity) out.push(i)
  return out
}

/** A text of `length` letters and digits that deflate cannot shrink much (a fixed linear congruential sequence). */
function incompressibleText(length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'
  let state = 12345
  let text = ''
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31
    text += alphabet[state % alphabet.length]
  }
  return text
}

const base64Of = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64')

describe('the budget of a text', () => {
  // The longest text whose views are bounded by the floor.
  const floorLength = Math.floor(VIEW_UNITS_FLOOR / VIEW_UNITS_PER_UNIT)
  test.each([
    [0, VIEW_UNITS_FLOOR],
    [2, VIEW_UNITS_FLOOR],
    [floorLength, VIEW_UNITS_FLOOR],
    [floorLength + 1, VIEW_UNITS_PER_UNIT * (floorLength + 1)],
    [100_000, 600_000],
  ])('a text of %i units may have views of %i units in all', (length, units) => {
    expect(readingBudget('x'.repeat(length))).toEqual({
      units,
      inflations: 16,
      rawInflations: 16,
      inflatedBytes: MAX_INFLATED,
    })
  })
})

describe('the output of a decoder', () => {
  test('an output nothing changed gives no view, however much was copied into it', () => {
    const out = new Output(4)
    out.copy('abcd', 0, 4)
    expect(out.result()).toBeUndefined()
  })

  test('copying past the room made for the input grows the output: every unit is kept with its own span', () => {
    const text = 'x'.repeat(200)
    const out = new Output(1)
    out.copy(text, 0, 200)
    out.changed = true
    const result = out.result()!
    expect(result.text).toBe(text)
    expect([...result.starts]).toEqual(Array.from({ length: 200 }, (_, i) => i))
    expect([...result.ends]).toEqual(Array.from({ length: 200 }, (_, i) => i + 1))
  })

  test('copying a span that is empty or reversed adds nothing', () => {
    const out = new Output(4)
    out.copy('abcd', 2, 2)
    out.copy('abcd', 3, 1)
    out.push('z', 0, 4)
    out.changed = true
    expect(out.result()!.text).toBe('z')
  })

  test('pushing units one by one past the room made grows the output', () => {
    const out = new Output(1)
    out.push('y'.repeat(200), 3, 5)
    out.changed = true
    const result = out.result()!
    expect(result.text).toBe('y'.repeat(200))
    expect(result.starts.length).toBe(200)
    expect(result.ends.every((end) => end === 5)).toBe(true)
  })

  test('an output made for the input holds as many units without being copied as it grows', () => {
    const out = new Output(100)
    const room = (out as unknown as { units: Uint16Array }).units
    out.copy('z'.repeat(100), 0, 100)
    expect((out as unknown as { units: Uint16Array }).units, 'the units were copied into a larger array').toBe(room)
  })

  test.each([
    [0xffff, '\uffff'],
    [0x10000, '\ud800\udc00'],
    [0x10ffff, '\udbff\udfff'],
  ])('code point %i is pushed as %j, each unit from the span of the code point', (code, units) => {
    const out = new Output(2)
    out.codePoint(code, 3, 7)
    out.changed = true
    const result = out.result()!
    expect(result.text).toBe(units)
    expect([...result.starts, ...result.ends]).toEqual([
      ...Array<number>(units.length).fill(3),
      ...Array<number>(units.length).fill(7),
    ])
  })
})

describe('UTF-8 sequences', () => {
  /** The size utf8At reads at the start of `bytes` (of which `length` count), and the code point when it reads one. */
  function read(bytes: number[], length = bytes.length): [number, number | undefined] {
    const code = { value: -1 }
    const size = utf8At(bytesOf(bytes), length, 0, code)
    return [size, size > 0 ? code.value : undefined]
  }

  test.each<[string, number[], [number, number | undefined]]>([
    ['ASCII', [0x41], [1, 0x41]],
    ['the last ASCII', [0x7f], [1, 0x7f]],
    ['a lone continuation byte', [0x80], [0, undefined]],
    ['an overlong two-byte lead', [0xc1, 0xbf], [0, undefined]],
    ['the first two-byte sequence', [0xc2, 0x80], [2, 0x80]],
    ['the last two-byte sequence', [0xdf, 0xbf], [2, 0x7ff]],
    ['an overlong three-byte sequence', [0xe0, 0x9f, 0xbf], [0, undefined]],
    ['the first three-byte sequence', [0xe0, 0xa0, 0x80], [3, 0x800]],
    ['the last unit before the surrogates', [0xed, 0x9f, 0xbf], [3, 0xd7ff]],
    ['the first surrogate', [0xed, 0xa0, 0x80], [0, undefined]],
    ['the last surrogate', [0xed, 0xbf, 0xbf], [0, undefined]],
    ['the first unit after the surrogates', [0xee, 0x80, 0x80], [3, 0xe000]],
    ['the last three-byte lead', [0xef, 0xbf, 0xbd], [3, 0xfffd]],
    ['a lead below 0xc2 with two continuations', [0xc1, 0x80, 0x80], [0, undefined]],
    ['a lead below 0xc2 with three continuations', [0xc1, 0x80, 0x80, 0x80], [0, undefined]],
    ['an overlong four-byte sequence', [0xf0, 0x8f, 0xbf, 0xbf], [0, undefined]],
    ['the first four-byte sequence', [0xf0, 0x90, 0x80, 0x80], [4, 0x10000]],
    ['the last code point', [0xf4, 0x8f, 0xbf, 0xbf], [4, 0x10ffff]],
    ['past the last code point', [0xf4, 0x90, 0x80, 0x80], [0, undefined]],
    ['a lead past 0xf4 whose bits would name a code point', [0xfc, 0x80, 0x80, 0x80], [0, undefined]],
    ['a lead followed by no continuation', [0xc3, 0x28], [0, undefined]],
  ])('%s: %j reads as %j', (_, bytes, expected) => {
    expect(read(bytes)).toEqual(expected)
  })

  test('a sequence cut by the length is no sequence, whatever bytes follow it', () => {
    expect(read([0xc3, 0xa9], 1)).toEqual([0, undefined])
    expect(read([0xe2, 0x82, 0xac], 2)).toEqual([0, undefined])
    expect(read([0xe2, 0x82, 0xac], 3)).toEqual([3, 0x20ac])
  })
})

describe('bytes judged as text', () => {
  test('mostly UTF-8 allows 4 bytes and one in 8 that are not, by default', () => {
    // 8 bytes: 4 + 8 / 8 = 5 allowed.
    expect(mostlyUtf8(bytesOf([0xff, 0xff, 0xff, 0xff, 0xff, 0x61, 0x62, 0x63]), 8)).toBe(true)
    expect(mostlyUtf8(bytesOf([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x62, 0x63]), 8)).toBe(false)
  })

  test('mostly UTF-8 with an explicit allowance, over the length given', () => {
    expect(mostlyUtf8(bytesOf([0x61, 0xff]), 2, 1)).toBe(true)
    expect(mostlyUtf8(bytesOf([0x61, 0xff]), 2, 0)).toBe(false)
    expect(mostlyUtf8(bytesOf([0x61, 0xff]), 1, 0)).toBe(true)
  })

  test.each<[string, number[], boolean]>([
    ['letters and a space', [0x61, 0x20, 0x62], true],
    ['tab, line feed and carriage return', [0x61, 9, 10, 13], true],
    ['a two-byte character', [0xc3, 0xa9], true],
    ['DEL', [0x61, 0x7f], false],
    ['a control character', [0x61, 0x01], false],
    ['the last control character', [0x61, 0x1f], false],
    ['one byte that is not UTF-8', [0x61, 0xe9], false],
  ])('UTF-8 text: %s is %s', (_, bytes, text) => {
    expect(textUtf8(bytesOf(bytes), bytes.length)).toBe(text)
  })

  test('UTF-8 text is judged over the length given, not the bytes after it', () => {
    expect(textUtf8(bytesOf([0x61, 0x62, 0x01]), 2)).toBe(true)
  })
})

describe('UTF-16 by the parity of zero bytes', () => {
  test.each<[string, Uint8Array, number, number]>([
    ['zeros at odd positions in one pair in four', withZerosAt(16, [1, 3]), 16, 1],
    ['zeros at odd positions in fewer than one pair in four', withZerosAt(64, [1, 3]), 64, 0],
    ['a single odd zero, even in one pair of two', withZerosAt(4, [1]), 4, 0],
    ['odd zeros with even ones fewer than half as many', withZerosAt(16, [1, 3, 5, 7, 0]), 16, 1],
    ['odd zeros with even ones half as many', withZerosAt(16, [1, 3, 5, 7, 0, 2]), 16, 0],
    ['zeros at even positions in one pair in four', withZerosAt(16, [0, 2]), 16, 2],
    ['zeros at even positions in fewer than one pair in four', withZerosAt(64, [0, 2]), 64, 0],
    ['a single even zero, even in one pair of two', withZerosAt(4, [0]), 4, 0],
    ['even zeros with odd ones fewer than half as many', withZerosAt(16, [0, 2, 4, 6, 1]), 16, 2],
    ['even zeros with odd ones half as many', withZerosAt(16, [0, 2, 4, 6, 1, 3]), 16, 0],
    ['no zero', withZerosAt(16, []), 16, 0],
    ['a zero just past the length', withZerosAt(17, [1, 3, 16]), 16, 1],
  ])('%s: %i bytes read as %i', (_, bytes, length, parities) => {
    expect(utf16Parities(bytes, length)).toBe(parities)
  })

  test('bytes with fewer than 8 zeros at each parity in their first 64 are not read further', () => {
    expect(utf16Parities(withZerosAt(128, positions(64, 128, 1)), 128)).toBe(0)
    expect(utf16Parities(withZerosAt(128, [...positions(0, 14, 1), ...positions(64, 128, 1)]), 128)).toBe(0)
  })

  test('bytes with 8 zeros at one parity in their first 64 are read on', () => {
    expect(utf16Parities(withZerosAt(128, positions(0, 128, 0)), 128)).toBe(2)
    expect(utf16Parities(withZerosAt(128, positions(0, 128, 1)), 128)).toBe(1)
    expect(utf16Parities(withZerosAt(128, [...positions(0, 16, 0), ...positions(64, 128, 0)]), 128)).toBe(2)
    expect(utf16Parities(withZerosAt(128, [...positions(0, 16, 1), ...positions(64, 128, 1)]), 128)).toBe(1)
  })
})

describe('the start of a compressed stream', () => {
  test.each<[string, number[], number, 'gzip' | 'zlib' | undefined]>([
    ['a gzip header', [0x1f, 0x8b, 8], 3, 'gzip'],
    ['a gzip header cut to two bytes', [0x1f, 0x8b, 8], 2, undefined],
    ['a gzip header but its first byte', [0x00, 0x8b, 8], 3, undefined],
    ['a gzip header but its second byte', [0x1f, 0x00, 8], 3, undefined],
    ['a gzip header of another method', [0x1f, 0x8b, 0], 3, undefined],
    ['zlib at the default level', [0x78, 0x9c, 0], 3, 'zlib'],
    ['zlib at the fastest level', [0x78, 0x01, 0], 3, 'zlib'],
    ['zlib at the best level', [0x78, 0xda, 0], 3, 'zlib'],
    ['zlib of another method, its check bits right', [0x79, 0x18, 0], 3, undefined],
    ['zlib of a window past 32 KiB, its check bits right', [0x88, 0x1c, 0], 3, undefined],
    ['zlib with a preset dictionary, its check bits right', [0x78, 0x20, 0], 3, undefined],
    ['zlib with its check bits wrong', [0x78, 0x00, 0], 3, undefined],
  ])('%s: %j is %s', (_, bytes, length, kind) => {
    expect(compressedStart(bytesOf(bytes), length)).toBe(kind)
  })
})

describe('the data of a gzip member', () => {
  const header = (flags: number) => [0x1f, 0x8b, 8, flags, 0, 0, 0, 0, 0, 3]
  const nameChars = (text: string) => [...text].map((c) => c.charCodeAt(0))

  test.each<[string, number[], number]>([
    ['no optional field', header(0), 10],
    ['an extra field of 258 bytes', [...header(4), 2, 1], 10 + 2 + 258],
    ['a file name', [...header(8), ...nameChars('ab'), 0], 13],
    ['a comment', [...header(16), ...nameChars('c'), 0], 12],
    ['a header checksum', [...header(2), 0, 0], 12],
    ['every optional field', [...header(2 | 4 | 8 | 16), 2, 0, 7, 7, ...nameChars('a'), 0, ...nameChars('b'), 0], 20],
  ])('after %s', (_, bytes, start) => {
    expect(gzipDataStart(bytesOf(bytes), bytes.length)).toBe(start)
  })

  test('a file name not ended within the length ends there', () => {
    const bytes = [...header(8), ...nameChars('abc'), 0]
    expect(gzipDataStart(bytesOf(bytes), 12)).toBe(12)
  })

  test('a member with every optional field inflates to its text', () => {
    const member = gzipSync('a text in a member with a name')
    const bytes = Buffer.concat([
      Buffer.from([0x1f, 0x8b, 8, 2 | 4 | 8 | 16, 0, 0, 0, 0, 0, 3]),
      Buffer.from([3, 0, 1, 2, 3]),
      Buffer.from('name.txt\0a comment\0'),
      Buffer.from([0xab, 0xcd]),
      member.subarray(10),
    ])
    expect(inflated(bytes, bytes.length, false, readingBudget(''))).toBe('a text in a member with a name')
  })
})

describe('inflation within the budget', () => {
  const text = 'a secret text'
  const zlib = deflateSync(text)
  const raw = deflateRawSync(text)

  test('a zlib stream inflates to its text and spends one inflation and its bytes', () => {
    const budget = readingBudget('')
    const before = inflatedBytes.total
    expect(inflated(zlib, zlib.length, false, budget)).toBe(text)
    expect(budget).toMatchObject({ inflations: 15, rawInflations: 16, inflatedBytes: MAX_INFLATED - text.length })
    expect(inflatedBytes.total - before).toBe(text.length)
  })

  test('raw deflate inflates only when told it may be, and spends a raw inflation', () => {
    const budget = readingBudget('')
    expect(inflated(raw, raw.length, false, budget)).toBeUndefined()
    expect(budget).toEqual(readingBudget(''))
    expect(inflated(raw, raw.length, true, budget)).toBe(text)
    expect(budget).toMatchObject({ inflations: 15, rawInflations: 15 })
  })

  test('no inflation is left: nothing is inflated or spent', () => {
    const budget = { ...readingBudget(''), inflations: 0 }
    expect(inflated(zlib, zlib.length, false, budget)).toBeUndefined()
    expect(budget).toEqual({ ...readingBudget(''), inflations: 0 })
    budget.inflations = 1
    expect(inflated(zlib, zlib.length, false, budget)).toBe(text)
  })

  test('no inflated byte is left: nothing is inflated or spent', () => {
    const budget = { ...readingBudget(''), inflatedBytes: 0 }
    expect(inflated(zlib, zlib.length, false, budget)).toBeUndefined()
    expect(budget).toEqual({ ...readingBudget(''), inflatedBytes: 0 })
  })

  test('no raw inflation is left: raw deflate is not inflated, zlib and gzip still are', () => {
    const budget = { ...readingBudget(''), rawInflations: 0 }
    expect(inflated(raw, raw.length, true, budget)).toBeUndefined()
    expect(budget).toEqual({ ...readingBudget(''), rawInflations: 0 })
    const gzip = gzipSync(text)
    expect(inflated(gzip, gzip.length, true, budget)).toBe(text)
    expect(budget).toMatchObject({ inflations: 15, rawInflations: 0 })
  })

  test('a stream that inflates past the bytes left spends them all, and gives no text', () => {
    const bomb = deflateSync('a'.repeat(1000))
    expect(inflated(bomb, bomb.length, false, { ...readingBudget(''), inflatedBytes: 1000 })).toBe('a'.repeat(1000))
    const budget = { ...readingBudget(''), inflatedBytes: 999 }
    const before = inflatedBytes.total
    expect(inflated(bomb, bomb.length, false, budget)).toBeUndefined()
    expect(budget.inflatedBytes).toBe(0)
    expect(inflatedBytes.total - before).toBe(999)
  })

  test('an inflated text holds 8 bytes at least', () => {
    const eight = deflateSync('abcdefgh')
    const seven = deflateSync('abcdefg')
    expect(inflated(eight, eight.length, false, readingBudget(''))).toBe('abcdefgh')
    expect(inflated(seven, seven.length, false, readingBudget(''))).toBeUndefined()
  })

  test('an inflated text is UTF-8 but for one byte in 8', () => {
    const two = deflateSync(Buffer.from('abcdefghijklmn\xff\xff', 'latin1'))
    const three = deflateSync(Buffer.from('abcdefghijklm\xff\xff\xff', 'latin1'))
    expect(inflated(two, two.length, false, readingBudget(''))).toBe('abcdefghijklmn\ufffd\ufffd')
    expect(inflated(three, three.length, false, readingBudget(''))).toBeUndefined()
  })
})

describe('the bytes of a base64 token', () => {
  test.each<[string, number, number | undefined, number]>([
    ['QUJD', 0, undefined, 3],
    ['QUJDR', 0, undefined, 3],
    ['QUJDRA', 0, undefined, 4],
    ['QUJDREU', 0, undefined, 5],
    ['xQUJD', 1, undefined, 3],
    ['QUJDREVG', 0, 4, 3],
  ])('%s from character %i up to %s holds %i bytes', (token, skip, end, length) => {
    expect(base64Bytes(token, skip, end)).toBe(length)
  })

  test('grown scratch is twice as long and keeps its bytes', () => {
    expect([...growScratch(Uint8Array.from([1, 2, 3]))]).toEqual([1, 2, 3, 0, 0, 0])
  })
})

describe('long base64 tokens', () => {
  const base64View = (text: string) => decodedViews(text, ['base64']).find((view) => view.via === 'base64')

  // After a stray character: from the token's start, a long token of capitals, small letters and digits is read whole
  // as a raw deflate candidate, whatever its start.
  test('the base64 of a text longer than the prefix judged is read whole at its alignment', () => {
    const text = 'a plain text of words, with a key at its end. '.repeat(70) + 'KEY-0123456789'
    expect(base64Of(text).length).toBeGreaterThan(4000)
    expect(base64View('x' + base64Of(text))?.text).toBe(text)
  })

  test('the base64 of UTF-16 of accented text longer than the prefix judged is read at its alignment', () => {
    const text = 'éa'.repeat(600) + 'KEY-0123456789'
    expect(base64View('x' + base64Of(Buffer.from(text, 'utf16le')))?.text).toContain(text)
  })

  test('a long token whose start is no text is not read, however its rest reads', () => {
    const bytes = Buffer.concat([Buffer.alloc(800, 0xff), Buffer.from('plain text '.repeat(800))])
    expect(mostlyUtf8(bytes, bytes.length)).toBe(true)
    expect(base64View(base64Of(bytes))).toBeUndefined()
  })

  test('a long gzip stream after a stray character is found at its alignment', () => {
    const text = incompressibleText(2000)
    const token = 'x' + base64Of(gzipSync(text))
    expect(token.length).toBeGreaterThan(1024)
    expect(base64View(token)?.text).toContain(text)
  })
})

describe('the readings pushed in a token place', () => {
  test('bytes that are UTF-8 but for one stand in their token, the one as U+FFFD', () => {
    expect(base64Of(Buffer.from('ab\xffcde', 'latin1'))).toBe('YWL/Y2Rl')
    const decoded = DECODERS.base64!('k=YWL/Y2Rl', readingBudget(''))!
    expect(decoded.text).toBe('k=ab\ufffdcde')
    expect([...decoded.starts]).toEqual([0, 1, 2, 2, 2, 6, 6, 6])
    expect([...decoded.ends]).toEqual([1, 2, 6, 6, 6, 10, 10, 10])
  })

  test('UTF-16 from an even start is read in both orders, one after the other, between separators', () => {
    const token = 'h\x00\x34\x12e\x00l\x00l\x00o\x00'
    const decoded = DECODERS.binary!(`€${token}€`, readingBudget(''))!
    // Little-endian from byte 0, then big-endian from byte 1 (whose pairs straddle the little-endian ones).
    expect(decoded.text).toBe('€h\u1234ello\uffff\u0034\u1265llo€')
    expect([...decoded.starts.subarray(0, 8)]).toEqual([0, 1, 3, 5, 7, 9, 11, 1])
    expect([...decoded.ends.subarray(0, 8)]).toEqual([1, 3, 5, 7, 9, 11, 13, 13])
  })
})

describe('percent-escapes', () => {
  const percent = (text: string) => DECODERS.percent!(text, readingBudget(text))

  test('a text whose percent signs escape nothing gives no view', () => {
    expect(percent('a%zz')).toBeUndefined()
    expect(percent('%u41')).toBeUndefined()
    expect(percent('%uzzzz')).toBeUndefined()
  })

  test("escape()'s %uXXXX in either case is the unit it names, from its six characters", () => {
    const decoded = percent('ab%u0041cd')!
    expect(decoded.text).toBe('abAcd')
    expect([...decoded.starts]).toEqual([0, 1, 2, 8, 9])
    expect([...decoded.ends]).toEqual([1, 2, 8, 9, 10])
    expect(percent('x%U00e9y')?.text).toBe('xéy')
  })

  test('a u not after a percent sign is no escape', () => {
    expect(percent('xu0041%41')?.text).toBe('xu0041A')
  })

  test('a byte that is not UTF-8 is read as Latin-1, as escape() writes it', () => {
    expect(percent('caf%E9')?.text).toBe('café')
    expect(percent('caf%C3%A9')?.text).toBe('café')
  })
})

describe('UTF-8 read as Latin-1', () => {
  test('a run none of whose bytes is UTF-8 gives no view', () => {
    expect(DECODERS.latin1!('\u00e0\u0080\u0080', readingBudget(''))).toBeUndefined()
    expect(DECODERS.latin1!('caf\u00c3\u00a9', readingBudget(''))?.text).toBe('café')
  })
})
