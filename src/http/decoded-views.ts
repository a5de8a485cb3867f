import { constants, inflateRawSync, inflateSync } from 'node:zlib'
import { decodeHTML } from 'entities'

/**
 * The decoded views of a text: what it says once percent-escapes, JSON string escapes, HTML character references,
 * JSON-pointer escapes, UTF-8 mis-read as Latin-1 and wrapped lines are undone, and once the bytes that base64, hex, a
 * JSON array of byte values or binary read as Latin-1 hold are read as UTF-8 or UTF-16, inflated first when they are
 * zlib, gzip or raw deflate, one after another. Each view keeps, for every
 * UTF-16 unit of its text, the span of the original text it came from, so that what is found in a view can be cut out
 * of the original. Decoders are lenient: what does not decode stays as it is.
 */
export interface DecodedView {
  text: string
  /** The decoders applied, in order ('' for the text as it is). */
  via: string
  /** Original span [starts[i], ends[i]) of each unit of text; undefined: the view is the text itself. */
  starts?: Int32Array
  ends?: Int32Array
}

/** One decoding step: undefined when the text holds nothing it decodes. It spends from the budget of the text read. */
type Decoder = (text: string, budget: ReadingBudget) => Decoded | undefined

/**
 * What reading one text may cost, all its views together: the units its views may hold, and the compressed streams
 * that may be inflated and what they may inflate to. A text of any size and content (a bomb, a body of a million
 * tokens each of which reads as something) is read at a cost in proportion to its length; once that is spent no more
 * views are made, and those made are searched.
 */
export interface ReadingBudget {
  units: number
  inflations: number
  rawInflations: number
  inflatedBytes: number
}

/**
 * The units the views of a text may hold: VIEW_UNITS_PER_UNIT for each of its own, and at least VIEW_UNITS_FLOOR, so
 * that a header value or a member is read as deep as MAX_DEPTH and MAX_VIEWS allow, and a large body about as many
 * times as it has encodings in it.
 */
export const VIEW_UNITS_PER_UNIT = 6
export const VIEW_UNITS_FLOOR = 256 * 1024
/** Compressed streams inflated in one text: gzip and zlib, found by their header, and raw deflate, which has none. */
const MAX_INFLATIONS = 16
const MAX_RAW_INFLATIONS = 16
/** What the streams of one text are inflated to at most, together (a bomb is read no further). */
export const MAX_INFLATED = 256 * 1024

/**
 * The bytes every inflation of this process produced, kept or given up at the cap: what reading bombs cost, counted
 * where it is spent (a self-test's measure that does not depend on the garbage collector).
 */
export const inflatedBytes = { total: 0 }

export function readingBudget(text: string): ReadingBudget {
  return {
    units: Math.max(VIEW_UNITS_FLOOR, VIEW_UNITS_PER_UNIT * text.length),
    inflations: MAX_INFLATIONS,
    rawInflations: MAX_RAW_INFLATIONS,
    inflatedBytes: MAX_INFLATED,
  }
}

interface Decoded {
  text: string
  starts: Int32Array
  ends: Int32Array
}

const EMPTY = new Int32Array(0)

/** Collects decoded UTF-16 units with the span of the input each came from. */
export class Output {
  private units = new Uint16Array(0)
  private starts = EMPTY
  private ends = EMPTY
  private length = 0
  changed = false

  /**
   * `expected`: about how many units will be collected (the input's length), so that they are not copied as they grow.
   */
  constructor(expected = 0) {
    if (expected > 0) this.grow(expected + 16)
  }

  /** Appends one UTF-16 unit that came from [start, end) of the input. */
  unit(code: number, start: number, end: number): void {
    if (this.length === this.units.length) this.grow(this.length + 1)
    this.units[this.length] = code
    this.starts[this.length] = start
    this.ends[this.length++] = end
  }

  /** Appends text whose every unit came from [start, end) of the input. */
  push(text: string, start: number, end: number): void {
    for (let i = 0; i < text.length; i++) this.unit(text.charCodeAt(i), start, end)
  }

  /** Appends a code point that came from [start, end) of the input. */
  codePoint(code: number, start: number, end: number): void {
    if (code < 0x10000) this.unit(code, start, end)
    else {
      this.unit(0xd800 + ((code - 0x10000) >> 10), start, end)
      this.unit(0xdc00 + ((code - 0x10000) & 0x3ff), start, end)
    }
  }

  /** Appends input[start, end) unchanged, each unit from itself. */
  copy(input: string, start: number, end: number): void {
    if (end <= start) return
    if (this.length + end - start > this.units.length) this.grow(this.length + end - start)
    for (let i = start; i < end; i++) {
      this.units[this.length] = input.charCodeAt(i)
      this.starts[this.length] = i
      this.ends[this.length++] = i + 1
    }
  }

