import { unknownCheckId } from '../checks/index.js'
import { schemaPattern } from '../contract/schemas.js'
import { UsageError } from '../core/errors.js'
import type { GivenSettings } from '../core/defaults.js'
import type { RunOptions } from './options.js'

/**
 * Bounds of the whole-number settings: the CLI's flags take theirs from here (--max-duration in seconds), and the API
 * holds its options to the same.
 */
export const SETTING_BOUNDS = {
  seed: { min: -2147483648, max: 2147483647 },
  runs: { min: 1, max: 10000 },
  concurrency: { min: 1, max: 64 },
  requestTimeoutMs: { min: 100, max: 600_000 },
  maxDurationMs: { min: 1000, max: 86_400_000 },
  maxPages: { min: 2, max: 100_000 },
  maxWrites: { min: 0, max: 100_000 },
  durationMs: { min: 1000, max: 86_400_000 },
  rate: { min: 1, max: 1000 },
} as const

/** A replay path as a report prints it: a fixed coverage case, or fast-check's path of a generated input. */
const REPLAY_PATH = /^(?:coverage:\d+|\d+(?::\d+)*)$/

/**
 * The kinds of text a run takes: each is checked by valueProblem, for a flag, a variable, a config key or an API option
 * alike.
 */
export type TextKind = 'url' | 'secret' | 'address' | 'hash' | 'receipt' | 'text'

/**
 * A control character: never part of a key, receipt, hash or URL; a carriage return or line feed copied in with a
 * value, most often.
 */
const CONTROL = /[\u0000-\u001f\u007f]/

