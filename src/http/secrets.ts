import { DECODERS, decodedViews, originalSpan, type DecodedView } from './decoded-views.js'

/**
 * How a secret is kept out of what the suite writes: the one place that decides. Everything the suite writes or prints
 * (reports, console lines, error messages, reproduction commands, exports) goes through redact() for text or
 * redactDeep() for plain data. A secret is found by decoding the text (decoded-views.ts), not by a list of the forms
 * an encoder might give it: whatever encoder a target used, the secret is there in one of the text's decoded views.
 */

import { nearMisses, nearMissPlaceholder } from '../generators/near-misses.js'

/** A secret value and the placeholder that stands for it in everything the suite writes or prints. */
export interface Secret {
  value: string
  placeholder: string
}

/**
 * The run's secrets, and their near misses (what the checks send to catch a careless comparison: nearly the secret,
 * so kept out as it is), each with its placeholder.
 */
export function secretsOf(settings: {
  apiKey?: string
  restrictedApiKey?: string
  intent?: { receipt: string }
  secondIntent?: { receipt: string }
}): Secret[] {
  const given: (Secret & { where: 'header' | 'url' })[] = []
  if (settings.apiKey)
    given.push({
      value: settings.apiKey,
      placeholder: '$IPTS_API_KEY',
      // Stryker disable next-line StringLiteral: equivalent: 'header' is like any text but 'url'
      where: 'header',
    })
  if (settings.restrictedApiKey)
    given.push({
      value: settings.restrictedApiKey,
      placeholder: '$IPTS_RESTRICTED_API_KEY',
      // Stryker disable next-line StringLiteral: equivalent: 'header' is like any text but 'url'
      where: 'header',
    })
  if (settings.intent) given.push({ value: settings.intent.receipt, placeholder: '$IPTS_INTENT_RECEIPT', where: 'url' })
  if (settings.secondIntent)
    given.push({ value: settings.secondIntent.receipt, placeholder: '$IPTS_SECOND_INTENT_RECEIPT', where: 'url' })
  const secrets: Secret[] = given.map(({ value, placeholder }) => ({ value, placeholder }))
  for (const { value, placeholder, where } of given) {
    for (const miss of nearMisses(value, where))
      secrets.push({ value: miss.value, placeholder: nearMissPlaceholder(placeholder, miss.kind) })
  }
  return secrets
}

/**
 * The run's secrets and those it learns as it runs (the receipts its writes are handed): all() is a new list after each
 * one learned, never the same list grown, since redaction compiles its detector once per list.
 */
export class GrowingSecrets {
  private list: readonly Secret[]

  constructor(given: readonly Secret[]) {
    this.list = given
  }

  all(): readonly Secret[] {
    return this.list
  }

  /** Learns a value (once), its placeholder the prefix numbered in the order learned: $IPTS_WRITE_RECEIPT_1, _2, … */
  learn(value: string, prefix: string): string {
    const known = this.list.find((secret) => secret.value === value)
    if (known) return known.placeholder
    const placeholder = `${prefix}${this.list.filter((secret) => secret.placeholder.startsWith(prefix)).length + 1}`
    this.list = [...this.list, { value, placeholder }]
    return placeholder
  }
}

/**
 * A secret as it is searched for in a decoded view: whole, as it is and with its spaces as '+' (form encoding, read
 * with '+' kept), and in each of its own decoded views (a secret may hold what looks like an escape, '%25', '&amp;',
 * '\\u0041', which an encoder such as WHATWG URL leaves while it escapes the rest, so that a view of the text decodes
 * that part of the secret too); and each of its PIECE-character pieces, for an encoder that drops a character (WHATWG
 * URL strips tabs and newlines) and leaves the rest readable.
 */
interface Pattern {
  text: string
  placeholder: string
  whole: boolean
  /** The secret's own value. */
  secret: string
}

/** The shortest piece of a secret that is searched for on its own (longer where its characters hold less chance). */
export const PIECE = 8