  private grow(atLeast: number): void {
    const size = Math.max(atLeast, this.units.length * 2, 64)
    const units = new Uint16Array(size)
    const starts = new Int32Array(size)
    const ends = new Int32Array(size)
    units.set(this.units.subarray(0, this.length))
    starts.set(this.starts.subarray(0, this.length))
    ends.set(this.ends.subarray(0, this.length))
    this.units = units
    this.starts = starts
    this.ends = ends
  }

  result(): Decoded | undefined {
    if (!this.changed) return undefined
    // In slices: String.fromCharCode takes its units as arguments. Lone surrogates are kept, as the decoders made them.
    let text = ''
    for (let at = 0; at < this.length; at += 8192)
      text += String.fromCharCode.apply(
        null,
        this.units.subarray(at, Math.min(this.length, at + 8192)) as unknown as number[],
      )
    return { text, starts: this.starts.slice(0, this.length), ends: this.ends.slice(0, this.length) }
  }
}

const HEX = /^[0-9a-fA-F]+$/

/** Bytes, each with the input span it came from. */
export class SpannedBytes {
  bytes: Uint8Array
  starts: Int32Array
  ends: Int32Array
  length = 0

  constructor(capacity: number) {
    this.bytes = new Uint8Array(Math.max(capacity, 4))
    this.starts = new Int32Array(Math.max(capacity, 4))
    this.ends = new Int32Array(Math.max(capacity, 4))
  }

  add(byte: number, start: number, end: number): void {
    if (this.length === this.bytes.length) {
      const grown = new SpannedBytes(this.length * 2)
      grown.bytes.set(this.bytes)
      grown.starts.set(this.starts)
      grown.ends.set(this.ends)
      ;({ bytes: this.bytes, starts: this.starts, ends: this.ends } = grown)
    }
    this.bytes[this.length] = byte
    this.starts[this.length] = start
    this.ends[this.length++] = end
  }
}

/**
 * The length of the UTF-8 sequence that starts at `i`, or 0 when the bytes there are not UTF-8; `code` gets its code
 * point.
 */
export function utf8At(bytes: Uint8Array, length: number, i: number, code: { value: number }): number {
  const b = bytes[i]!
  const size = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0
  if (size === 0 || i + size > length) return 0
  let value = size === 1 ? b : size === 2 ? b & 0x1f : size === 3 ? b & 0x0f : b & 0x07
  for (let k = 1; k < size; k++) {
    const c = bytes[i + k]!
    if ((c & 0xc0) !== 0x80) return 0
    value = (value << 6) | (c & 0x3f)
  }
  if (
    (size === 3 && (value < 0x800 || (value >= 0xd800 && value <= 0xdfff))) ||
    (size === 4 && (value < 0x10000 || value > 0x10ffff))
  )
    return 0
  code.value = value
  return size
}

/**
 * The bytes of a base64 token being judged, reused: most tokens (hex, words, base64 at the wrong alignment) are
 * rejected early.
 */
let scratch = new Uint8Array(1024)

export function growScratch(bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const grown = new Uint8Array(bytes.length * 2)
  grown.set(bytes)
  return grown
}

/**
 * A long token is judged on the bytes of its first PREFIX_CHARS characters before it is read whole: most (random bytes,
 * a run of letters, base64 at the wrong alignment) are no text from their start, and reading a token of megabytes
 * whole at each alignment cost as much as the rest of the redaction.
 */
const PREFIX_CHARS = 1024

/** The token's bytes read from `skip`, up to its character `end`, into scratch; their number. */
export function base64Bytes(token: string, skip: number, end = token.length): number {
  if (scratch.length < end) scratch = new Uint8Array(end * 2)
  let length = 0
  for (let g = skip; g + 1 < end; g += 4) {
    const v0 = BASE64_VALUE[token.charCodeAt(g)]!
    const v1 = BASE64_VALUE[token.charCodeAt(g + 1)]!
    scratch[length++] = (v0 << 2) | (v1 >> 4)
    if (g + 2 < end) {
      const v2 = BASE64_VALUE[token.charCodeAt(g + 2)]!
      scratch[length++] = ((v1 & 15) << 4) | (v2 >> 2)
      if (g + 3 < end) scratch[length++] = ((v2 & 3) << 6) | BASE64_VALUE[token.charCodeAt(g + 3)]!
    }
  }
  return length
}

/** Whether the bytes of the start of a long token may be text (see PREFIX_CHARS): UTF-8 but for a few, or UTF-16. */
function textFromItsStart(length: number): boolean {
  return mostlyUtf8(scratch, length) || utf16Parities(scratch, length) !== 0
}

/**
 * Whether bytes are mostly UTF-8 (at most 4 bytes and one in 8 that are not): else they are not the text of a secret
 * (hex, words and other base64 read at the wrong alignment, random bytes). Stops at the first byte too many.
 */
