import { createHash } from 'node:crypto'
import { LISTED_RESPONSE_HEADERS } from '../contract/listed-headers.js'
import { operations } from '../contract/operations.js'
import { loadOpenApi } from '../contract/schemas.js'
import type { ExchangeResponse } from './exchange.js'

/**
 * What the run shares of a response keeps by allowlist, not only by detection: the headers of
 * src/contract/listed-headers.ts and the body members the operation's schema names (specs/openapi.yaml) as they are
 * (redaction still applies to them), any other header value or member value as its length and a short hash. A secret
 * in an encoding no decoder knows (ROT13, XOR, a server's own) thus never reaches a report file. A raw record
 * (--raw-record) keeps everything, redacted by detection alone.
 */

/**
 * What the evidence of a failure keeps of unlisted material: the headers (lower case) and member pointers it is about.
 */
export interface KeptForEvidence {
  headers?: readonly string[]
  pointers?: readonly string[]
}

/**
 * What stands for a value not shared: its length in UTF-8 and the start of its SHA-256, so that two can be compared.
 */
export function standIn(what: 'header' | 'member', value: string): string {
  return `«unlisted ${what}: ${Buffer.byteLength(value)} bytes, sha256:${createHash('sha256').update(value).digest('hex').slice(0, 8)}»`
}

/** A stand-in anywhere in a text (a header value, a JSON body, a schema violation's value). */
const STAND_IN = /«unlisted (?:header|member): \d+ bytes, sha256:[0-9a-f]{8}»/

/** Whether what a recording kept holds a stand-in: what it stands for was not recorded. */
export function holdsStandIn(value: unknown): boolean {
  return STAND_IN.test(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))
}

/** The names of the headers whose value a recording kept as a stand-in. */
export function standInHeaders(headers: Record<string, string | string[]>): string[] {
  return Object.entries(headers)
    .filter(([, value]) => holdsStandIn(value))
    .map(([name]) => name.toLowerCase())
}

/**
 * Whether a finding on a recorded response is about what the recording did not keep: every schema violation it has is
 * on a stand-in's value, or (without violations) its message shows a stand-in or names a header kept as one. A rule
 * that needs the value is then not applied to it: a stand-in is "not recorded", not a value.
 */
export function aboutStandIn(
  finding: { message: string; violations?: readonly { value?: unknown }[] },
  headers: Record<string, string | string[]>,
): boolean {
  if (finding.violations?.length) return finding.violations.every((violation) => holdsStandIn(violation.value))
  const message = finding.message.toLowerCase()
  return holdsStandIn(finding.message) || standInHeaders(headers).some((name) => message.includes(name))
}

/** The headers with each unlisted value replaced by its stand-in. */
export function listedHeaders(
  headers: Record<string, string | string[]>,
  kept: KeptForEvidence = {},
): Record<string, string | string[]> {
  const keep = (name: string) =>
    LISTED_RESPONSE_HEADERS.has(name.toLowerCase()) || kept.headers?.includes(name.toLowerCase()) === true
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      keep(name) ? value : Array.isArray(value) ? value.map((v) => standIn('header', v)) : standIn('header', value),
    ]),
  )
}

/** The response as the run shares it: listed headers, and a JSON body whose unknown members' values are stand-ins. */
export function listedResponse(
  response: ExchangeResponse,
  operation: string | undefined,
  kept: KeptForEvidence = {},
): ExchangeResponse {
  return {
    ...response,
    headers: listedHeaders(response.headers, kept),
    body: listedBody(response.body, operation, response.status, kept),
  }
}

type Schema = Record<string, unknown>
/** A member the schema does not name. */
const UNKNOWN = Symbol('unknown')

/**
 * The schema of the body: the operation's success body for a 2xx, the error body otherwise; none outside the contract's
 * operations' 2xx.
 */
function bodySchema(operation: string | undefined, status: number): Schema | undefined {
  const name =
    status >= 200 && status < 300 ? operations().find((op) => op.id === operation)?.successSchema : 'ErrorBody'
  return name ? { $ref: `#/components/schemas/${name}` } : undefined
}

/** The schema a reference stands for, through at most 16 references (a loop of them ends there). */
export function resolved(
  schema: Schema | undefined,
  schemas: Record<string, unknown> = loadOpenApi().components.schemas,
): Schema | undefined {
  let at = schema
  for (let hops = 0; at && typeof at.$ref === 'string' && hops < 16; hops++)
    at = schemas[(at.$ref as string).replace('#/components/schemas/', '')] as Schema | undefined
  return at
}

