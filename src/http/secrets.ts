/**
 * What a secret looks like in output, and how it is kept out: the one place that decides. Everything the suite writes
 * or prints (reports, console lines, error messages, reproduction commands, exports) goes through redact() for text
 * or redactDeep() for plain data.
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
export function secretsOf(settings: { apiKey?: string; restrictedApiKey?: string; intent?: { receipt: string }; secondIntent?: { receipt: string } }): Secret[] {
  const given: (Secret & { where: 'header' | 'url' })[] = []
  if (settings.apiKey) given.push({ value: settings.apiKey, placeholder: '$IPTS_API_KEY', where: 'header' })
  if (settings.restrictedApiKey) given.push({ value: settings.restrictedApiKey, placeholder: '$IPTS_RESTRICTED_API_KEY', where: 'header' })
  if (settings.intent) given.push({ value: settings.intent.receipt, placeholder: '$IPTS_INTENT_RECEIPT', where: 'url' })
  if (settings.secondIntent) given.push({ value: settings.secondIntent.receipt, placeholder: '$IPTS_SECOND_INTENT_RECEIPT', where: 'url' })
  const secrets: Secret[] = given.map(({ value, placeholder }) => ({ value, placeholder }))
  for (const { value, placeholder, where } of given) {
    for (const miss of nearMisses(value, where)) secrets.push({ value: miss.value, placeholder: nearMissPlaceholder(placeholder, miss.kind) })
  }
  return secrets
}

/** Characters that some percent-encoders leave as they are and others escape, as each encoder does. */
const KEPT_BY_ENCODER = [
  "!'()*~", // encodeURIComponent
  '*', // URLSearchParams, Java's URLEncoder
  '', // PHP's urlencode
  '~', // RFC 3986 (PHP's rawurlencode)
  '~/', // Python's quote
]