export function mostlyUtf8(bytes: Uint8Array, length: number, allowed = 4 + length / 8): boolean {
  const code = { value: 0 }
  let invalid = 0
  for (let i = 0; i < length;) {
    const size = utf8At(bytes, length, i, code)
    if (size > 0) i += size
    else if (++invalid > allowed) return false
    else i++
  }
  return true
}

/** Whether bytes are UTF-8 text: every byte UTF-8, and no control character but tab and line breaks. */
export function textUtf8(bytes: Uint8Array, length: number): boolean {
  for (let i = 0; i < length; i++) {
    const b = bytes[i]!
    if ((b < 0x20 && b !== 9 && b !== 10 && b !== 13) || b === 0x7f) return false
  }
  return mostlyUtf8(bytes, length, 0)
}

/**
 * Which byte parity holds a zero in at least one pair in four, and the other in fewer than half as many: UTF-16 of
 * mostly Latin text (a zero high byte), 1 for the odd positions (little-endian from an even start), 2 for the even
 * ones. 0: not UTF-16 of such text.
 */
export function utf16Parities(bytes: Uint8Array, length: number): number {
  let even = 0
  let odd = 0
  for (let i = 0; i < length; i++) {
    // Such text has a zero in about every other byte from its start: bytes without 8 in their first 64 (random bytes,
    // which have one in 256) are not read further.
    if (i === UTF16_FIRST_BYTES && even < 8 && odd < 8) return 0
    if (bytes[i] !== 0) continue
    if (i % 2 === 0) even++
    else odd++
  }
  const pairs = length / 2
  // Zeros at both parities are no text (a run of zero bytes, random bytes).
  return odd >= pairs / 4 && odd > 1 && even < odd / 2 ? 1 : even >= pairs / 4 && even > 1 && odd < even / 2 ? 2 : 0
}

const UTF16_FIRST_BYTES = 64

/** The fewest bytes an inflated stream holds to be read as text: garbage inflates to a few bytes by chance. */
const MIN_INFLATED_TEXT = 8

/**
 * Whether bytes begin a gzip member (1f 8b) or a zlib stream (deflate, a window of at most 32 KiB, its check bits
 * right).
 */
export function compressedStart(bytes: Uint8Array, length: number): 'gzip' | 'zlib' | undefined {
  if (length < 3) return undefined
  if (bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 8) return 'gzip'
  // No preset dictionary (FDICT clear): no server's zlib stream has one, and half of chance headers do.
  return (bytes[0]! & 0x0f) === 8 &&
    bytes[0]! >> 4 <= 7 &&
    (bytes[1]! & 0x20) === 0 &&
    ((bytes[0]! << 8) | bytes[1]!) % 31 === 0
    ? 'zlib'
    : undefined
}

/** Where the deflate data of a gzip member begins: after its header and the optional fields its flags announce. */
export function gzipDataStart(bytes: Uint8Array, length: number): number {
  const flags = bytes[3]!
  let at = 10
  if (flags & 4) at += 2 + (bytes[10]! | (bytes[11]! << 8))
  for (const flag of [8, 16]) if (flags & flag) while (at < length && bytes[at++] !== 0);
  return flags & 2 ? at + 2 : at
}

/**
 * The text that bytes inflate to, as gzip, zlib or (`raw`) raw deflate, when that is UTF-8 but for one byte in 8;
 * else undefined. A gzip member's data is inflated as raw deflate, so that what follows the stream (the rest of a text
 * read as bytes) does not make it fail; a stream cut short (a value cut at the capture cap) is inflated as far as it
 * goes. Each inflation spends from the budget, which ends them.
 */
export function inflated(bytes: Uint8Array, length: number, raw: boolean, budget: ReadingBudget): string | undefined {
  const kind = compressedStart(bytes, length) ?? (raw ? 'raw' : undefined)
  if (!kind || budget.inflations <= 0 || budget.inflatedBytes <= 0 || (kind === 'raw' && budget.rawInflations <= 0))
    return undefined
  budget.inflations--
  if (kind === 'raw') budget.rawInflations--
  const options = { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: budget.inflatedBytes }
  let out: Buffer
  try {
    out =
      kind === 'zlib'
        ? inflateSync(bytes.subarray(0, length), options)
        : inflateRawSync(bytes.subarray(kind === 'gzip' ? gzipDataStart(bytes, length) : 0, length), options)
  } catch (error) {
    // A stream that inflates past what is left (a bomb) was inflated that far, then given up: that is spent.
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      inflatedBytes.total += budget.inflatedBytes
      budget.inflatedBytes = 0
    }
    return undefined
  }
  inflatedBytes.total += out.length
  budget.inflatedBytes -= out.length
  return out.length >= MIN_INFLATED_TEXT && mostlyUtf8(out, out.length, out.length / 8)
    ? out.toString('utf8')
    : undefined
}

