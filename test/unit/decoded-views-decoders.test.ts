import { createHash } from 'node:crypto'
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import {
  DECODERS,
  decodedViews,
  MAX_DEPTH,
  MAX_INFLATED,
  MAX_VIEWS,
  VIEW_UNITS_FLOOR,
  VIEW_UNITS_PER_UNIT,
  type ReadingBudget,
} from '../../src/http/decoded-views.js'

/**
 * The decoders of src/http/decoded-views.ts called one by one on small texts made so that an offset, a bound or a
 * comparison one off changes what they give (the text and the span of the original each unit came from), and
 * decodedViews at its bounds (depth, views, the units of its budget). Lines 1 to 450 of the module (the bytes, UTF-8
 * and UTF-16, inflation) are judged by their own test file.
 */

/** A budget that no test here spends to its end. */
const budget = (): ReadingBudget => ({
  units: Infinity,
  inflations: 16,
  rawInflations: 16,
  inflatedBytes: MAX_INFLATED,
})

type Decoded = NonNullable<ReturnType<(typeof DECODERS)[string]>>

function decode(decoder: string, text: string, spent = budget()): Decoded | undefined {
  return DECODERS[decoder]!(text, spent)
}

/** What a decoder made of a text that it decodes. */
function decoded(decoder: string, text: string): Decoded {
  const result = decode(decoder, text)
  expect(result, `${decoder} decodes ${JSON.stringify(text.slice(0, 40))}`).toBeDefined()
  return result!
}

/** The span of the original text each unit came from. */
function spans(result: { starts?: Int32Array; ends?: Int32Array }): number[][] {
  return Array.from(result.starts!, (start, i) => [start, result.ends![i]!])
}

/** The readings a token was replaced by, one after another (see ALIGNMENT_SEPARATOR). */
const readings = (text: string) => text.split('\uffff')

const hex = (text: string | Buffer, encoding: BufferEncoding = 'utf8') =>
  (typeof text === 'string' ? Buffer.from(text, encoding) : text).toString('hex')
const base64 = (bytes: string | Buffer) => Buffer.from(bytes).toString('base64').replace(/=+$/, '')

/** Text that compresses no better than hex digits do: a compressed stream of it is long. */
const hexDigits = (chunks: number) =>
  Array.from({ length: chunks }, (_, i) => createHash('sha256').update(String(i)).digest('hex')).join('')

/** A byte that is UTF-8 nowhere. */
const NOT_UTF8 = 0xff
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Uint8Array.from(part))))
const words = (length: number) => 'plain words '.repeat(Math.ceil(length / 12)).slice(0, length)

// First in the file: under mutation each file imports the module afresh, so the scratch bytes the decoders share are at
// their first size (1,024) here, and these texts make them grow.
describe('the scratch bytes grow with what they hold', () => {
  test('a JSON array of 3,000 byte values is read whole, each byte in its place', () => {
    const text = words(3000)
    expect(decoded('byte array', JSON.stringify([...Buffer.from(text)])).text).toBe(text)
  })

  test('a hex run of 10,000 digits is read whole', () => {
    const text = words(5000)
    expect(readings(decoded('hex', hex(text)).text)[0]).toBe(text)
  })
})

describe('percent', () => {
  test('an escape cut short (a single hex digit after %) is left as it is', () => {
    expect(decode('percent', 'ab%A')).toBeUndefined()
    expect(decode('percent', 'a%4g')).toBeUndefined()
    expect(decoded('percent', 'ab%41').text).toBe('abA')
  })

  test('a byte that is no UTF-8 is read as Latin-1, as escape() writes it', () => {
    expect(decoded('percent', 'caf%E9').text).toBe('café')
  })
})

describe('json', () => {
  test('each escape is undone where its backslash stands, and each unit keeps the span it came from', () => {
    const result = decoded('json', 'an\\tb')
    expect(result.text).toBe('an\tb')
    expect(spans(result)).toEqual([
      [0, 1],
      [1, 2],
      [2, 4],
      [4, 5],
    ])
  })

  test('\\u takes four hex digits, and only after a u', () => {
    expect(decoded('json', 'x\\u0041y').text).toBe('xAy')
    expect(spans(decoded('json', 'x\\u0041y'))[1]).toEqual([1, 7])
    expect(decoded('json', 'a\\nb').text).toBe('a\nb')
    expect(decoded('json', 'a\\t1234').text).toBe('a\t1234')
    expect(decode('json', 'x\\u12'), 'cut short').toBeUndefined()
    expect(decode('json', 'x\\u12G4'), 'not hex').toBeUndefined()
  })

  test('each simple escape is undone to its own character', () => {
    expect(decoded('json', 'a\\"b\\/c\\bd\\fe\\rf\\\\g').text).toBe('a"b/c\bd\fe\rf\\g')
  })
})

