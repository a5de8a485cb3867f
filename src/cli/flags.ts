import { statSync, type Stats } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { distance } from 'fastest-levenshtein'
import { closestFirst } from '../core/closest.js'
import { UsageError } from '../core/errors.js'
import { valueProblem } from '../runner/validate-options.js'

export type FlagKind =
  'url' | 'secret' | 'address' | 'hash' | 'receipt' | 'int' | 'duration' | 'text' | 'flag' | 'list' | 'folder'

/** The units of a duration flag's value (90s, 10m, 2h), in milliseconds. */
const DURATION_UNITS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000 }

/** One flag of a subcommand: its name, how its value is checked, and its line of --help. */
export interface Flag {
  name: string
  /** Its environment variable: IPTS_ and the flag's name in upper snake case (envName). */
  env?: string
  /** Older names of the variable, still read. */
  envAliases?: readonly string[]
  kind: FlagKind
  help: string
  default?: string
  /** Bounds for int flags; for a duration flag, in milliseconds. */
  min?: number
  max?: number
}

export type RawFlags = Record<string, string | string[] | boolean | undefined>

/**
 * Parses argv against a subcommand's flags; list flags may repeat or be comma-separated. Positionals are returned for
 * the subcommand to judge.
 */
export function parseFlags(
  argv: readonly string[],
  table: readonly Flag[],
): { values: RawFlags; positionals: string[] } {
  const takesValue = new Set(table.filter((f) => f.kind !== 'flag').map((f) => `--${f.name}`))
  // A negative number after a flag is its value (--seed -5), not a flag of its own, which is how parseArgs reads it.
  const args = argv.flatMap((arg, i) =>
    takesValue.has(argv[i - 1] ?? '') && /^-\d/.test(arg)
      ? []
      : takesValue.has(arg) && /^-\d/.test(argv[i + 1] ?? '')
        ? [`${arg}=${argv[i + 1]}`]
        : [arg],
  )
  try {
    const { values, positionals } = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: Object.fromEntries(
        table.map((f) => [f.name, { type: f.kind === 'flag' ? 'boolean' : 'string', multiple: f.kind === 'list' }]),
      ),
    })
    const raw = values as RawFlags
    for (const flag of table)
      if (flag.kind === 'list' && raw[flag.name])
        raw[flag.name] = (raw[flag.name] as string[]).flatMap((v) => v.split(','))
    return { values: raw, positionals }
  } catch (error) {
    const message = (error as Error).message
    const option = /'(-{1,2}[^'\s]+)/.exec(message)?.[1]
    if (/Unknown option/.test(message)) throw new UsageError(`unknown flag ${option} (see --help)`)
    if (/argument missing/.test(message)) throw new UsageError(`${option} needs a value`)
    if (/argument is ambiguous/.test(message))
      throw new UsageError(`${option} needs a value (one that begins with - is written ${option}=VALUE)`)
    throw new UsageError(message.split('\n')[0]!)
  }
}

/**
 * Checks one flag's value against its kind and bounds; undefined stays undefined. `source` names where the value came
 * from (`IPTS_RUNS`, `runs in ipts.yaml`); the flag itself when it came from argv.
 */
export function validateFlag(
  flag: Flag,
  value: string | string[] | boolean | undefined,
  source = `--${flag.name}`,
): unknown {
  if (value === undefined) return undefined
  const text = String(value)
  const bad = (what: string): never => {
    throw new UsageError(`${source} ${what}`)
  }
  switch (flag.kind) {
    case 'url': {
      const problem = valueProblem('url', text)
      return problem ? bad(problem) : text.replace(/\/+$/, '')
    }
    case 'address':
    case 'hash':
    case 'receipt':
    case 'secret':
    case 'text': {
      const problem = valueProblem(flag.kind, text)
      return problem ? bad(problem) : text
    }
    case 'int': {
      if (!/^-?[0-9]+$/.test(text)) return bad(`must be a whole number, got ${JSON.stringify(text)}`)
      const number = Number(text)
      if (number < flag.min! || number > flag.max!) bad(`must be from ${flag.min} to ${flag.max}, got ${number}`)
      return number
    }
    case 'duration': {
      const match = /^([0-9]+)([smh])$/.exec(text.trim())
      if (!match) return bad(`must be a duration such as 90s, 10m or 2h, got ${JSON.stringify(text)}`)
      const ms = Number(match[1]) * DURATION_UNITS[match[2]!]!
      if (ms < flag.min! || ms > flag.max!)
        bad(`must be from ${flag.min! / 1000} s to ${flag.max! / 3_600_000} h, got ${JSON.stringify(text)}`)
      return ms
    }
    case 'flag':
      return value === true
    case 'list':
      return (value as string[]).map((v) => v.trim()).filter(Boolean)
    case 'folder': {
      if (text.length === 0) return bad('must not be empty')
      const blocking = blockingFile(resolve(text))
      return blocking === undefined ? text : bad(`must name a folder, but ${blocking} is a file`)
    }
  }
}