/**
 * Pushes each reading of bytes as text, after a separator but the first: UTF-8 (when mostly that), UTF-16 in both byte
 * orders (when a zero byte is every other one), and `inflatedText`, what they inflate to (see inflated), if
 * any. An inflated unit comes from the whole of `whole`: no byte of a compressed stream stands for one character.
 * `asUtf8`: false where the bytes are the text's own units (binary read as Latin-1). `open(first)` gives the output,
 * told whether this is the token's first reading (pushed 0): the output is made only once something is read. Returns
 * the number of readings pushed, counting from `pushed`.
 */
function pushReadings(
  open: (first: boolean) => Output,
  spanned: SpannedBytes,
  whole: { start: number; end: number },
  inflatedText: string | undefined,
  pushed: number,
  asUtf8 = true,
): number {
  const { bytes, length } = spanned
  const next = (): Output => {
    const first = pushed++ === 0
    const out = open(first)
    if (!first) out.push(ALIGNMENT_SEPARATOR, whole.start, whole.end)
    return out
  }
  if (asUtf8 && mostlyUtf8(bytes, length)) pushUtf8(next(), spanned, 'replacement')
  const parities = utf16Parities(bytes, length)
  for (const [bit, offsets] of UTF16_READINGS) {
    if ((parities & bit) === 0) continue
    for (const [offset, order] of offsets) {
      const out = next()
      for (let i = offset; i + 1 < length; i += 2)
        out.unit(
          order === 'le' ? bytes[i]! | (bytes[i + 1]! << 8) : (bytes[i]! << 8) | bytes[i + 1]!,
          spanned.starts[i]!,
          spanned.ends[i + 1]!,
        )
    }
  }
  if (inflatedText !== undefined) next().push(inflatedText, spanned.starts[0]!, spanned.ends[length - 1]!)
  return pushed
}

/** The UTF-16 readings of bytes by the parity of their zeros (utf16Parities): from which byte, in which order. */
const UTF16_READINGS = [
  [
    1,
    [
      [0, 'le'],
      [1, 'be'],
    ],
  ],
  [
    2,
    [
      [1, 'le'],
      [0, 'be'],
    ],
  ],
] as const

/**
 * Bytes as UTF-8 where they form it; a byte that does not is read as Latin-1 (how escape() and Latin-1 encoders write
 * a character), or as U+FFFD when `invalidAs` says so. Returns the number of bytes that were not UTF-8.
 */
function pushUtf8(out: Output, spanned: SpannedBytes, invalidAs: 'latin1' | 'replacement'): number {
  const { bytes, starts, ends, length } = spanned
  const code = { value: 0 }
  let invalid = 0
  for (let i = 0; i < length;) {
    const size = utf8At(bytes, length, i, code)
    if (size > 0) {
      out.codePoint(code.value, starts[i]!, ends[i + size - 1]!)
      i += size
    } else {
      invalid++
      out.unit(invalidAs === 'latin1' ? bytes[i]! : 0xfffd, starts[i]!, ends[i]!)
      i++
    }
  }
  return invalid
}

/**
 * Percent-escapes undone, hex in either case: runs of %XX as UTF-8 (a byte that is not UTF-8 as Latin-1, as escape()
 * writes é), and escape()'s %uXXXX. '+' stays '+': the search looks for a secret's spaces as '+' too (form encoding).
 */
const percentDecoded: Decoder = (text) => {
  if (!text.includes('%')) return undefined
  const out = new Output(text.length)
  let copied = 0
  for (let i = text.indexOf('%'); i !== -1 && i < text.length; i = text.indexOf('%', i)) {
    if (text[i + 1] === 'u' || text[i + 1] === 'U') {
      const hex = text.slice(i + 2, i + 6)
      if (hex.length === 4 && HEX.test(hex)) {
        out.copy(text, copied, i)
        out.push(String.fromCharCode(parseInt(hex, 16)), i, i + 6)
        out.changed = true
        copied = i += 6
        continue
      }
    }
    const bytes = new SpannedBytes(8)
    let at = i
    while (text[at] === '%' && HEX.test(text.slice(at + 1, at + 3)) && text.slice(at + 1, at + 3).length === 2) {
      bytes.add(parseInt(text.slice(at + 1, at + 3), 16), at, at + 3)
      at += 3
    }
    if (bytes.length === 0) {
      i++
      continue
    }
    out.copy(text, copied, i)
    pushUtf8(out, bytes, 'latin1')
    out.changed = true
    copied = i = at
  }
  out.copy(text, copied, text.length)
  return out.result()
}

const JSON_SIMPLE: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
}

/** JSON string escapes undone: \uXXXX in either case (surrogate pairs join as they are read), \/, \" and the rest. */
const jsonUnescaped: Decoder = (text) => {
  if (!text.includes('\\')) return undefined
  const out = new Output(text.length)
  let copied = 0
  for (let i = text.indexOf('\\'); i !== -1 && i < text.length - 1; i = text.indexOf('\\', i)) {
    const next = text[i + 1]!
    let decoded: string | undefined
    let size = 2
    if (next === 'u' && HEX.test(text.slice(i + 2, i + 6)) && text.slice(i + 2, i + 6).length === 4) {
      decoded = String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16))
      size = 6
    } else decoded = JSON_SIMPLE[next]
    if (decoded === undefined) {
      i++
      continue
    }
    out.copy(text, copied, i)
    out.push(decoded, i, i + size)
    out.changed = true
    copied = i += size
  }
  out.copy(text, copied, text.length)
  return out.result()
}