describe('html', () => {
  test('numeric references name the code point or UTF-16 unit as it is, not as the HTML standard remaps it', () => {
    // The standard reads &#x80; as €; a secret's unit 0x80 written as a reference is 0x80.
    expect(decoded('html', '&#x80;').text).toBe('\u0080')
    expect(decoded('html', '&#128;').text).toBe('\u0080')
    expect(decoded('html', '&#xD83D;&#xDE00;').text).toBe('😀')
    expect(decoded('html', '&#0;').text).toBe('\u0000')
  })

  test('the highest code point is read; one past it is left as it is', () => {
    expect(decoded('html', '&#x10FFFF;').text).toBe('\u{10ffff}')
    expect(decoded('html', '&#1114111;').text).toBe('\u{10ffff}')
    expect(decode('html', '&#x110000;')).toBeUndefined()
    expect(decode('html', '&#1114112;')).toBeUndefined()
  })

  test('named references as the standard names them; an unknown name is left as it is', () => {
    const result = decoded('html', 'x&amp;y')
    expect(result.text).toBe('x&y')
    expect(spans(result)).toEqual([
      [0, 1],
      [1, 6],
      [6, 7],
    ])
    expect(decode('html', 'a &zzzz; b')).toBeUndefined()
  })

  test('a reference without its ";" is read, in each of its three forms', () => {
    expect(decoded('html', 'x&#x41 y').text).toBe('xA y')
    expect(decoded('html', 'x&#65 y').text).toBe('xA y')
    // The legacy names (amp, lt, gt, quot...) are references without ';' too.
    expect(decoded('html', 'x&amp y').text).toBe('x& y')
  })
})

describe('pointer', () => {
  test('~1 is / and ~0 is ~, each from its two characters', () => {
    const result = decoded('pointer', 'a~1b~0c')
    expect(result.text).toBe('a/b~c')
    expect(spans(result)).toEqual([
      [0, 1],
      [1, 3],
      [3, 4],
      [4, 6],
      [6, 7],
    ])
  })

  test('a text without ~0 or ~1 is not decoded', () => {
    expect(decode('pointer', 'abc')).toBeUndefined()
    expect(decode('pointer', 'a~2b~')).toBeUndefined()
  })
})

describe('latin1', () => {
  test('UTF-8 read as Latin-1 is read back, each character from the units of its bytes', () => {
    const result = decoded('latin1', 'cafÃ©Ã© ok')
    expect(result.text).toBe('caféé ok')
    expect(spans(result)).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 5],
      [5, 7],
      [7, 8],
      [8, 9],
      [9, 10],
    ])
  })

  test('a unit that is no UTF-8 stays as it is', () => {
    const result = decoded('latin1', 'Ã©©')
    expect(result.text).toBe('é©')
    expect(spans(result)).toEqual([
      [0, 2],
      [2, 3],
    ])
  })

  test('a run that holds no UTF-8 sequence whole is not decoded', () => {
    // E0 A9 begins a sequence of three bytes.
    expect(decode('latin1', 'à©')).toBeUndefined()
    expect(decode('latin1', 'plain')).toBeUndefined()
  })
})

