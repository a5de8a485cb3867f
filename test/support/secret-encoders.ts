import { deflateRawSync, deflateSync, gzipSync, inflateRawSync, inflateSync } from 'node:zlib'

/**
 * Real encoders a target may pass a secret through before it writes it back: each is what a library, a browser or a
 * language's standard encoder produces. The generative self-test of secrecy chains them.
 */

const nonAlphanumeric = /[^A-Za-z0-9]/g

/**
 * Every UTF-16 unit that is not a letter or digit as \uXXXX, as .NET's default JSON encoder writes it (with + as
 * \u002B).
 */
function escapeAll(text: string, hexCase: 'lower' | 'upper'): string {
  return text.replace(nonAlphanumeric, (c) => {
    const hex = c.charCodeAt(0).toString(16).padStart(4, '0')
    return `\\u${hexCase === 'upper' ? hex.toUpperCase() : hex}`
  })
}

/**
 * A query value as WHATWG URL serialises it (new URL(), every browser): ~ ! ( ) + / = kept, the rest percent-encoded.
 */
function whatwgQuery(text: string): string {
  const url = new URL('http://127.0.0.1/x')
  url.search = `r=${text}`
  return url.search.slice('?r='.length)
}

/** Base64 of the secret's UTF-8 after `offset` other bytes, so that the secret starts at each byte of a group. */
function base64At(offset: number, alphabet: 'base64' | 'base64url') {
  return (text: string) =>
    Buffer.concat([Buffer.from('xyz'.slice(0, offset)), Buffer.from(text, 'utf8'), Buffer.from('!')]).toString(alphabet)
}

/**
 * HTML with every character that is not a letter or digit as a reference: the five named ones, then hex and decimal in
 * turn.
 */
function htmlReferences(text: string): string {
  const named: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }
  let turn = 0
  return [...text]
    .map(
      (c) =>
        named[c] ??
        (/[A-Za-z0-9]/.test(c)
          ? c
          : turn++ % 2 === 0
            ? `&#x${c.codePointAt(0)!.toString(16)};`
            : `&#${c.codePointAt(0)};`),
    )
    .join('')
}

export const ENCODERS: Record<string, (text: string) => string> = {
  raw: (text) => text,
  encodeURIComponent,
  encodeURI,
  URLSearchParams: (text) => new URLSearchParams({ r: text }).toString().slice('r='.length),
  'WHATWG URL': whatwgQuery,
  'escape()': (text) => escape(text),
  'form, + for space': (text) => new URLSearchParams({ r: text }).toString().slice('r='.length),
  'form, %20 for space': (text) => new URLSearchParams({ r: text }).toString().slice('r='.length).replace(/\+/g, '%20'),
  'percent-encoded twice': (text) => encodeURIComponent(encodeURIComponent(text)),
  JSON: (text) => JSON.stringify(text).slice(1, -1),
  'JSON with \\/': (text) => JSON.stringify(text).slice(1, -1).replace(/\//g, '\\/'),
  'JSON escaping all, lower-case hex': (text) => escapeAll(text, 'lower'),
  'JSON escaping all, upper-case hex': (text) => escapeAll(text, 'upper'),
  'HTML references': htmlReferences,
  'UTF-8 read as Latin-1': (text) => Buffer.from(text, 'utf8').toString('latin1'),
  ...Object.fromEntries(
    [0, 1, 2].flatMap((offset) => [
      [`base64 at byte ${offset}`, base64At(offset, 'base64')],
      [`base64url at byte ${offset}`, base64At(offset, 'base64url')],
    ]),
  ),
  'base64, wrapped at 76 (MIME)': (text) =>
    Buffer.from(`${text}${text}`, 'utf8').toString('base64').replace(/.{76}/g, '$&\r\n'),
  'gzip in base64': (text) => gzipSync(`{"session":${JSON.stringify(text)}}`).toString('base64'),
  'zlib in base64url (a session cookie)': (text) =>
    `.${deflateSync(`{"session":${JSON.stringify(text)}}`).toString('base64url')}`,
  'raw deflate in base64': (text) => deflateRawSync(Buffer.from(text, 'utf8')).toString('base64'),
  'gzip in hex': (text) => gzipSync(text).toString('hex'),
  'hex, lower case': (text) => Buffer.from(text, 'utf8').toString('hex'),
  'hex, upper case': (text) => Buffer.from(text, 'utf8').toString('hex').toUpperCase(),
  'a JSON array of bytes': (text) => JSON.stringify([...Buffer.from(text, 'utf8')]),
  'UTF-16LE in base64': (text) => Buffer.from(text, 'utf16le').toString('base64'),
  'UTF-16BE in hex': (text) => Buffer.from(text, 'utf16le').swap16().toString('hex'),
  'UTF-16LE bytes as Latin-1': (text) => Buffer.from(text, 'utf16le').toString('latin1'),
}

/**
 * A text as it would be read back by a reader who knows no encoding in particular: every view the standard decoders
 * of the platform give (decodeURIComponent, unescape, JSON.parse, Buffer's base64 and Latin-1), composed, up to
 * `maxDepth` decodings deep and `maxViews` views of each part. Written apart from src/http/decoded-views.ts so that a
 * decoder missing there is not missing here as well.
 */
export function* readerViews(text: string, maxDepth = 6, maxViews = 400): Generator<string> {
  for (const part of partsOf(text)) yield* viewsOf(part, maxDepth, maxViews)
}

function viewsOf(text: string, maxDepth: number, maxViews: number): string[] {
  const views = [text]
  const seen = new Set(views)
  let level = views
  for (let depth = 0; depth < maxDepth && level.length > 0; depth++) {
    const next: string[] = []
    for (const view of level) {
      for (const decoded of decodings(view)) {
        if (seen.has(decoded) || views.length >= maxViews) continue
        seen.add(decoded)
        views.push(decoded)
        next.push(decoded)
      }
    }
    level = next
  }
  return views
}

/** A string of JSON text, with its quotes and escapes. */
const JSON_STRING = /"(?:[^"\\]|\\.)*"/g