const REFERENCE = /&(?:#[xX]([0-9a-fA-F]{1,8});?|#([0-9]{1,10});?|[A-Za-z][A-Za-z0-9]{1,31};?)/g

/**
 * HTML character references undone: decimal and hex as the code point (or UTF-16 unit) they name, leniently; named
 * ones as the HTML standard's table says (the `entities` package, with the legacy names written without ';').
 */
const htmlUnescaped: Decoder = (text) => {
  if (!text.includes('&')) return undefined
  const out = new Output(text.length)
  let copied = 0
  for (const match of text.matchAll(REFERENCE)) {
    const [reference, hex, dec] = match
    const code = hex !== undefined ? parseInt(hex, 16) : dec !== undefined ? Number(dec) : undefined
    let decoded: string
    if (code !== undefined) decoded = code <= 0x10ffff ? String.fromCodePoint(code) : reference
    else decoded = decodeHTML(reference)
    if (decoded === reference) continue
    out.copy(text, copied, match.index)
    out.push(decoded, match.index, match.index + reference.length)
    out.changed = true
    copied = match.index + reference.length
  }
  out.copy(text, copied, text.length)
  return out.result()
}

/** JSON-pointer escapes undone (~1 for '/', ~0 for '~'), as ajv's instancePath writes a member's name. */
const pointerUnescaped: Decoder = (text) => {
  if (!/~[01]/.test(text)) return undefined
  const out = new Output(text.length)
  let copied = 0
  for (const match of text.matchAll(/~[01]/g)) {
    out.copy(text, copied, match.index)
    out.push(match[0] === '~1' ? '/' : '~', match.index, match.index + 2)
    copied = match.index + 2
  }
  out.changed = true
  out.copy(text, copied, text.length)
  return out.result()
}

/** UTF-8 read as Latin-1 undone (Ã© back to é), as an HTTP client reads a header value that a server wrote in UTF-8. */
const latin1Misread: Decoder = (text) => {
  if (!/[\u00c2-\u00f4][\u0080-\u00bf]/.test(text)) return undefined
  const out = new Output(text.length)
  let copied = 0
  for (const match of text.matchAll(/[\u0080-\u00ff]+/g)) {
    out.copy(text, copied, match.index)
    const bytes = new SpannedBytes(match[0].length)
    for (let k = 0; k < match[0].length; k++) bytes.add(match[0].charCodeAt(k), match.index + k, match.index + k + 1)
    if (pushUtf8(out, bytes, 'latin1') < bytes.length) out.changed = true
    copied = match.index + match[0].length
  }
  out.copy(text, copied, text.length)
  return out.result()
}

/** A run of base64 or base64url characters long enough to hold a piece of a secret that is no accident. */
const BASE64_TOKEN = /[A-Za-z0-9+/_-]{8,}/g
const BASE64_VALUE = new Int8Array(128).fill(-1)
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries())
  BASE64_VALUE[c.charCodeAt(0)] = i
BASE64_VALUE['-'.charCodeAt(0)] = 62
BASE64_VALUE['_'.charCodeAt(0)] = 63
/** Between the readings of one token at its four alignments: a noncharacter, which no decoded text holds by chance. */
const ALIGNMENT_SEPARATOR = '\uffff'

/**
 * A base64 token that may be raw deflate (which has no signature): long, and with capitals, small letters and digits.
 * It is tried on MAX_RAW_INFLATIONS of them in a text at most: inflating garbage costs time.
 */
const RAW_DEFLATE_CANDIDATE = /^(?=.{12})(?=.*[A-Z])(?=.*[a-z])(?=.*[0-9])/
/** The same, judged on the first PREFIX_CHARS characters (a long token is read whole only if that may be one). */
const RAW_CANDIDATE_START = new RegExp(
  `^(?=.{12})(?=.{0,${PREFIX_CHARS}}[A-Z])(?=.{0,${PREFIX_CHARS}}[a-z])(?=.{0,${PREFIX_CHARS}}[0-9])`,
)

/**
 * Base64 and base64url tokens decoded, each at its four alignments (a secret may start at any byte of an encoded
 * stream, and a token may begin before the stream does); an alignment is kept when its bytes read as text (see
 * pushReadings), and the readings kept stand in the token's place, one after another. A decoded unit comes from the
 * whole 4-character group of its first byte through that of its last, so cutting a span out removes every character
 * its bytes touch. A gzip or zlib stream is looked for at each alignment, raw deflate from the token's start only.
 */
