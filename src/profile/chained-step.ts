import { valueAt } from '../core/json-pointer.js'

/**
 * A write that takes values from an earlier step's answer (specs/profile.schema.json, $defs/chainedStep): {id},
 * {receipt} or {/json/pointer} in its path, query, headers and signing command's arguments.
 */
export interface ChainedStep {
  /** The path below the base URL, when not the operation's own. */
  path?: string
  query?: Record<string, string>
  headers?: Record<string, string>
  bodies: { command: string[] }
  /** The statuses that mean accepted and refused (default: the operation's). */
  accepted?: number[]
  refused?: number[]
}

/**
 * A value of an earlier step's answer, as a profile's template names it: {id} (its status identifier), {receipt} (its
 * receipt capability) or a JSON Pointer into its body, such as {/data/hash}.
 */
const PLACEHOLDER = /\{(id|receipt|\/[^{}]*)\}/g

/** The earlier answer a chained step takes its values from. */
export interface EarlierAnswer {
  id: string
  receipt: string
  /** The answer's parsed JSON body. */
  json: unknown
}

/** The request of a chained step, its values filled in, or the placeholder the earlier answer has no value for. */
export type FilledStep =
  { path: string; headers: Record<string, string>; fill: (text: string) => string } | { missing: string; where: string }

/** The value a placeholder names in the earlier answer: a string or a number, as text. */
function valueOf(name: string, answer: EarlierAnswer): string | undefined {
  if (name === 'id') return answer.id
  if (name === 'receipt') return answer.receipt
  const value = valueAt(answer.json, name)
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined
}

/** Every template of a step, each with the profile key it is written at below the step. */
function templatesOf(step: ChainedStep): { where: string; template: string }[] {
  return [
    ...(step.path === undefined ? [] : [{ where: 'path', template: step.path }]),
    ...Object.entries(step.query ?? {}).map(([name, template]) => ({ where: `query.${name}`, template })),
    ...Object.entries(step.headers ?? {}).map(([name, template]) => ({ where: `headers.${name}`, template })),
    ...step.bodies.command.map((template, index) => ({ where: `bodies.command[${index}]`, template })),
  ]
}

/** Whether any template of the step takes a value of the earlier answer: a step must name what it acts on. */
export function takesEarlierValues(step: ChainedStep): boolean {
  return templatesOf(step).some(({ template }) => new RegExp(PLACEHOLDER.source).test(template))
}

/** Whether the step sends the earlier answer's receipt (in its path, query, headers or signed body). */
export function sendsReceipt(step: ChainedStep): boolean {
  return templatesOf(step).some(({ template }) => template.includes('{receipt}'))
}

/**
 * The step's request with the earlier answer's values: the path (its own, else `defaultPath`) with each value
 * percent-encoded, the query added, the headers as given; `fill` fills in a signing command's argument. A header or
 * query parameter whose template comes out empty is left out (a step sent without the receipt sends no empty header).
 */
export function fillStep(step: ChainedStep, defaultPath: string, answer: EarlierAnswer): FilledStep {
  const missing = templatesOf(step)
    .flatMap(({ where, template }) => [...template.matchAll(PLACEHOLDER)].map((match) => ({ where, name: match[1]! })))
    .find(({ name }) => valueOf(name, answer) === undefined)
  if (missing) return { missing: missing.name, where: missing.where }
  const fill = (template: string, encode: (value: string) => string = (value) => value) =>
    template.replace(PLACEHOLDER, (_, name: string) => encode(valueOf(name, answer)!))
  const query = new URLSearchParams(
    Object.entries(step.query ?? {})
      .map(([name, template]) => [name, fill(template)] as [string, string])
      .filter(([, value]) => value !== ''),
  ).toString()
  const path = fill(step.path ?? defaultPath, encodeURIComponent)
  const headers = Object.fromEntries(
    Object.entries(step.headers ?? {})
      .map(([name, template]) => [name.toLowerCase(), fill(template)] as [string, string])
      .filter(([, value]) => value !== ''),
  )
  return { path: query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path, headers, fill: (t) => fill(t) }
}

/**
 * A pattern of the paths a step's path template sends to (each placeholder one or more characters of a path segment),
 * to know its requests in recorded traffic by their URL's pathname (which holds no query or fragment).
 */
export function stepPathPattern(template: string): RegExp {
  const parts = template.split(PLACEHOLDER)
  // split with a capturing group alternates literal text and placeholder names.
  const source = parts
    .map((part, index) => (index % 2 === 1 ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('')
  return new RegExp(`${source}$`)
}