/** The schema of a member of an object of `schema`, UNKNOWN when the schema names no such member. */
export function memberSchema(schema: Schema | undefined, name: string): Schema | typeof UNKNOWN {
  const at = resolved(schema)
  if (!at) return UNKNOWN
  const properties = at.properties as Record<string, Schema> | undefined
  // Every branch that names the member describes it (an envelope's data, and the list's data with its items).
  const named: Schema[] = properties && Object.hasOwn(properties, name) ? [properties[name]!] : []
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    for (const branch of (at[key] as Schema[] | undefined) ?? []) {
      const found = memberSchema(branch, name)
      if (found !== UNKNOWN) named.push(found)
    }
  }
  if (named.length > 0) return named.length === 1 ? named[0]! : { allOf: named }
  return typeof at.additionalProperties === 'object' ? (at.additionalProperties as Schema) : UNKNOWN
}

/** The schema of the items of an array of `schema`, undefined when it names none. */
export function itemSchema(schema: Schema | undefined): Schema | undefined {
  const at = resolved(schema)
  if (!at) return undefined
  if (at.items) return at.items as Schema
  for (const key of ['allOf', 'oneOf', 'anyOf'])
    for (const branch of (at[key] as Schema[] | undefined) ?? []) if (itemSchema(branch)) return itemSchema(branch)
  return undefined
}

/**
 * A JSON body with the value of each member its schema does not name replaced by a stand-in, the rest of the text as it
 * was (its numbers, spacing and order). A body that is not JSON is kept as it is (it has no members), as is what
 * follows
 * where a body stops being JSON; a member cut off by the end of the text (the capture cap) is replaced to the end.
 */
export function listedBody(
  body: string,
  operation: string | undefined,
  status: number,
  kept: KeptForEvidence = {},
): string {
  if (!/^\s*[{[]/.test(body)) return body
  const replaced: { start: number; end: number }[] = []
  const n = body.length
  let i = 0
  let openUnknown: number | undefined
  const space = () => {
    while (i < n && (body[i] === ' ' || body[i] === '\n' || body[i] === '\r' || body[i] === '\t')) i++
  }
  const string = () => {
    const start = i++
    while (i < n && body[i] !== '"') i += body[i] === '\\' ? 2 : 1
    if (i >= n) throw new SyntaxError('end')
    i++
    return body.slice(start, i)
  }
  const value = (schema: Schema | undefined, pointer: string): void => {
    space()
    if (i >= n) throw new SyntaxError('end')
    const c = body[i]
    if (c === '{') {
      i++
      space()
      if (body[i] === '}') return void i++
      for (;;) {
        space()
        if (body[i] !== '"') throw new SyntaxError('name')
        const name = JSON.parse(string()) as string
        space()
        if (body[i++] !== ':') throw new SyntaxError(':')
        space()
        const child = memberSchema(schema, name)
        const childPointer = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`
        if (child === UNKNOWN && !kept.pointers?.includes(childPointer) && openUnknown === undefined) {
          const start = (openUnknown = i)
          value(undefined, childPointer)
          openUnknown = undefined
          replaced.push({ start, end: i })
        } else value(child === UNKNOWN ? undefined : child, childPointer)
        space()
        const next = body[i++]
        if (next === '}') return
        if (next !== ',') throw new SyntaxError(',')
      }
    }
    if (c === '[') {
      i++
      space()
      if (body[i] === ']') return void i++
      for (let index = 0; ; index++) {
        value(itemSchema(schema), `${pointer}/${index}`)
        space()
        const next = body[i++]
        if (next === ']') return
        if (next !== ',') throw new SyntaxError(',')
      }
    }
    if (c === '"') return void string()
    const start = i
    while (i < n && !',]} \n\r\t'.includes(body[i]!)) i++
    if (i === start) throw new SyntaxError('value')
  }
  try {
    value(bodySchema(operation, status), '')
  } catch {
    // The text ended, or stopped being JSON, or nests deeper than the stack: an unknown member open there goes to the
    // end.
    if (openUnknown !== undefined) replaced.push({ start: openUnknown, end: n })
  }
  let out = ''
  let copied = 0
  for (const { start, end } of replaced) {
    out += body.slice(copied, start) + JSON.stringify(standIn('member', body.slice(start, end)))
    copied = end
  }
  return out + body.slice(copied)
}