const base64Decoded: Decoder = (text, budget) => {
  const replacing = new Replacing(text)
  for (const match of text.matchAll(BASE64_TOKEN)) {
    const token = match[0]
    // Hex (hashes, ids) is not read as base64: the base64 of a secret is hex digits alone only by a rare accident.
    if (HEX.test(token)) continue
    let readings = 0
    let bytes: SpannedBytes | undefined
    const whole = { start: match.index, end: match.index + token.length }
    for (let skip = 0; skip < 4 && token.length - skip >= 8; skip++) {
      // A gzip or zlib stream is tried whole at each alignment (a stray character may precede it in the token: base64
      // of base64 from its second byte), raw deflate, which has no signature, from the token's start only.
      const compressed =
        compressedStart(scratch, base64Bytes(token, skip, skip + 8)) !== undefined ||
        (skip === 0 && RAW_CANDIDATE_START.test(token))
      if (token.length > PREFIX_CHARS && !compressed && !textFromItsStart(base64Bytes(token, skip, PREFIX_CHARS)))
        continue
      const length = base64Bytes(token, skip)
      const utf8 = mostlyUtf8(scratch, length)
      // The base64 of text is not raw deflate, whose bytes are seldom all UTF-8 (though a short stream may be mostly).
      const raw = skip === 0 && !textUtf8(scratch, length) && RAW_DEFLATE_CANDIDATE.test(token)
      // Inflated from the scratch bytes, before their spans are made: most tries (raw deflate above all) find nothing.
      const inflatedText = inflated(scratch, length, raw, budget)
      if (inflatedText === undefined && !utf8 && utf16Parities(scratch, length) === 0) continue
      bytes ??= new SpannedBytes(Math.ceil((token.length * 3) / 4))
      bytes.length = 0
      for (let g = skip; g + 1 < token.length; g += 4) {
        const end = Math.min(g + 4, token.length)
        const start = match.index + g
        const v0 = BASE64_VALUE[token.charCodeAt(g)]!
        const v1 = BASE64_VALUE[token.charCodeAt(g + 1)]!
        bytes.add((v0 << 2) | (v1 >> 4), start, match.index + end)
        if (end - g > 2) {
          const v2 = BASE64_VALUE[token.charCodeAt(g + 2)]!
          bytes.add(((v1 & 15) << 4) | (v2 >> 2), start, match.index + end)
          if (end - g > 3) bytes.add(((v2 & 3) << 6) | BASE64_VALUE[token.charCodeAt(g + 3)]!, start, match.index + end)
        }
      }
      readings = pushReadings((first) => replacing.open(first, whole.start), bytes, whole, inflatedText, readings)
    }
    if (readings > 0) replacing.replaced(whole.end)
  }
  return replacing.result()
}

/**
 * The output of a decoder that replaces tokens of a text by their readings, made at the first reading (most texts
 * hold no token that reads as text).
 */
class Replacing {
  private out: Output | undefined
  private copied = 0

  constructor(private readonly text: string) {}

  /** The output, for a reading of the token that starts at `start`: before its `first`, the text up to the token. */
  open(first: boolean, start: number): Output {
    this.out ??= new Output(this.text.length)
    if (first) this.out.copy(this.text, this.copied, start)
    return this.out
  }

  /** The token that ends at `end` was read: what follows is copied from there. */
  replaced(end: number): void {
    this.out!.changed = true
    this.copied = end
  }

  result(): Decoded | undefined {
    if (!this.out) return undefined
    this.out.copy(this.text, this.copied, this.text.length)
    return this.out.result()
  }
}

/**
 * Replaces each match of `tokens` that holds bytes (as `bytesOf` reads them, undefined when it does not) by the
 * readings of those bytes (pushReadings), one after another.
 */
function bytesDecoder(
  tokens: RegExp,
  quick: RegExp | undefined,
  bytesOf: (token: string, at: number) => SpannedBytes[] | undefined,
  asUtf8 = true,
): Decoder {
  return (text, budget) => {
    if (quick && !quick.test(text)) return undefined
    const replacing = new Replacing(text)
    for (const match of text.matchAll(tokens)) {
      const whole = { start: match.index, end: match.index + match[0].length }
      const open = (first: boolean) => replacing.open(first, whole.start)
      let readings = 0
      for (const bytes of bytesOf(match[0], match.index) ?? []) {
        const inflatedText = inflated(bytes.bytes, bytes.length, false, budget)
        readings = pushReadings(open, bytes, whole, inflatedText, readings, asUtf8)
      }
      if (readings > 0) replacing.replaced(whole.end)
    }
    return replacing.result()
  }
}

/**
 * Hex of bytes, in either case: a run of 16 digits or more (read from its first digit and from its second, as a run
 * may begin with a digit that is not the stream's), pairs with a colon or space between them, and \xHH escapes.
 */