/** Why a value of this kind cannot be used, in words after its name ("must not be empty"), or undefined when it can. */
export function valueProblem(kind: TextKind, text: string): string | undefined {
  const control = CONTROL.exec(text)?.[0]
  if (control !== undefined && kind !== 'text')
    return `holds a control character (U+${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}), copied in with the value?`
  switch (kind) {
    case 'url': {
      let url: URL
      try {
        url = new URL(text)
      } catch {
        return `must be an absolute http(s) URL, got ${JSON.stringify(text)}`
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return `must be an http or https URL, got ${url.protocol}`
      return url.search || url.hash ? 'must not carry a query or fragment' : undefined
    }
    case 'address':
      return schemaPattern('Address').test(text) ? undefined : 'must be 0x followed by 40 hex digits'
    case 'hash':
      return schemaPattern('Hash').test(text) ? undefined : 'must be 0x followed by 64 hex digits'
    case 'receipt':
      return text.length >= 1 && text.length <= 512 ? undefined : 'must be 1 to 512 characters'
    case 'secret':
    case 'text':
      return text.length > 0 ? undefined : 'must not be empty'
  }
}

/** The problem with a whole number against its bounds, or undefined. */
export function numberProblem(value: number, bounds: { min: number; max: number }): string | undefined {
  if (!Number.isInteger(value)) return `must be a whole number, got ${JSON.stringify(value)}`
  return value < bounds.min || value > bounds.max
    ? `must be from ${bounds.min} to ${bounds.max}, got ${value}`
    : undefined
}

type SettingName = keyof GivenSettings | 'only' | 'faults' | 'allowances' | 'waivers' | 'minAssessed'

/**
 * How a surface names an option in its messages: the API as `settings.apiKey`, the CLI as its flag or the variable or
 * file key it came from.
 */
export type OptionNamer = (name: SettingName) => string

const apiName: OptionNamer = (name) =>
  name === 'only' || name === 'minAssessed'
    ? name
    : name === 'waivers'
      ? 'waiver'
      : name === 'faults' || name === 'allowances'
        ? `reference.${name}`
        : `settings.${name}`

const TEXT_SETTINGS: Partial<Record<keyof GivenSettings, TextKind>> = {
  baseUrl: 'url',
  apiKey: 'secret',
  restrictedApiKey: 'secret',
  trader: 'address',
  secondTrader: 'address',
  cursorParam: 'text',
  limitParam: 'text',
  replayPath: 'text',
}

/**
 * Validates what a run is given, as one rule set for the CLI, `npx vitest run` and the API: each value by its kind and
 * bounds, then the options that need another, and the inputs a run against a deployment cannot do without. The first
 * problem is a UsageError naming the option, so that nothing is silently defaulted or left to hang (concurrency 0).
 */
export function validateRunOptions(options: RunOptions, name: OptionNamer = apiName): void {
  const settings = options.settings ?? {}
  const fail = (what: SettingName, problem: string): never => {
    throw new UsageError(`${name(what)} ${problem}`)
  }
  for (const [key, kind] of Object.entries(TEXT_SETTINGS) as [keyof GivenSettings, TextKind][]) {
    const value = settings[key]
    if (value === undefined) continue
    if (typeof value !== 'string') fail(key, `must be a string, got ${typeof value}`)
    const problem = valueProblem(kind, value as string)
    if (problem) fail(key, problem)
  }
  for (const [key, bounds] of Object.entries(SETTING_BOUNDS) as [
    keyof typeof SETTING_BOUNDS,
    { min: number; max: number },
  ][]) {
    const value = settings[key]
    if (value === undefined) continue
    const problem =
      typeof value === 'number' ? numberProblem(value, bounds) : `must be a whole number, got ${typeof value}`
    if (problem) fail(key, problem)
  }
  for (const key of ['intent', 'secondIntent'] as const) {
    const intent = settings[key]
    if (intent === undefined) continue
    const hashProblem = valueProblem('hash', String(intent?.hash ?? ''))
    if (hashProblem) fail(key, `hash ${hashProblem}`)
    const receiptProblem = valueProblem('receipt', String(intent?.receipt ?? ''))
    if (receiptProblem) fail(key, `receipt ${receiptProblem}`)
  }
  // The embedded reference's intents take these receipts: a check holds them to the contract's bounds as it does the
  // intents given.
  for (const [i, receipt] of (options.reference?.receipts ?? []).entries()) {
    const problem = valueProblem('receipt', String(receipt))
    if (problem) throw new UsageError(`reference.receipts ${i + 1} ${problem}`)
  }
  if (options.only !== undefined) {
    if (options.only.length === 0) fail('only', 'names no check: a run of none would pass on nothing')
    const unknown = unknownCheckId(options.only)
    if (unknown !== undefined) throw new UsageError(`${name('only')}: ${unknown}`)
  }
  for (const [i, waiver] of (options.waivers ?? []).entries()) {
    if (typeof waiver?.reason !== 'string' || waiver.reason.trim() === '')
      fail('waivers', `${i + 1} needs a non-empty reason`)
    const unknown = unknownCheckId([String(waiver.check)])
    if (unknown !== undefined) throw new UsageError(`${name('waivers')} ${i + 1}: ${unknown}`)
  }
  if (options.minAssessed !== undefined) {
    const problem =
      typeof options.minAssessed === 'number'
        ? numberProblem(options.minAssessed, { min: 0, max: 100 })
        : `must be a whole number, got ${typeof options.minAssessed}`
    if (problem) fail('minAssessed', `must be a percentage from 0 to 100, got ${String(options.minAssessed)}`)
  }
  if (settings.maxWrites !== undefined && !settings.allowWrites)
    fail('maxWrites', `bounds writes, which only ${name('allowWrites')} sends: give both, or neither`)
  if (settings.replayPath !== undefined && (options.only?.length !== 1 || settings.seed === undefined)) {
    fail(
      'replayPath',
      `needs ${name('seed')} and exactly one ${name('only')} (the replay command in the report has them)`,
    )
  }
  if (settings.replayPath !== undefined && !REPLAY_PATH.test(settings.replayPath)) {
    fail(
      'replayPath',
      `must be a path a report prints, coverage:<index> or numbers joined by ":", got ${JSON.stringify(settings.replayPath)}`,
    )
  }
  if (settings.baseUrl !== undefined && (options.reference?.faults?.length || options.reference?.allowances?.length)) {
    fail(
      options.reference.faults?.length ? 'faults' : 'allowances',
      `applies only to the embedded reference server, not with ${name('baseUrl')}`,
    )
  }
  // Without the key, every check of a deployment's operations is skipped and the rest pass: a green run about nothing.
  if (settings.baseUrl !== undefined && settings.apiKey === undefined && options.only === undefined) {
    fail(
      'apiKey',
      `is required with ${name('baseUrl')}: every operation of a deployment needs the key, and a run without it would pass on the few checks that need none (to run only those, name them with ${name('only')})`,
    )
  }
}