/**
 * The chance, in bits, that a piece or a stretch of a secret must hold to be taken for the secret where it is met: a
 * text over the same characters holds a given stretch at a given place with a chance of 2^-45; a secret has at most a
 * few hundred stretches (2^8) and a body a few MiB (2^22 places): a body holds one by accident once in 2^15 at worst.
 * The characters counted are the stretch's own, not the secret's: the hex of a receipt 'rcpt_' + 40 hex digits meets
 * hashes and ids at 4 bits a character. Hence 12 hex digits, 14 decimal ones, 10 small letters, and 8 characters of
 * letters and digits or of base64.
 */
export const CHANCE_BITS = 45

/** The bits of chance a character of the text holds: log2 of the size of the smallest usual alphabet that has them. */
function bitsPerChar(text: string): number {
  if (/^[0-9]+$/.test(text)) return Math.log2(10)
  if (/^[0-9a-f]+$/.test(text) || /^[0-9A-F]+$/.test(text)) return 4
  let size = 0
  if (/[0-9]/.test(text)) size += 10
  if (/[a-z]/.test(text)) size += 26
  if (/[A-Z]/.test(text)) size += 26
  if (/[^0-9A-Za-z]/.test(text)) size += /[^\x20-\x7e]/.test(text) ? 128 : 32
  return Math.log2(size)
}

/**
 * The length of the shortest stretch of `text` from `at` on, `floor` characters or more, that holds CHANCE_BITS;
 * undefined when the text ends first.
 */
export function telltaleLength(text: string, at: number, floor: number): number | undefined {
  for (let length = floor; at + length <= text.length; length++)
    if (length * bitsPerChar(text.slice(at, at + length)) >= CHANCE_BITS) return length
  return undefined
}

/**
 * Whether a piece is a sign of its secret: not made of ASCII letters and word separators alone (words: the reference's
 * 'ipts_restricted_…' would take 'restrict' out of the check id auth/restricted-key-scope, a garbage receipt
 * 'not-the-receipt.' learned by check-har '-receipt' out of intents/missing-receipt-refused), and not of fewer than
 * three distinct characters ('00000000', a garbage receipt's filler).
 */
function telling(piece: string): boolean {
  return !/^[A-Za-z _./-]+$/.test(piece) && new Set(piece).size >= 3
}

/**
 * The decoders of a secret's own views: the escapes it may hold. The bytes a secret's hex or base64 stands for are
 * not its text: read as text they are garbage, which garbage in a view of any text would then match.
 */
const OWN_VIEW_DECODERS = Object.keys(DECODERS).filter(
  (name) => !['base64', 'hex', 'byte array', 'binary'].includes(name),
)

/** A secret's own views (whole) and telling pieces, in the order patternsOf adds them. */
type OwnTexts = readonly { text: string; whole: boolean }[]

/**
 * The own texts of each secret, made once for it: a proxy or check-har learns receipts one by one, and each new list of
 * secrets is a new detector, which would make them again for every secret learned before.
 */
const ownTextsKept = new WeakMap<Secret, OwnTexts>()

function ownTextsOf(secret: Secret): OwnTexts {
  const kept = ownTextsKept.get(secret)
  if (kept) return kept
  const own: { text: string; whole: boolean }[] = []
  const { value } = secret
  for (const text of new Set([value, value.replace(/ /g, '+')])) {
    // A view much shorter than the secret would be found by chance: a secret's own views are kept at PIECE characters
    // or more. (The first view is the text itself, added as the secret's whole value.)
    for (const view of decodedViews(text, OWN_VIEW_DECODERS))
      if (view.text.length >= PIECE) own.push({ text: view.text, whole: true })
    for (let i = 0; i + PIECE <= text.length; i++) {
      // From here on the secret may hold too little chance for a piece (its end): earlier pieces reach it.
      const length = telltaleLength(text, i, PIECE)
      if (length === undefined) continue
      const piece = text.slice(i, i + length)
      if (telling(piece)) own.push({ text: piece, whole: false })
    }
  }
  ownTextsKept.set(secret, own)
  return own
}