const hexDecoded = bytesDecoder(
  /(?:\\x[0-9a-fA-F]{2}){8,}|[0-9a-fA-F]{2}(?:[: ][0-9a-fA-F]{2}){7,}|[0-9a-fA-F]{16,}/g,
  // No quick test: one that rejects text without hex costs what the search for its tokens does.
  undefined,
  (token, at) => {
    // Decimal digits alone are most often a number: read only where their bytes are text, as those of hex text are
    // (the hex of '0'-'9' and 'a'-'f' is 30-39 and 61-66: the hex of hex is digits alone).
    const number = !/[a-fA-F\\]/.test(token)
    const contiguous = HEX.test(token)
    const read: SpannedBytes[] = []
    for (const offset of contiguous ? [0, 1] : [0]) {
      // A contiguous run (most are hashes and ids) is judged on its bytes before their spans are made.
      // A long run is judged on its start first (see PREFIX_CHARS; a character the cut split is left out of it).
      if (contiguous && token.length > PREFIX_CHARS && !readable(hexBytes(token, offset, PREFIX_CHARS) - 3, number))
        continue
      if (contiguous && !readable(hexBytes(token, offset), number)) continue
      const bytes = new SpannedBytes(token.length / 2)
      for (const pair of token.slice(offset).matchAll(/[0-9a-fA-F]{2}/g))
        bytes.add(parseInt(pair[0], 16), at + offset + pair.index, at + offset + pair.index + 2)
      // A contiguous run was judged above, before its spans were made.
      if (number && !contiguous && !textOrUtf16(bytes.bytes, bytes.length)) continue
      read.push(bytes)
    }
    return read
  },
)

/** A contiguous hex run's bytes from `offset`, up to its character `end`, into scratch; their number. */
function hexBytes(token: string, offset: number, end = token.length): number {
  if (scratch.length < end) scratch = new Uint8Array(2 * end)
  let length = 0
  for (let i = offset; i + 1 < end; i += 2)
    scratch[length++] = (HEX_VALUE[token.charCodeAt(i)]! << 4) | HEX_VALUE[token.charCodeAt(i + 1)]!
  return length
}

const HEX_VALUE = new Uint8Array(128)
for (const [i, c] of [...'0123456789abcdef'].entries())
  HEX_VALUE[c.charCodeAt(0)] = HEX_VALUE[c.toUpperCase().charCodeAt(0)] = i

/**
 * Whether the `length` bytes in scratch may be read as text by pushReadings: most hex runs (hashes, ids) are not.
 * Mostly UTF-8 is enough (hex digits or a control character beside a secret's hex leave the rest of it readable), but
 * the bytes of a `number` must be text.
 */
function readable(length: number, number: boolean): boolean {
  if (number) return textOrUtf16(scratch, length)
  return (
    mostlyUtf8(scratch, length) ||
    utf16Parities(scratch, length) !== 0 ||
    compressedStart(scratch, length) !== undefined
  )
}

/** Whether bytes are text: UTF-8 throughout, or UTF-16 (the hex of UTF-16 of hex digits is decimal digits too). */
function textOrUtf16(bytes: Uint8Array, length: number): boolean {
  return textUtf8(bytes, length) || utf16Parities(bytes, length) !== 0
}

