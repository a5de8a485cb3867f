/**
 * What a secret looks like in output, and how it is kept out: the one place that decides. Everything the suite writes
 * or prints (reports, console lines, error messages, reproduction commands, exports) goes through redact() for text
 * or redactDeep() for plain data.
 */

/** A secret value and the placeholder that stands for it in everything the suite writes or prints. */
export interface Secret {
  value: string
  placeholder: string
}

export function secretsOf(settings: { apiKey?: string; restrictedApiKey?: string; intent?: { receipt: string }; secondIntent?: { receipt: string } }): Secret[] {
  const secrets: Secret[] = []
  if (settings.apiKey) secrets.push({ value: settings.apiKey, placeholder: '$IPTS_API_KEY' })
  if (settings.restrictedApiKey) secrets.push({ value: settings.restrictedApiKey, placeholder: '$IPTS_RESTRICTED_API_KEY' })
  if (settings.intent) secrets.push({ value: settings.intent.receipt, placeholder: '$IPTS_INTENT_RECEIPT' })
  if (settings.secondIntent) secrets.push({ value: settings.secondIntent.receipt, placeholder: '$IPTS_SECOND_INTENT_RECEIPT' })
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

/** The forms of the secrets seen lately; a run has a handful, but the receipts it sends are looked for too. */
const formsCache = new Map<string, string[]>()
const FORMS_KEPT = 256

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

/** Replaces every secret, in every form, by its placeholder. Longest first, so a secret that contains another is replaced whole. */
export function redact(text: string, secrets: readonly Secret[]): string {
  let out = text
  for (const { value, placeholder } of [...secrets].filter((s) => s.value.length > 0).sort((a, b) => b.value.length - a.value.length)) {
    for (const form of formsOf(value)) out = out.split(form).join(placeholder)
  }
  return out
}

/** Redacts every string of plain data, member names as well as values, one by one, so that a short secret cannot break the structure. */
export function redactDeep<T>(value: T, secrets: readonly Secret[]): T {
  if (typeof value === 'string') return redact(value, secrets) as T
  if (Array.isArray(value)) return value.map((item: unknown) => redactDeep(item, secrets)) as T
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key, secrets), redactDeep(item, secrets)])) as T
}

/** At most `maxChars` of the text, redacted before it is cut: a cut through a secret would leave a piece that redaction no longer recognises. */
export function excerpt(text: string, maxChars: number, secrets: readonly Secret[]): string {
  return redact(text, secrets).slice(0, maxChars)
}