function patternsOf(secrets: readonly Secret[]): Pattern[] {
  const patterns: Pattern[] = []
  const seen = new Set<string>()
  const add = (text: string, placeholder: string, whole: boolean, secret: string) => {
    if (text.length === 0 || seen.has(text)) return
    seen.add(text)
    patterns.push({ text, placeholder, whole, secret })
  }
  const ordered = [...secrets].sort((a, b) => b.value.length - a.value.length)
  for (const { value, placeholder } of ordered)
    for (const text of [value, value.replace(/ /g, '+')]) add(text, placeholder, true, value)
  for (const secret of ordered)
    for (const { text, whole } of ownTextsOf(secret)) add(text, secret.placeholder, whole, secret.value)
  return patterns.sort((a, b) => b.text.length - a.text.length)
}

/** Above this many patterns a view is scanned once for all of them, rather than searched once for each. */
const SCAN_ABOVE_PATTERNS = 32
/** The shortest beginning of a secret that is cut off the end of a text whose rest was not kept. */
export const MIN_SECRET_TAIL = 2
/**
 * How far before a cut an escape it split may begin (%C3%A, \\u00, &#x, and those escaped again: \\u0025F3\\u00259).
 */
const MAX_SPLIT_ESCAPE = 48

/**
 * Texts redacted lately are remembered with what they became, up to this many characters in all: a run redacts the same
 * texts again and again (header values and URLs in every exchange; a failure's response body for its evidence, then in
 * the report and the HAR).
 */
export const RECENT_CHARS = 1 << 22

/** Where a secret was found: its span in the original text and which secret it is. */
interface Found {
  start: number
  end: number
  placeholder: string
  whole: boolean
  secret: string
}

/**
 * The shortest piece of a secret that is a disclosure next to a mask (sk_live_ab12****, abcd…wxyz): a masker shows a
 * secret's first or last characters, four the fewest in use. Elsewhere a piece this short is found by chance, so it is
 * looked for only there.
 */
export const MIN_MASKED = 4
/**
 * Words each followed by a separator at the start of a secret: its format ('rcpt_', 'sk_live_'), the same in every
 * secret of its kind.
 */
const FORMAT_PREFIX = /^(?:[A-Za-z]+[_./ -])+/
/** A run of characters that stands for the hidden part of a secret. */
const MASK = /\*{2,}|•{2,}|●{2,}|·{3,}|…|\.{3,}|x{4,}|X{4,}|#{3,}/g

/** The patterns of a list of secrets, found in every decoded view of a text. */
class Detector {
  private readonly patterns: Pattern[]
  /**
   * For a scan: patterns of START_CHARS characters or more by a hash of their first START_CHARS; shorter ones searched
   * each.
   */
  private readonly byStart = new Map<string, Pattern[]>()
  private readonly short: Pattern[] = []
  /**
   * A bit for each pair of first two characters of a pattern in byStart (hashed): most positions of a text are passed
   * over on it.
   */
  // Stryker disable next-line ArithmeticOperator: equivalent, a larger array holds the same bits.
  private readonly pairs = new Uint8Array(PAIR_BITS / 8)
  /** Patterns by their first unit, for the beginnings of secrets at the end of a text. */
  private readonly byFirst = new Map<number, Pattern[]>()
  /** The secrets' own texts (as they are and with spaces as '+'), for the pieces shown next to a mask. */
  private readonly values: Pattern[]
  readonly longest: number