describe('base64', () => {
  test('a token of 8 characters is read from its start only, with nothing after its last byte', () => {
    expect(decoded('base64', 'c2VjcmV0').text).toBe('secret')
  })

  test('the token is replaced where it stands, what is around it kept, each byte from its group of 4', () => {
    const result = decoded('base64', 'x c2VjcmV0 y')
    expect(result.text).toBe('x secret y')
    expect(spans(result)).toEqual([
      [0, 1],
      [1, 2],
      [2, 6],
      [2, 6],
      [2, 6],
      [6, 10],
      [6, 10],
      [6, 10],
      [10, 11],
      [11, 12],
    ])
  })

  test.each([
    ['a last group of 2 characters is 1 byte', base64('secrets'), 'secrets'],
    ['a last group of 3 characters is 2 bytes', base64('secrets1'), 'secrets1'],
    ['a last character alone is no byte', `${base64('secret')}X`, 'secret'],
  ])('%s (%s)', (_, token, text) => {
    expect(readings(decoded('base64', token).text)[0]).toBe(text)
  })

  test('a token is read at its four alignments, not a fifth', () => {
    const found = readings(decoded('base64', base64('hello world!')).text)
    expect(found[0]).toBe('hello world!')
    expect(found).toHaveLength(4)
    expect(found).not.toContain('o world!')
  })

  test("base64url is read: '-' is 62 and '_' is 63, as '+' and '/' are", () => {
    const token = Buffer.from('secret~~~???').toString('base64url')
    expect(token).toMatch(/-.*_/)
    expect(readings(decoded('base64', token).text)[0]).toBe('secret~~~???')
  })

  test.each([
    ['of 12 characters or more with capitals, small letters and digits', 'QQQQQQQQQQq1', 15],
    ['of 11 characters', 'QQQQQQQQQq1', 16],
    ['without capitals', 'qqqqqqqqqqq1', 16],
    ['without small letters', 'QQQQQQQQQQQ1', 16],
    ['without digits', 'QQQQQQQQQQqq', 16],
  ])('a token whose bytes are no text is tried as raw deflate only if it is %s (%s)', (_, token, left) => {
    // None of them begins a gzip or zlib stream at any alignment: only a try as raw deflate spends an inflation.
    const spent = budget()
    decode('base64', token, spent)
    expect(spent.rawInflations).toBe(left)
    expect(spent.inflations).toBe(left)
  })

  test('UTF-16 that is no UTF-8 is read', () => {
    const text = 'éèêë'.repeat(4)
    expect(readings(decoded('base64', base64(Buffer.from(text, 'utf16le'))).text)).toContain(text)
  })

  test('a long token of text is read whole', () => {
    const text = 'a plain text, '.repeat(100)
    expect(readings(decoded('base64', base64(text)).text)[0]).toBe(text)
  })

  test('a long token whose start is no text is not read, though its whole is mostly UTF-8', () => {
    // 800 bytes 0xff are 1,067 characters '/': no raw deflate candidate in the first 1,024 either.
    expect(decode('base64', base64(bytes(Array(800).fill(NOT_UTF8), words(6000))))).toBeUndefined()
  })

  test('a long token that may be raw deflate is read whole from its start only', () => {
    // Continuation bytes alone (no UTF-8) whose base64 holds capitals, small letters and digits: a raw deflate
    // candidate, read whole at the token's start; at the second alignment, where the stream begins, its start is
    // judged, and it is no text.
    const garbage = Array.from({ length: 800 }, (_, i) => 0x80 + ((i * 37) % 64))
    const token = `X${base64(bytes(garbage, words(6000)))}`
    expect(decode('base64', token)?.text ?? '').not.toContain(words(100))
    expect(decoded('base64', token.slice(1)).text, 'the same stream at the start').toContain(words(100))
  })

  test('a long gzip stream at the second alignment is inflated', () => {
    const text = hexDigits(60)
    const token = `A${base64(gzipSync(text))}`
    expect(token.length).toBeGreaterThan(1024)
    expect(readings(decoded('base64', token).text)).toContain(text)
  })

  test('a long raw deflate stream is inflated from the token start', () => {
    const text = hexDigits(60)
    const token = base64(deflateRawSync(text))
    expect(token.length).toBeGreaterThan(1024)
    expect(readings(decoded('base64', token).text)).toContain(text)
  })
})

