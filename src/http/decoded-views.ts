import { decodeHTML } from 'entities'

/**
 * The decoded views of a text: what it says once percent-escapes, JSON string escapes, HTML character references,
 * JSON-pointer escapes, base64 and UTF-8 mis-read as Latin-1 are undone, one after another. Each view keeps, for every
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

/** One decoding step: undefined when the text holds nothing it decodes. */
type Decoder = (text: string) => Decoded | undefined

interface Decoded {
  text: string
  starts: Int32Array
  ends: Int32Array
}

const EMPTY = new Int32Array(0)

/** Collects decoded UTF-16 units with the span of the input each came from. */
class Output {
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
class SpannedBytes {
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
function utf8At(bytes: Uint8Array, length: number, i: number, code: { value: number }): number {
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

/**
 * Whether the token, read from `skip`, is mostly UTF-8 (at most 4 bytes and one in 8 that are not): else it is not the
 * text of a secret at this alignment (hex, words and other base64 read at the wrong one). Stops at the first byte too
 * many.
 */
function plausibleBase64(token: string, skip: number): boolean {
  if (scratch.length < token.length) scratch = new Uint8Array(token.length * 2)
  let length = 0
  for (let g = skip; g + 1 < token.length; g += 4) {
    const v0 = BASE64_VALUE[token.charCodeAt(g)]!
    const v1 = BASE64_VALUE[token.charCodeAt(g + 1)]!
    scratch[length++] = (v0 << 2) | (v1 >> 4)
    if (g + 2 < token.length) {
      const v2 = BASE64_VALUE[token.charCodeAt(g + 2)]!
      scratch[length++] = ((v1 & 15) << 4) | (v2 >> 2)
      if (g + 3 < token.length) scratch[length++] = ((v2 & 3) << 6) | BASE64_VALUE[token.charCodeAt(g + 3)]!
    }
  }
  const allowed = 4 + length / 8
  const code = { value: 0 }
  let invalid = 0
  for (let i = 0; i < length;) {
    const size = utf8At(scratch, length, i, code)
    if (size > 0) i += size
    else if (++invalid > allowed) return false
    else i++
  }
  return true
}

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
 * Base64 and base64url tokens decoded, each at its four alignments (a secret may start at any byte of an encoded
 * stream, and a token may begin before the stream does); an alignment is kept when its bytes are mostly UTF-8, and
 * the alignments kept stand in the token's place, one after another. A decoded unit comes from the whole 4-character
 * group of its first byte through that of its last, so cutting a span out removes every character its bytes touch.
 */
const base64Decoded: Decoder = (text) => {
  let out: Output | undefined
  let copied = 0
  for (const match of text.matchAll(BASE64_TOKEN)) {
    const token = match[0]
    // Hex (hashes, ids) is not read as base64: the base64 of a secret is hex digits alone only by a rare accident.
    if (HEX.test(token)) continue
    let readings = 0
    const bytes = new SpannedBytes(Math.ceil((token.length * 3) / 4))
    for (let skip = 0; skip < 4 && token.length - skip >= 8; skip++) {
      if (!plausibleBase64(token, skip)) continue
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
      const into = (out ??= new Output(text.length))
      if (readings++ === 0) into.copy(text, copied, match.index)
      else into.push(ALIGNMENT_SEPARATOR, match.index, match.index + token.length)
      pushUtf8(into, bytes, 'replacement')
    }
    if (readings === 0) continue
    out!.changed = true
    copied = match.index + token.length
  }
  if (!out) return undefined
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
  base64: base64Decoded,
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
  let level = views
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: DecodedView[] = []
    for (const view of level) {
      for (const name of decoders) {
        if (views.length >= MAX_VIEWS) return views
        const decoded = DECODERS[name]!(view.text)
        if (!decoded || seen.has(decoded.text)) continue
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