/**
 * The file in the way of an output folder (the path itself or one of its parents), found before a run rather than after
 * it.
 */
function blockingFile(path: string): string | undefined {
  for (let at = path; dirname(at) !== at; at = dirname(at)) {
    let found: Stats | undefined
    try {
      found = statSync(at)
    } catch {
      continue // not there (or a parent is a file, which the loop reaches)
    }
    return found.isDirectory() ? undefined : at
  }
  return undefined
}

/** The flags part of a subcommand's --help: each flag, its value, help, environment variable and default. */
export function flagsHelp(table: readonly Flag[]): string[] {
  return table.map((f) => {
    const value = f.kind === 'flag' ? '' : f.kind === 'int' ? ' N' : f.kind === 'duration' ? ' D' : ' VALUE'
    const extra = [
      f.env ? `env ${[f.env, ...(f.envAliases ?? [])].join(' or ')}` : '',
      f.default ? `default ${f.default}` : '',
    ]
      .filter(Boolean)
      .join('; ')
    return `  --${f.name}${value}\n      ${f.help}${extra ? ` (${extra})` : ''}`
  })
}

/** A flag's environment variable: IPTS_ and its name in upper snake case (--max-writes: IPTS_MAX_WRITES). */
export function envName(flagName: string): string {
  return `IPTS_${flagName.toUpperCase().replace(/-/g, '_')}`
}

/** The words a boolean variable or config value may say, case aside. */
const BOOLEAN_WORDS: Record<string, boolean> = { 1: true, true: true, yes: true, 0: false, false: false, no: false }

/** A boolean from a variable or a config file: only the known words, else a UsageError naming where it came from. */
export function booleanOf(value: unknown, source: string): boolean {
  if (typeof value === 'boolean') return value
  const known = BOOLEAN_WORDS[String(value).trim().toLowerCase()]
  if (known === undefined)
    throw new UsageError(`${source} must be one of 1, 0, true, false, yes, no, got ${JSON.stringify(value)}`)
  return known
}

/**
 * Kinds whose empty value is never "not given": an unset CI secret or URL must fail the job, not turn it green (or
 * point it at the embedded reference).
 */
const MUST_NOT_BE_EMPTY: ReadonlySet<FlagKind> = new Set(['url', 'secret', 'receipt'])

/**
 * An empty value where a setting is read from a variable or a file: a UsageError for a URL, a key or a receipt; a
 * notice otherwise (the setting then counts as not given).
 */
export function emptyValue(flag: Flag, source: string, notices: string[]): void {
  if (MUST_NOT_BE_EMPTY.has(flag.kind))
    throw new UsageError(
      `${source} is set but empty (an unset CI secret or variable?): give --${flag.name} a value, or unset ${source}`,
    )
  notices.push(`${source} is set but empty: not given`)
}

/**
 * The values a table's flags take from the environment (by name or alias), as argv would give them; empty ones and
 * unknown boolean words as emptyValue and booleanOf judge them.
 */
export function readEnvironment(
  table: readonly Flag[],
  env: NodeJS.ProcessEnv,
  notices: string[],
): { values: RawFlags; sources: Record<string, string> } {
  const values: RawFlags = {}
  const sources: Record<string, string> = {}
  for (const flag of table) {
    const name = [flag.env, ...(flag.envAliases ?? [])].find(
      (variable) => variable !== undefined && env[variable] !== undefined,
    )
    if (name === undefined) continue
    const value = env[name]!
    if (value.trim() === '') {
      emptyValue(flag, name, notices)
      continue
    }
    values[flag.name] = flag.kind === 'flag' ? booleanOf(value, name) : flag.kind === 'list' ? value.split(',') : value
    sources[flag.name] = name
  }
  return { values, sources }
}

/**
 * IPTS_ variables no flag reads but that are a slip away from one (IPTS_APIKEY, IPTS_STICT): one notice each, naming
 * the closest. `alsoRead` are variables read elsewhere (npx vitest run's IPTS_ALLOW_WRITES); farther names (the
 * self-tests' own variables) are left alone.
 */
export function misspeltVariables(
  table: readonly Flag[],
  env: NodeJS.ProcessEnv,
  alsoRead: readonly string[] = [],
): string[] {
  const known = table
    .flatMap((flag) => [flag.env, ...(flag.envAliases ?? [])])
    .filter((name): name is string => name !== undefined)
  const notices: string[] = []
  for (const variable of Object.keys(env)) {
    if (!variable.startsWith('IPTS_') || known.includes(variable) || alsoRead.includes(variable)) continue
    const closest = closestFirst(variable, known)[0]
    if (
      closest !== undefined &&
      distance(variable, closest) <= Math.min(3, Math.floor((closest.length - 'IPTS_'.length) / 3))
    ) {
      notices.push(`${variable} is not read by any flag; did you mean ${closest}?`)
    }
  }
  return notices
}