  constructor(secrets: readonly Secret[]) {
    this.patterns = patternsOf(secrets)
    this.values = this.patterns.filter(
      (pattern) =>
        pattern.whole && (pattern.text === pattern.secret || pattern.text === pattern.secret.replace(/ /g, '+')),
    )
    this.longest = this.patterns[0]?.text.length ?? 0
    for (const pattern of this.patterns) {
      if (!pattern.whole) continue
      const first = pattern.text.charCodeAt(0)
      const list = this.byFirst.get(first)
      if (list) list.push(pattern)
      else this.byFirst.set(first, [pattern])
    }
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: scan or search, the same found
    if (this.patterns.length <= SCAN_ABOVE_PATTERNS) return
    // Stryker disable next-line BlockStatement: equivalent: without the scan's tables each pattern is searched alone
    for (const pattern of this.patterns) {
      if (pattern.text.length < START_CHARS) {
        this.short.push(pattern)
        continue
      }
      const pair = pairOf(pattern.text, 0)
      this.pairs[pair >> 3]! |= 1 << (pair & 7)
      const start = startOf(pattern.text, 0)
      const list = this.byStart.get(start)
      if (list) list.push(pattern)
      else this.byStart.set(start, [pattern])
    }
  }

  // Stryker disable next-line BlockStatement: equivalent, a shortcut: without patterns nothing is found either way.
  get empty(): boolean {
    return this.patterns.length === 0
  }

  /**
   * Every secret in every view of the text, as spans of the text: whole, in pieces, shown next to a mask; and where any
   * was found, every stretch of that secret in the text.
   */
  find(text: string, views: readonly DecodedView[] = decodedViews(text)): Found[] {
    const found: Found[] = []
    /** The views in which each secret found was found. */
    const foundIn = new Map<string, Set<DecodedView>>()
    for (const view of views) {
      const onMatch = (at: number, end: number, pattern: Pattern, whole: boolean) => {
        const { start, end: spanEnd } = originalSpan(view, at, end)
        found.push({ start, end: spanEnd, placeholder: pattern.placeholder, whole, secret: pattern.secret })
        const where = foundIn.get(pattern.secret)
        if (where) where.add(view)
        else foundIn.set(pattern.secret, new Set([view]))
      }
      this.search(view.text, (at, pattern) => onMatch(at, at + pattern.text.length, pattern, pattern.whole))
      this.masked(view.text, (at, end, pattern) => onMatch(at, end, pattern, false))
    }
    if (found.length > 0) this.stretches(foundIn, found)
    return found
  }

  /**
   * Whether any view of the text holds a secret: whole, a piece, or a piece shown next to a mask that holds
   * MIN_MASKED characters or more past the secret's format prefix ('rcpt_' or 'sk_live_' before a mask discloses
   * nothing).
   */
  holds(text: string): boolean {
    for (const view of decodedViews(text)) {
      let hit = false
      this.search(view.text, () => (hit = true))
      this.masked(
        view.text,
        (at, end) => (hit ||= view.text.slice(at, end).replace(FORMAT_PREFIX, '').length >= MIN_MASKED),
      )
      if (hit) return true
    }
    return false
  }