describe('hex', () => {
  test('separated pairs are replaced where they stand, each byte from its two digits', () => {
    const result = decoded('hex', 'x 73 65 63 72 65 74 20 31 y')
    expect(result.text).toBe('x secret 1 y')
    expect(spans(result).slice(0, 5)).toEqual([
      [0, 1],
      [1, 2],
      [2, 4],
      [5, 7],
      [8, 10],
    ])
    expect(spans(result).slice(-3)).toEqual([
      [23, 25],
      [25, 26],
      [26, 27],
    ])
  })

  test('a contiguous run is read from its first digit and from its second, what is around it kept', () => {
    const result = decoded('hex', `x ${hex('key=value')} y`)
    expect(result.text.startsWith('x key=value\uffff'), result.text).toBe(true)
    expect(result.text.endsWith(' y'), result.text).toBe(true)
  })

  test('reading hex of text spends no inflation: hex is not read as raw deflate', () => {
    const spent = budget()
    decoded('hex', hex('a plain text'))
    decode('hex', hex('a plain text'), spent)
    expect(spent).toEqual(budget())
  })

  test('separated pairs of decimal digits alone are read only where they are text', () => {
    expect(decode('hex', '01 02 03 04 05 06 07 08')).toBeUndefined()
    expect(decoded('hex', '73 65 63 72 65 74 20 31').text).toBe('secret 1')
  })

  test('separated pairs with letters are read where mostly UTF-8, a control character in them', () => {
    expect(decoded('hex', '73:65:63:72:65:74:01:76:61:6c').text).toBe('secret\u0001val')
  })

  test('\\xHH escapes are read in runs of 8 or more, not 7', () => {
    const escaped = (text: string) => [...Buffer.from(text)].map((byte) => `\\x${byte.toString(16)}`).join('')
    expect(decoded('hex', `a ${escaped('secret12')} b`).text).toBe('a secret12 b')
    expect(decode('hex', `a ${escaped('secret1')} b`)).toBeUndefined()
  })

  test('a contiguous run in capitals is judged on the same bytes as one in small letters', () => {
    // C3 80 to C3 87: two-byte UTF-8 whose digits C would be no byte (03 80...: eight lone continuation bytes).
    const text = 'ÀÁÂÃÄÅÆÇ'
    expect(readings(decoded('hex', hex(text)).text)[0]).toBe(text)
    expect(readings(decoded('hex', hex(text).toUpperCase()).text)[0]).toBe(text)
  })

  test('UTF-16 that is no UTF-8 is read', () => {
    const text = 'éèêë'.repeat(4)
    expect(readings(decoded('hex', hex(text, 'utf16le')).text)).toContain(text)
  })

  test('a run of odd length is judged on its whole bytes: the last digit alone is no byte', () => {
    // 8 bytes, 5 of them no UTF-8: the most a run of 8 bytes may hold (4 and one in 8).
    expect(readings(decoded('hex', 'ffffffffff414243f').text)[0]).toBe('\ufffd'.repeat(5) + 'ABC')
    expect(readings(decode('hex', 'ffffffffffff4142f')?.text ?? '')[0]).not.toContain('AB')
  })

  test('a long run of text is read whole', () => {
    const text = 'a plain text, '.repeat(100)
    expect(readings(decoded('hex', hex(text)).text)[0]).toBe(text)
  })

  test('a long run whose start is no text is not read, though its whole is mostly UTF-8', () => {
    expect(decode('hex', hex(bytes(Array(100).fill(NOT_UTF8), words(2000))))).toBeUndefined()
  })

  test('a run of 1,024 digits is judged whole: 68 bytes of 512 that are no UTF-8 are read, 69 are not', () => {
    const tail = (invalid: number) => words(512 - invalid)
    const read = (invalid: number) => decode('hex', hex(bytes(Array(invalid).fill(NOT_UTF8), tail(invalid))))
    expect(readings(read(68)?.text ?? '')[0]).toBe('\ufffd'.repeat(68) + tail(68))
    expect(read(69)?.text ?? '').not.toContain(tail(69))
  })

  test('the start of a long run is judged without its last 3 bytes, where the cut may split a character', () => {
    // 67 bytes no UTF-8 in the first 509 (the most 509 may hold), 3 more at the cut, text after.
    const text = bytes(Array(67).fill(NOT_UTF8), words(442), Array(3).fill(NOT_UTF8), words(688))
    expect(readings(decoded('hex', hex(text)).text)[0]).toContain(words(688))
  })
})

describe('byte array', () => {
  test('signed and unsigned values, each byte from its number, what is around the array kept', () => {
    const result = decoded('byte array', 'x=[99,97,102,-61,-87,49,50,51];')
    expect(result.text).toBe('x=café123;')
    expect(spans(result)).toEqual([
      [0, 1],
      [1, 2],
      [3, 5],
      [6, 8],
      [9, 12],
      [13, 20],
      [21, 23],
      [24, 26],
      [27, 29],
      [30, 31],
    ])
  })

  test('0 is a value', () => {
    expect(decoded('byte array', '[115,101,99,0,114,101,116,49]').text).toBe('sec\u0000ret1')
  })

  test.each([
    ['after "["', '[ 115,101,99,114,101,116,49,50]'],
    ['before each ","', '[115 ,101 ,99 ,114 ,101 ,116 ,49 ,50]'],
    ['after each ","', '[115, 101, 99, 114, 101, 116, 49, 50]'],
    ['before "]"', '[115,101,99,114,101,116,49,50 ]'],
    ['everywhere, line breaks among them', '[\n  115 ,\n  101, 99, 114, 101, 116, 49, 50\n]'],
  ])('white space %s is read through', (_, array) => {
    expect(decoded('byte array', `x=${array};`).text).toBe('x=secret12;')
  })

  test('-128 and 255 are bytes; -129 and 256 are no array of bytes', () => {
    expect(decoded('byte array', '[-60,-128,115,101,99,114,101,116]').text).toBe('Āsecret')
    expect(decoded('byte array', '[115,101,99,114,101,116,255,49]').text).toBe('secret\ufffd1')
    expect(decode('byte array', '[-60,-129,115,101,99,114,101,116]')).toBeUndefined()
    expect(decode('byte array', '[115,101,99,114,101,116,256,49]')).toBeUndefined()
    expect(decode('byte array', '[1,2,3,4,5,6,7,999]')).toBeUndefined()
  })
})