/**
 * The parts of a text a reader decodes one by one. JSON text (an object or an array) is read as a reader of JSON
 * reads it: each distinct string, member names too, is a part (read in turn as JSON text when it is one, as a HAR's
 * bodies are), and the text with its strings emptied is one more (its numbers: an array of byte values). Any other
 * text is one part, but markup (XML, HTML), whose text between tags and each tag are parts. No decoder here reads
 * across the quotes of a string or a tag's brackets (a base64 or hex token, a percent-escape, a character reference
 * stop at them; the writer escapes a quote in a string and a bracket in markup, so those that bound strings and tags
 * are never a secret's), so a form found in the whole text is found in one of its parts, decoded once however often
 * the text repeats it: a HAR of 5 MB repeats each header of each exchange, and its views were each as large as it.
 */
function partsOf(text: string): Set<string> {
  const parts = new Set<string>()
  const read = new Set<string>()
  const readPart = (part: string) => {
    if (read.has(part)) return
    read.add(part)
    const value = jsonContainer(part)
    if (value === undefined) return void parts.add(part)
    parts.add(part.replace(JSON_STRING, '""'))
    try {
      readValue(value)
    } catch (error) {
      // Nested deeper than the stack: the text is read whole as well.
      if (!(error instanceof RangeError)) throw error
      parts.add(part)
    }
  }
  const readValue = (value: unknown): void => {
    if (typeof value === 'string') readPart(value)
    else if (Array.isArray(value)) value.forEach(readValue)
    else if (value !== null && typeof value === 'object')
      for (const [name, member] of Object.entries(value)) {
        readPart(name)
        readValue(member)
      }
  }
  // Only the text itself is markup: a bracket in a body or a value may be a secret's.
  if (/^\s*</.test(text)) text.split(/[<>]/).forEach(readPart)
  else readPart(text)
  return parts
}