  /**
   * Each beginning (or end) of a secret, MIN_MASKED characters or more, right before (or after) a mask, a space between
   * allowed.
   */
  private masked(text: string, onMatch: (at: number, end: number, pattern: Pattern) => void): void {
    if (!/[*•●·….xX#]/.test(text)) return
    for (const mask of text.matchAll(MASK)) {
      const before = text[mask.index - 1] === ' ' ? mask.index - 1 : mask.index
      let after = mask.index + mask[0].length
      if (text[after] === ' ') after++
      for (const pattern of this.values) {
        const secret = pattern.text
        const first = secret.slice(0, MIN_MASKED)
        // The longest beginning of the secret that ends at the mask.
        for (let at = Math.max(0, before - secret.length + 1); at <= before - MIN_MASKED; at++) {
          if (text.startsWith(first, at) && secret.startsWith(text.slice(at, before))) {
            onMatch(at, before, pattern)
            break
          }
        }
        const last = secret.slice(-MIN_MASKED)
        for (let end = Math.min(text.length, after + secret.length - 1); end >= after + MIN_MASKED; end--) {
          if (text.startsWith(last, end - MIN_MASKED) && secret.endsWith(text.slice(after, end))) {
            onMatch(after, end, pattern)
            break
          }
        }
      }
    }
  }

  /**
   * Adds every stretch of each secret found that holds CHANCE_BITS (see telltaleLength), in each view it was found in,
   * as a piece of it: the rest of a secret split across fields, lines or readings is not left in clear around the part
   * found, letters alone included. (A view is the whole text read one way: the rest of the text is in it as the part
   * found is.)
   */
  private stretches(foundIn: ReadonlyMap<string, ReadonlySet<DecodedView>>, found: Found[]): void {
    const placeholders = new Map(found.map((f) => [f.secret, f.placeholder] as const))
    // Each view is scanned once, for the stretches of every secret found in it.
    const secretsIn = new Map<DecodedView, Set<string>>()
    for (const [secret, views] of foundIn)
      for (const view of views) secretsIn.set(view, (secretsIn.get(view) ?? new Set()).add(secret))
    // The stretches of the secrets found, not of every secret: a list may hold thousands of receipts learned, and a
    // text holds one or two.
    const { byStart, starts } = stretchesOf([...foundIn.keys()])
    for (const [view, secrets] of secretsIn) {
      const v = view.text
      const runs = new Map<string, { start: number; end: number }>()
      const close = (secret: string, run: { start: number; end: number }) =>
        found.push({
          ...originalSpan(view, run.start, run.end),
          placeholder: placeholders.get(secret)!,
          whole: false,
          secret,
        })
      for (let at = 0; at + START_CHARS <= v.length; at++) {
        const start = startHash(v, at)
        if ((starts[start >> 3]! & (1 << (start & 7))) === 0) continue
        const list = byStart.get(startOf(v, at))
        if (!list) continue
        for (const { stretch, source, from, secret } of list) {
          if (!secrets.has(secret) || !v.startsWith(stretch, at)) continue
          let run = runs.get(secret)
          if (!run || at > run.end) {
            if (run) close(secret, run)
            run = { start: at - continued(v, at - 1, source, from - 1, -1), end: at }
            runs.set(secret, run)
          }
          run.end = Math.max(
            run.end,
            at + stretch.length + continued(v, at + stretch.length, source, from + stretch.length, 1),
          )
        }
      }
      for (const [secret, run] of runs) close(secret, run)
    }
  }

  private search(text: string, onMatch: (at: number, pattern: Pattern) => void): void {
    if (this.byStart.size === 0) {
      for (const pattern of this.patterns)
        for (let at = text.indexOf(pattern.text); at !== -1; at = text.indexOf(pattern.text, at + 1))
          onMatch(at, pattern)
      return
    }
    for (const pattern of this.short)
      for (let at = text.indexOf(pattern.text); at !== -1; at = text.indexOf(pattern.text, at + 1)) onMatch(at, pattern)
    // Stryker disable next-line ArithmeticOperator: equivalent: no pattern begins in the last START_CHARS - 1 positions
    for (let at = 0; at <= text.length - START_CHARS; at++) {
      const pair = pairOf(text, at)
      if ((this.pairs[pair >> 3]! & (1 << (pair & 7))) === 0) continue
      const list = this.byStart.get(startOf(text, at))
      if (list) for (const pattern of list) if (text.startsWith(pattern.text, at)) onMatch(at, pattern)
    }
  }

  /** Texts redacted lately, with what they became. */
  private readonly recent = new Map<string, string>()
  /** The characters of the texts in recent: all are forgotten before a text would take them past RECENT_CHARS. */
  private recentChars = 0

  get rememberedChars(): number {
    return this.recentChars
  }

  /**
   * Replaces the span of every secret found by its placeholder; the whole text is withheld when that does not leave it
   * free of secrets.
   */
  apply(text: string): string {
    if (this.empty || text.length === 0) return text
    const remembered = this.recent.get(text)
    if (remembered !== undefined) return remembered
    const redacted = this.redacted(text)
    if (this.recentChars + text.length > RECENT_CHARS) {
      this.recent.clear()
      this.recentChars = 0
    }
    this.recent.set(text, redacted)
    this.recentChars += text.length
    return redacted
  }

  private redacted(text: string): string {
    return (URL_TEXT.test(text) ? this.redactedUrl(text) : undefined) ?? this.redactedWhole(text)
  }

  private redactedWhole(text: string): string {
    const found = this.find(text)
    if (found.length === 0) return text
    const { text: redacted, names } = replaced(text, found)
    const left = outside(this.find(redacted), names)
    return left.length === 0 ? redacted : withheld([...found, ...left], 'encoded')
  }

  /**
   * A URL redacted piece by piece (each path segment, query name and value, fragment, each read in its decoded views):
   * what holds no secret stays readable, a path word like 'intents' beside a receipt that holds the word included.
   * Undefined when a secret spans pieces (the whole is then redacted as any text).
   */
  private redactedUrl(text: string): string | undefined {
    const parts = text.split(URL_SEPARATORS)
    let out = ''
    const names: Span[] = []
    for (const [i, part] of parts.entries()) {
      // split() puts the separators at the odd places.
      const redacted = i % 2 === 1 ? part : this.redactedWhole(part)
      if (redacted !== part) names.push({ start: out.length, end: out.length + redacted.length })
      out += redacted
    }
    return outside(this.find(out), names).length === 0 ? out : undefined
  }

  /**
   * Where the end of a text begins a secret (MIN_SECRET_TAIL characters of it or more: one is any text's) in any view:
   * the text was cut there, so the rest of the secret is not there to be found. Undefined when it does not.
   */
  tailStart(text: string): number | undefined {
    if (this.empty) return undefined
    const base = Math.max(0, text.length - (24 * this.longest + 2 * MAX_SPLIT_ESCAPE))
    const tail = text.slice(base)
    let earliest: number | undefined
    for (const view of decodedViews(tail)) {
      const v = view.text
      // Where the secret's beginning may end in this view: before any unit that came from the last MAX_SPLIT_ESCAPE
      // characters (an escape the cut split, which the lenient decoders leave as it is, or a base64 reading's end).
      // Every end is tried: a base64 view's readings are not in order, and a later one may reach the end again.
      for (let end = v.length; end >= MIN_SECRET_TAIL; end--) {
        const unitEnd = view.ends ? view.ends[end - 1]! : end
        if (unitEnd < tail.length - MAX_SPLIT_ESCAPE) continue
        // Stryker disable next-line MethodExpression: equivalent: a start outside the bound begins no secret
        for (let at = Math.max(0, end - this.longest); at <= end - MIN_SECRET_TAIL; at++) {
          const candidates = this.byFirst.get(v.charCodeAt(at))
          if (!candidates?.some(({ text: secret }) => secret.length > end - at && secret.startsWith(v.slice(at, end))))
            continue
          earliest = Math.min(earliest ?? Infinity, base + originalSpan(view, at, end).start)
          break
        }
      }
    }
    return earliest
  }
}

/** A text that is a URL or a path, whole: redacted piece by piece (Detector.redactedUrl). */
const URL_TEXT = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/|\/)[^\s]*$/
const URL_SEPARATORS = /([/?&=#;])/

/** A span of a text. */
interface Span {
  start: number
  end: number
}

/** What was found outside the spans given (the names put in a redacted text, which are not searched again). */
function outside(found: readonly Found[], spans: readonly Span[]): Found[] {
  return found.filter((f) => !spans.some((span) => f.start >= span.start && f.end <= span.end))
}

/**
 * The characters a scan looks up at each position: four, so that hex and base64 text (which share their first two with
 * many pieces) is passed over.
 */
const START_CHARS = 4

const PAIR_BITS = 1 << 16

/**
 * A hash of the first START_CHARS characters at a place, for the stretches' filter: hex and base64 text share their
 * first two characters with many stretches of a hex or base64 secret, and far fewer of their first four.
 */
const START_BITS = 1 << 20

function startHash(text: string, at: number): number {
  const hash =
    Math.imul(
      Math.imul(Math.imul(text.charCodeAt(at), 31) + text.charCodeAt(at + 1), 31) + text.charCodeAt(at + 2),
      31,
    ) + text.charCodeAt(at + 3)
  return hash & (START_BITS - 1)
}

/** The first unit in the high byte, the second in the low: each pair of Latin-1 characters has a bit of its own. */
// Stryker disable next-line BlockStatement: equivalent: without the table the filter passes every position
function pairOf(text: string, at: number): number {
  return ((text.charCodeAt(at) << 8) ^ text.charCodeAt(at + 1)) & (PAIR_BITS - 1)
}

/** The key of a position in byStart: its first START_CHARS characters. */
// Stryker disable next-line BlockStatement: equivalent: one key for every position; each pattern is compared whole
function startOf(text: string, at: number): string {
  // Stryker disable next-line ArithmeticOperator: equivalent: a key taken the same way where filed and where looked up
  return text.slice(at, at + START_CHARS)
}

/**
 * The shortest stretch of each secret (as it is, and with its spaces as '+') from each of its characters on that holds
 * CHANCE_BITS, by its first START_CHARS characters (a stretch has more: no character holds 11 bits), with a bit for
 * each (hashed) first START_CHARS characters, on which most places of a text are passed over.
 */
interface Stretches {
  byStart: Map<string, { stretch: string; source: string; from: number; secret: string }[]>
  starts: Uint8Array
}

/**
 * How many units of a view go on with the secret's text from a stretch found (`step` 1: after it, -1: before it), one
 * character of the secret dropped between allowed (WHATWG URL strips tabs and newlines): the end of a secret too short
 * to hold CHANCE_BITS is cut out with the stretch that it goes on.
 */
function continued(view: string, at: number, source: string, from: number, step: 1 | -1): number {
  let best = 0
  for (const dropped of [0, 1]) {
    let k = 0
    for (let s = from + step * dropped; s >= 0 && s < source.length && view[at + step * k] === source[s]; s += step) k++
    best = Math.max(best, k)
  }
  return best
}

function stretchesOf(secrets: readonly string[]): Stretches {
  const byStart: Stretches['byStart'] = new Map()
  const starts = new Uint8Array(START_BITS / 8)
  for (const secret of new Set(secrets)) {
    for (const text of new Set([secret, secret.replace(/ /g, '+')])) {
      for (let at = 0; at < text.length; at++) {
        const length = telltaleLength(text, at, START_CHARS)
        if (length === undefined) break
        const stretch = text.slice(at, at + length)
        const entry = { stretch, source: text, from: at, secret }
        const list = byStart.get(startOf(stretch, 0))
        if (list) list.push(entry)
        else byStart.set(startOf(stretch, 0), [entry])
        const start = startHash(stretch, 0)
        starts[start >> 3]! |= 1 << (start & 7)
      }
    }
  }
  return { byStart, starts }
}

/**
 * The text with the secrets found replaced: overlapping spans joined, each joined span replaced by the placeholders of
 * the whole secrets in it, outermost first (a secret that contains another is named once, as itself), or, where only
 * pieces of a secret were found, by "[part of $PLACEHOLDER]"; and where the names were put.
 */
function replaced(text: string, found: readonly Found[]): { text: string; names: Span[] } {
  const spans = [...found].sort((a, b) => a.start - b.start || b.end - a.end)
  const put: Span[] = []
  let out = ''
  let copied = 0
  for (let i = 0; i < spans.length;) {
    const start = spans[i]!.start
    let end = spans[i]!.end
    const joined: Found[] = []
    for (; i < spans.length && spans[i]!.start < end; i++) {
      joined.push(spans[i]!)
      end = Math.max(end, spans[i]!.end)
    }
    const wholes: Found[] = []
    // Spans come by their start, so a whole secret met later lies within an earlier one when it ends no later.
    for (const f of joined) if (f.whole && !wholes.some((w) => f.end <= w.end)) wholes.push(f)
    const names =
      wholes.length > 0
        ? [...new Set(wholes.map((w) => w.placeholder))].join('')
        : `[part of ${joined[0]!.placeholder}]`
    out += text.slice(copied, start)
    put.push({ start: out.length, end: out.length + names.length })
    out += names
    copied = end
  }
  return { text: out + text.slice(copied), names: put }
}

/** What stands for a whole string that held a secret where it could not be cut out: which secret, and why. */
function withheld(found: readonly Found[], why: string): string {
  return `[withheld: holds ${[...new Set(found.map((f) => f.placeholder))].join(' and ')}, ${why}]`
}

/**
 * A list of secrets is searched with the same Detector as long as the list itself is the same (a run's, a proxy's
 * learned list).
 */
const detectors = new WeakMap<readonly Secret[], Detector>()

function detectorOf(secrets: readonly Secret[]): Detector {
  let detector = detectors.get(secrets)
  if (!detector) {
    detector = new Detector(secrets)
    detectors.set(secrets, detector)
  }
  return detector
}

/**
 * Whether the text holds the secret (or any of them) in any decoded view: as it is, percent-encoded, JSON-escaped, in
 * base64, ...
 */
export function mentionsSecret(text: string, value: string | readonly string[]): boolean {
  // An empty value has no pattern (patternsOf leaves it out), so it is found nowhere.
  const values = typeof value === 'string' ? [value] : value
  const key = JSON.stringify(values)
  let detector = mentionDetectors.get(key)
  if (!detector) {
    // Stryker disable next-line StringLiteral: equivalent: finding a value does not depend on its placeholder
    detector = new Detector(values.map((v) => ({ value: v, placeholder: '' })))
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: the bound only limits memory
    if (mentionDetectors.size >= 64) mentionDetectors.clear()
    mentionDetectors.set(key, detector)
  }
  return detector.holds(text)
}

/**
 * The detectors of the receipts a rule asked about lately: a run asks about the same two or three on every exchange.
 */
const mentionDetectors = new Map<string, Detector>()

/**
 * The characters of the texts whose redaction with these secrets is remembered: at most RECENT_CHARS, or the length of
 * the last text redacted where that alone is more.
 */
export function rememberedChars(secrets: readonly Secret[]): number {
  return detectorOf(secrets).rememberedChars
}

/** Replaces every secret, in every decoded view, by its placeholder; see Detector.apply. */
export function redact(text: string, secrets: readonly Secret[]): string {
  return detectorOf(secrets).apply(text)
}

/**
 * Redacts every string of plain data, member names as well as values, one by one, so that a short secret cannot break
 * the structure.
 */
export function redactDeep<T>(value: T, secrets: readonly Secret[]): T {
  return redactedWith(value, detectorOf(secrets))
}

function redactedWith<T>(value: T, detector: Detector): T {
  if (typeof value === 'string') return detector.apply(value) as T
  if (Array.isArray(value)) return value.map((item: unknown) => redactedWith(item, detector)) as T
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [detector.apply(key), redactedWith(item, detector)]),
  ) as T
}

/**
 * A text whose rest was not kept (a body cut at the capture cap), without a tail that begins a secret in any view: the
 * rest of the secret is gone, so redaction could not recognise it. Redact the result as any other text.
 */
export function withoutSecretTail(text: string, secrets: readonly Secret[]): string {
  const detector = detectorOf(secrets)
  for (let round = 0; round < 8; round++) {
    const start = detector.tailStart(text)
    if (start === undefined) return text
    text = text.slice(0, start)
  }
  return text
}

/**
 * At most `maxChars` of the text, redacted before it is cut (a cut through a secret would leave a piece that redaction
 * no longer recognises), and without a tail that begins a secret after the cut.
 */
export function excerpt(text: string, maxChars: number, secrets: readonly Secret[]): string {
  const redacted = redact(text, secrets)
  return redacted.length <= maxChars ? redacted : withoutSecretTail(redacted.slice(0, maxChars), secrets)
}