/** A JSON array of eight byte values or more, unsigned (0 to 255) or signed (-128 to 127, as Java writes a byte[]). */
const byteArrayDecoded = bytesDecoder(/\[\s*-?\d{1,3}(?:\s*,\s*-?\d{1,3}){7,}\s*\]/g, /\[\s*-?\d/, (token, at) => {
  // Parsed by hand into scratch, their spans made only when they read as text: an array of numbers seldom does.
  const starts: number[] = []
  const ends: number[] = []
  for (let i = 0; i < token.length;) {
    const c = token.charCodeAt(i)
    if (c !== 0x2d && (c < 0x30 || c > 0x39)) {
      i++
      continue
    }
    const start = i
    let value = 0
    for (
      let digit = token.charCodeAt(c === 0x2d ? ++i : i);
      digit >= 0x30 && digit <= 0x39;
      digit = token.charCodeAt(++i)
    )
      value = value * 10 + digit - 0x30
    if (c === 0x2d) value = -value
    if (value < -128 || value > 255) return undefined
    if (scratch.length <= starts.length) scratch = growScratch(scratch)
    scratch[starts.length] = (value + 256) % 256
    starts.push(at + start)
    ends.push(at + i)
  }
  if (!readable(starts.length, false)) return undefined
  const bytes = new SpannedBytes(starts.length)
  for (let k = 0; k < starts.length; k++) bytes.add(scratch[k]!, starts[k]!, ends[k]!)
  return [bytes]
})

/**
 * Binary read as Latin-1 (each byte one unit: a header value as undici reads it, a JSON string's \\u00XX escapes once
 * undone): a run of such units that holds a zero byte (UTF-16), or from where a gzip or zlib stream begins in it. Its
 * bytes are not read as UTF-8: that reading is the text's own units (UTF-8 read as Latin-1 is the decoder latin1's),
 * and each view read again would add the same readings, a new view each time, until none were left for the rest.
 */
const binaryDecoded = bytesDecoder(
  /[\x00-\xff]{8,}/g,
  /\x00|\x1f\x8b|x[\x01\x5e\x9c\xda]/,
  (token, at) => {
    const spanned = (from: number, to = token.length) => {
      const bytes = new SpannedBytes(to - from)
      for (let i = from; i < to; i++) bytes.add(token.charCodeAt(i), at + i, at + i + 1)
      return bytes
    }
    const compressed = token.search(/\x1f\x8b\x08|x[\x01\x5e\x9c\xda]/)
    const readings = compressed === -1 ? [] : [spanned(compressed)]
    // From a unit before the first zero byte to one after the last: text around UTF-16 would thin out its zeros.
    const zero = token.indexOf('\x00')
    if (zero !== -1)
      readings.push(spanned(Math.max(0, zero - 1), Math.min(token.length, token.lastIndexOf('\x00') + 2)))
    return readings
  },
  false,
)

/**
 * Lines joined where a line break (and the indentation after it) falls between two characters of a token: base64
 * wrapped at 76 (MIME) or 64 (PEM) characters, a header value folded, a secret written over two lines.
 */
const linesJoined: Decoder = (text) => {
  if (!/[\r\n]/.test(text)) return undefined
  const out = new Output(text.length)
  let copied = 0
  for (const match of text.matchAll(/(?<=[A-Za-z0-9+/=_.~-])(?:\r\n|\r|\n)[ \t]*(?=[A-Za-z0-9+/=_.~-])/g)) {
    out.copy(text, copied, match.index)
    copied = match.index + match[0].length
    out.changed = true
  }
  out.copy(text, copied, text.length)
  return out.result()
}

/** The decoders, by name, in the order views are built. */
export const DECODERS: Readonly<Record<string, Decoder>> = {
  percent: percentDecoded,
  json: jsonUnescaped,
  html: htmlUnescaped,
  pointer: pointerUnescaped,
  latin1: latin1Misread,
  lines: linesJoined,
  base64: base64Decoded,
  hex: hexDecoded,
  'byte array': byteArrayDecoded,
  binary: binaryDecoded,
}

/** Decoders applied one after another at most this many times: an encoding inside an encoding inside an encoding. */
export const MAX_DEPTH = 4
/** Views kept of one text, the text itself included: garbage that decodes into more garbage is not followed further. */
export const MAX_VIEWS = 64

/**
 * The text and its decoded views, breadth first (a view decoded once before one decoded twice), each distinct text
 * once. `decoders` names those used (all by default: a test removes one to see the self-test fail).
 */
export function decodedViews(text: string, decoders: readonly string[] = Object.keys(DECODERS)): DecodedView[] {
  const views: DecodedView[] = [{ text, via: '' }]
  const seen = new Set([text])
  const budget = readingBudget(text)
  let level = [...views]
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: DecodedView[] = []
    for (const view of level) {
      for (const name of decoders) {
        if (views.length >= MAX_VIEWS) return views
        // A reading costs about the length of the view read; what it makes is spent from the text's budget.
        if (budget.units < view.text.length) break
        const decoded = DECODERS[name]!(view.text, budget)
        if (!decoded) continue
        budget.units -= decoded.text.length
        if (seen.has(decoded.text)) continue
        seen.add(decoded.text)
        const composed = composedWith(view, decoded, name)
        views.push(composed)
        next.push(composed)
      }
    }
    level = next
  }
  return views
}

function composedWith(view: DecodedView, decoded: Decoded, name: string): DecodedView {
  const via = view.via ? `${view.via}+${name}` : name
  if (!view.starts || !view.ends) return { text: decoded.text, via, starts: decoded.starts, ends: decoded.ends }
  const starts = new Int32Array(decoded.text.length)
  const ends = new Int32Array(decoded.text.length)
  for (let i = 0; i < decoded.text.length; i++) {
    // A unit decoded from several of the view's: the original span of them all (a base64 view's are not in order).
    let start = view.starts[decoded.starts[i]!]!
    let end = view.ends[decoded.starts[i]!]!
    for (let k = decoded.starts[i]! + 1; k < decoded.ends[i]!; k++) {
      start = Math.min(start, view.starts[k]!)
      end = Math.max(end, view.ends[k]!)
    }
    starts[i] = start
    ends[i] = end
  }
  return { text: decoded.text, via, starts, ends }
}

/** The span of the original text that units [from, to) of a view came from. */
export function originalSpan(view: DecodedView, from: number, to: number): { start: number; end: number } {
  if (!view.starts || !view.ends) return { start: from, end: to }
  let start = Infinity
  let end = -Infinity
  for (let i = from; i < to; i++) {
    start = Math.min(start, view.starts[i]!)
    end = Math.max(end, view.ends[i]!)
  }
  return { start, end }
}
