import type { ExchangeResponse } from './exchange.js'

/** What is kept of a body over the cap: its start, which a report shows, without holding the whole cap per exchange. */
const TRUNCATED_BODY_KEPT_BYTES = 64 * 1024
/**
 * Far beyond any body of the contract; deeper values would overflow the stack of whatever walks them (ajv,
 * JSON.stringify, structuredClone).
 */
export const MAX_JSON_DEPTH = 256

/**
 * Collects a body as it streams by, up to a cap: past the cap only its start is kept and the body is marked truncated.
 */
export class BodyCollector {
  private readonly chunks: Buffer[] = []
  private size = 0
  truncated = false

  /** A body declared larger than the cap is over it already: no more of it than is kept is wanted. */
  constructor(
    private readonly maxBytes: number,
    declaredLength?: number,
  ) {
    if (declaredLength !== undefined && declaredLength > maxBytes) this.maxBytes = TRUNCATED_BODY_KEPT_BYTES
  }

  /** Adds a chunk; returns false once the body is over the cap (nothing more is kept). */
  add(chunk: Buffer): boolean {
    if (this.truncated) return false
    this.chunks.push(chunk)
    this.size += chunk.length
    if (this.size > this.maxBytes) this.truncated = true
    return !this.truncated
  }

  bytes(): Buffer {
    return this.truncated
      ? Buffer.concat(this.chunks, Math.min(this.size, TRUNCATED_BODY_KEPT_BYTES))
      : Buffer.concat(this.chunks)
  }
}

/**
 * A response as the checks see it: headers by lower-case name, the body as text, and its JSON or why it is not JSON.
 */
export function parsedResponse(
  status: number,
  rawHeaders: Record<string, string | string[] | undefined>,
  body: string,
  truncated: boolean,
): ExchangeResponse {
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(rawHeaders)) if (value !== undefined) headers[name.toLowerCase()] = value
  const response: ExchangeResponse = { status, headers, body, truncated }
  if (truncated) response.jsonError = 'body truncated at the size cap'
  else if (body.length === 0) response.jsonError = 'empty body'
  else if (nestingDepth(body) > MAX_JSON_DEPTH) response.jsonError = `nested deeper than ${MAX_JSON_DEPTH} levels`
  else {
    try {
      response.json = JSON.parse(body)
    } catch (error) {
      response.jsonError = notJson(body, error)
    }
  }
  return response
}

/** The deepest nesting of arrays and objects in a JSON text, brackets inside strings not counted. */
function nestingDepth(text: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth)
    else if (c === 0x5d || c === 0x7d) depth--
  }
  return deepest
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

export function decodeUtf8(bytes: Buffer): string {
  try {
    return strictUtf8.decode(bytes)
  } catch {
    return `[invalid UTF-8, ${bytes.length} bytes] ${bytes.toString('latin1')}`
  }
}

/** Why a body is not JSON, in words (where it stops being JSON, how it begins), never the parser's own text. */
function notJson(body: string, error: unknown): string {
  const message = error instanceof Error ? error.message : ''
  const begins = `it begins ${JSON.stringify(body.slice(0, 10))}${body.length > 10 ? '…' : ''}`
  if (/end of JSON input/.test(message)) return `not JSON: it ends before its value does (${begins})`
  const at = /at position (\d+)/.exec(message)?.[1]
  return at === undefined ? `not JSON (${begins})` : `not JSON from character ${Number(at) + 1} on (${begins})`
}