/** The object or array a text is as JSON; undefined for any other text. */
function jsonContainer(text: string): object | undefined {
  if (!/^\s*[[{]/.test(text)) return undefined
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null ? value : undefined
  } catch {
    return undefined
  }
}

/** The base64 tokens of a text that raw deflate is tried on. */
const RAW_TRIES = 8

/** A byte that printable ASCII text does not hold. */
const BINARY = /[\x00-\x08\x0e-\x1f\x7f-\xff]/

function decodings(text: string): string[] {
  const out: string[] = []
  if (text.includes('%')) {
    const percent = text
      .replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
        try {
          return decodeURIComponent(run)
        } catch {
          return unescape(run)
        }
      })
      .replace(/%u[0-9a-fA-F]{4}/g, (e) => unescape(e))
    out.push(percent, percent.replace(/\+/g, ' '))
  }
  if (text.includes('+')) out.push(text.replace(/\+/g, ' '))
  if (text.includes('\\'))
    out.push(text.replace(/\\u[0-9a-fA-F]{4}|\\["\\/bfnrt]/g, (e) => JSON.parse(`"${e}"`) as string))
  if (text.includes('&')) {
    out.push(
      text.replace(
        /&(?:#x([0-9a-f]+)|#(\d+)|(amp|lt|gt|quot|apos|sol|nbsp));/gi,
        (m, hex: string, dec: string, name: string) => {
          const code = hex ? parseInt(hex, 16) : dec ? Number(dec) : undefined
          if (code !== undefined) return code <= 0x10ffff ? String.fromCodePoint(code) : m
          return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", sol: '/', nbsp: '\u00a0' }[name.toLowerCase()]!
        },
      ),
    )
  }
  if (/~[01]/.test(text)) out.push(text.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (/[\u0080-\u00ff]/.test(text)) {
    out.push(
      text.replace(/[\u0080-\u00ff]+/g, (run) => {
        const decoded = Buffer.from(run, 'latin1').toString('utf8')
        return decoded.includes('\ufffd') ? run : decoded
      }),
    )
  }
  const tokens = text.match(/[A-Za-z0-9+/_-]{8,}/g)
  if (tokens) {
    for (let skip = 0; skip < 4; skip++) {
      out.push(
        text.replace(/[A-Za-z0-9+/_-]{8,}/g, (token) =>
          Buffer.from(token.slice(skip).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8'),
        ),
      )
    }
  }
  if (/[\r\n]/.test(text)) out.push(text.replace(/\r?\n[ \t]*/g, ''))
  // Bytes are read as UTF-8 in the text's place; their other readings (UTF-16, inflated) are views of their own, the
  // readings of one decoding joined, so that a view is never several times the size of the text it came from.
  const others: string[] = []
  const bytesRead = (bytes: Buffer, raw = false) => {
    // UTF-16 from the first byte and from the second: a part begins where its string does, not at an even byte.
    if (bytes.includes(0))
      for (const units of [bytes, bytes.subarray(1)])
        others.push(
          units.toString('utf16le'),
          Buffer.from(units.subarray(0, units.length & ~1))
            .swap16()
            .toString('utf16le'),
        )
    const inflated = inflatedText(bytes, raw)
    if (inflated) others.push(inflated)
    return bytes.toString('utf8')
  }
  for (const skip of [0, 1])
    out.push(text.replace(/[0-9a-fA-F]{16,}/g, (token) => bytesRead(Buffer.from(token.slice(skip), 'hex'))))
  out.push(
    text.replace(/\[[-\d,\s]{15,}\]/g, (array) =>
      bytesRead(Buffer.from((JSON.parse(array) as number[]).map((n) => (n + 256) % 256))),
    ),
  )
  // Binary read as Latin-1: a run with a byte that is no printable ASCII (printable text read as bytes is itself).
  if (BINARY.test(text))
    out.push(
      text.replace(/[\x00-\xff]{8,}/g, (run) =>
        BINARY.test(run)
          ? bytesRead(Buffer.from(run.slice(Math.max(0, run.search(/\x1f\x8b|x[\x01\x5e\x9c\xda]/))), 'latin1'))
          : run,
      ),
    )
  // Raw deflate, which has no signature, is tried on base64 tokens from their start: on the first RAW_TRIES of a text
  // of 16 characters or more (12 bytes, an 8-character piece deflated; each failed try costs a zlib error: a report of
  // thousands of tokens took minutes and a gigabyte).
  if (tokens)
    for (const token of tokens.filter((t) => t.length >= 16).slice(0, RAW_TRIES))
      for (let skip = 0; skip < 2; skip++)
        bytesRead(Buffer.from(token.slice(skip).replace(/-/g, '+').replace(/_/g, '/'), 'base64'), skip === 0)
  if (others.length > 0) out.push(others.join('\uffff'))
  return out.filter((view) => view !== text)
}

/**
 * What bytes inflate to as zlib or gzip (its 10-byte header skipped) where they begin as one, or (`raw`) as raw
 * deflate, as far as they go; '' when none.
 */
function inflatedText(bytes: Buffer, raw: boolean): string {
  const options = { finishFlush: 2, maxOutputLength: 256 * 1024 }
  const zlib = bytes.length > 2 && (bytes[0]! & 0x0f) === 8 && ((bytes[0]! << 8) | bytes[1]!) % 31 === 0
  const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b
  const attempts = [
    ...(zlib ? [() => inflateSync(bytes, options)] : []),
    ...(gzip ? [() => inflateRawSync(bytes.subarray(10), options)] : []),
    ...(raw ? [() => inflateRawSync(bytes, options)] : []),
  ]
  // A failed try throws; without a stack the error costs little (under vitest, a stack is mapped to the sources).
  const stackTraceLimit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    for (const inflate of attempts) {
      try {
        return inflate().toString('utf8')
      } catch {
        // not this one
      }
    }
  } finally {
    Error.stackTraceLimit = stackTraceLimit
  }
  return ''
}

/** The pieces of a secret (UTF-16 units) that are its own: no text the suite writes holds one by chance. */
export function piecesOf(secret: string, size = 8): string[] {
  return [
    ...new Set(Array.from({ length: Math.max(0, secret.length - size + 1) }, (_, i) => secret.slice(i, i + size))),
  ]
}