describe('binary', () => {
  const utf16 = (text: string) => Buffer.from(text, 'utf16le').toString('latin1')

  test('UTF-16 in both byte orders, from a unit before its first zero byte to one after its last', () => {
    expect(decoded('binary', `id=${utf16('secret')}`).text).toBe('secret\uffffecret')
    expect(decoded('binary', `id=${utf16('secret')}XYZW`).text).toBe('secret\uffffecretX')
  })

  test('a zero byte second in the token', () => {
    expect(decoded('binary', utf16('secret')).text).toBe('secret\uffffecret')
  })

  test('a zlib stream with no zero byte is found by its header alone', () => {
    const text = 'value hunter2 the token api session is password'
    const stream = deflateSync(text, { level: 9 }).toString('latin1')
    expect(stream.startsWith('x\xda')).toBe(true)
    expect(stream).not.toMatch(/\x00|\x1f\x8b/)
    expect(decoded('binary', `v=${stream}`).text).toBe(text)
  })
})

describe('decodedViews', () => {
  const percentNested = (levels: number) => `%${'25'.repeat(levels - 1)}41`

  test(`a text is decoded ${MAX_DEPTH} times deep, not more`, () => {
    const deepest = decodedViews(percentNested(MAX_DEPTH), ['percent'])
    expect(deepest.map((view) => view.text)).toEqual(['%25252541', '%252541', '%2541', '%41', 'A'])
    expect(deepest.at(-1)!.via).toBe('percent+percent+percent+percent')
    const deeper = decodedViews(percentNested(MAX_DEPTH + 1), ['percent'])
    expect(deeper.map((view) => view.text)).not.toContain('A')
    expect(deeper).toHaveLength(MAX_DEPTH + 1)
  })

  test(`a text with more views than ${MAX_VIEWS} keeps ${MAX_VIEWS}`, () => {
    // Four encodings four levels deep each: 70 ways to undo at most four of them.
    const nested = (first: string, escape: (text: string) => string) => escape(escape(escape(first)))
    const text = [
      nested('%41', (s) => s.replace(/%/g, '%25')),
      nested('\\n', (s) => s.replace(/\\/g, '\\\\')),
      nested('&lt;', (s) => s.replace(/&/g, '&amp;')),
      nested('~1', (s) => s.replace(/~/g, '~0')),
    ].join(' ')
    expect(decodedViews(text, ['percent', 'json', 'html', 'pointer'])).toHaveLength(MAX_VIEWS)
  })

  test('each distinct text once, breadth first, each unit from its span of the original', () => {
    const views = decodedViews('%41\\n', ['percent', 'json'])
    expect(views.map((view) => [view.via, view.text])).toEqual([
      ['', '%41\\n'],
      ['percent', 'A\\n'],
      ['json', '%41\n'],
      ['percent+json', 'A\n'],
    ])
    expect(spans(views[3]!)).toEqual([
      [0, 3],
      [3, 5],
    ])
  })

  test('a view is read while the units left are its length at least', () => {
    // A text of 6a units, budget 6 x 6a: six percent readings of 5a units each leave 6a, the text's length, to read
    // its JSON escape; one unit more in the text leaves one unit too few, and the escape is read in the percent view.
    const a = 7282
    const text = (length: number) => `${'%41'.repeat(a / 2)}\\n`.padEnd(length, 'x')
    const vias = (length: number) =>
      decodedViews(text(length), [...Array<string>(6).fill('percent'), 'json']).map((view) => view.via)
    expect(VIEW_UNITS_PER_UNIT * 6 * a).toBeGreaterThan(VIEW_UNITS_FLOOR)
    expect(vias(6 * a)).toEqual(['', 'percent', 'json'])
    expect(vias(6 * a + 1)).toEqual(['', 'percent', 'percent+json'])
  })
})