/** Each character with its UTF-8 percent-escape (upper-case hex), or without one when no encoder escapes it. */
function escapesOf(value: string): { char: string; escape?: string }[] {
  return [...value].map((char) => {
    if (/^[A-Za-z0-9._-]$/.test(char)) return { char }
    const escape = [...Buffer.from(char, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('')
    return { char, escape }
  })
}

function percentEncoded(escapes: readonly { char: string; escape?: string }[], kept: string, space: '+' | '%20', upperHex: boolean): string {
  const text = escapes.map(({ char, escape }) => (escape === undefined || kept.includes(char) ? char : char === ' ' ? space : escape)).join('')
  return upperHex ? text : text.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())
}

function jsonEscaped(value: string, { slash, unicode }: { slash: boolean; unicode?: 'lower' | 'upper' }): string {
  let text = JSON.stringify(value).slice(1, -1)
  if (slash) text = text.replace(/\//g, '\\/')
  if (unicode) text = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return unicode === 'upper' ? text.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => `\\u${hex.toUpperCase()}`) : text
}

/**
 * The secret's base64 and base64url text wherever it starts in an encoded stream: for each of the three alignments,
 * the characters that only the secret's bytes determine. Shorter than 8 characters, they would match by chance.
 */
function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8')
  const forms: string[] = []
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
    const inner = encoded.slice(offset === 0 ? 0 : 4, 4 * Math.floor((offset + bytes.length) / 3))
    if (inner.length >= 8) forms.push(inner, inner.replace(/\+/g, '-').replace(/\//g, '_'))
  }
  return forms
}

/**
 * What a secret looks like in output, longest first: as it is; percent-encoded by each common encoder (space as + and
 * as %20, hex in either case); JSON-escaped (with and without \/, non-ASCII as it is or \u-escaped in either case);
 * escaped in a JSON pointer (~0, ~1, as ajv's instancePath writes member names); its UTF-8 bytes read as Latin-1 (how
 * an HTTP client decodes a header value a server wrote as UTF-8); and in base64 and base64url.
 */
export function secretForms(value: string): string[] {
  const forms = [value, Buffer.from(value, 'utf8').toString('latin1'), value.replace(/~/g, '~0').replace(/\//g, '~1')]
  const escapes = escapesOf(value)
  for (const kept of KEPT_BY_ENCODER) {
    for (const space of ['+', '%20'] as const) forms.push(percentEncoded(escapes, kept, space, true), percentEncoded(escapes, kept, space, false))
  }
  for (const slash of [false, true]) for (const unicode of [undefined, 'lower', 'upper'] as const) forms.push(jsonEscaped(value, { slash, unicode }))
  forms.push(...base64Forms(value))
  return [...new Set(forms)].sort((a, b) => b.length - a.length)
}

/** The forms of the secrets seen lately: a run has a handful, a proxy learns every key its clients send. */
const formsCache = new Map<string, string[]>()
const FORMS_KEPT = 4096

function formsOf(value: string): string[] {
  let forms = formsCache.get(value)
  if (!forms) {
    forms = secretForms(value)
    if (formsCache.size >= FORMS_KEPT) formsCache.clear()
    formsCache.set(value, forms)
  }
  return forms
}

/** Whether the text holds the secret in any form redact() knows. */
export function mentionsSecret(text: string, value: string): boolean {
  return value.length > 0 && formsOf(value).some((form) => text.includes(form))
}

interface Form {
  form: string
  placeholder: string
}

/** Above this many forms a text is scanned once for all of them, rather than searched once for each. */
const SCAN_ABOVE_FORMS = 256

/** The forms of a list of secrets with their placeholders: secrets longest first, so that one containing another is replaced whole. */
class Redactor {
  private readonly forms: Form[]
  /** For a scan: the forms by their first two characters, each list longest first. */
  private readonly byStart = new Map<number, Form[]>()

  constructor(secrets: readonly Secret[]) {
    const ordered = [...secrets].filter((s) => s.value.length > 0).sort((a, b) => b.value.length - a.value.length)
    this.forms = ordered.flatMap(({ value, placeholder }) => formsOf(value).map((form) => ({ form, placeholder })))
    if (this.forms.length <= SCAN_ABOVE_FORMS || this.forms.some(({ form }) => form.length < 2)) return
    for (const form of this.forms) {
      const start = startOf(form.form, 0)
      const list = this.byStart.get(start)
      if (list) list.push(form)
      else this.byStart.set(start, [form])
    }
    for (const list of this.byStart.values()) list.sort((a, b) => b.form.length - a.form.length)
  }

  apply(text: string): string {
    if (this.byStart.size > 0) return this.scan(text)
    let out = text
    for (const { form, placeholder } of this.forms) if (out.includes(form)) out = out.split(form).join(placeholder)
    return out
  }

  /** One pass, replacing at each position the longest form that starts there. */
  private scan(text: string): string {
    let out = ''
    let copied = 0
    for (let at = 0; at < text.length - 1; ) {
      const found = this.byStart.get(startOf(text, at))?.find(({ form }) => text.startsWith(form, at))
      if (!found) {
        at++
        continue
      }
      out += text.slice(copied, at) + found.placeholder
      at += found.form.length
      copied = at
    }
    return copied === 0 ? text : out + text.slice(copied)
  }
}

function startOf(text: string, at: number): number {
  return text.charCodeAt(at) * 0x10000 + text.charCodeAt(at + 1)
}

/** A list of secrets is redacted with the same Redactor as long as the list itself is the same (a run's, a proxy's learned list). */
const redactors = new WeakMap<readonly Secret[], Redactor>()

function redactorOf(secrets: readonly Secret[]): Redactor {
  let redactor = redactors.get(secrets)
  if (!redactor) {
    redactor = new Redactor(secrets)
    redactors.set(secrets, redactor)
  }
  return redactor
}

/** Replaces every secret, in every form, by its placeholder. */
export function redact(text: string, secrets: readonly Secret[]): string {
  return redactorOf(secrets).apply(text)
}

/** Redacts every string of plain data, member names as well as values, one by one, so that a short secret cannot break the structure. */
export function redactDeep<T>(value: T, secrets: readonly Secret[]): T {
  return redactedWith(value, redactorOf(secrets))
}

function redactedWith<T>(value: T, redactor: Redactor): T {
  if (typeof value === 'string') return redactor.apply(value) as T
  if (Array.isArray(value)) return value.map((item: unknown) => redactedWith(item, redactor)) as T
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [redactor.apply(key), redactedWith(item, redactor)])) as T
}

/** At most `maxChars` of the text, redacted before it is cut: a cut through a secret would leave a piece that redaction no longer recognises. */
export function excerpt(text: string, maxChars: number, secrets: readonly Secret[]): string {
  return redact(text, secrets).slice(0, maxChars)
}
