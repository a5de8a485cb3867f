import { statSync, type Stats } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { schemaPattern } from '../contract/schemas.js'
import { UsageError } from '../core/errors.js'

export type FlagKind = 'url' | 'secret' | 'address' | 'hash' | 'receipt' | 'int' | 'text' | 'flag' | 'list' | 'folder'

/** One flag of a subcommand: its name, how its value is checked, and its line of --help. */
export interface Flag {
  name: string
  env?: string
  kind: FlagKind
  help: string
  default?: string
  /** Bounds for int flags. */
  min?: number
  max?: number
}

export type RawFlags = Record<string, string | string[] | boolean | undefined>

/** Parses argv against a subcommand's flags; list flags may repeat or be comma-separated. Positionals are returned for the subcommand to judge. */
export function parseFlags(argv: readonly string[], table: readonly Flag[]): { values: RawFlags; positionals: string[] } {
  const takesValue = new Set(table.filter((f) => f.kind !== 'flag').map((f) => `--${f.name}`))
  // A negative number after a flag is its value (--seed -5), not a flag of its own, which is how parseArgs reads it.
  const args = argv.flatMap((arg, i) => (takesValue.has(argv[i - 1] ?? '') && /^-\d/.test(arg) ? [] : takesValue.has(arg) && /^-\d/.test(argv[i + 1] ?? '') ? [`${arg}=${argv[i + 1]}`] : [arg]))
  try {
    const { values, positionals } = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: Object.fromEntries(table.map((f) => [f.name, { type: f.kind === 'flag' ? 'boolean' : 'string', multiple: f.kind === 'list' }])),
    })
    const raw = values as RawFlags
    for (const flag of table) if (flag.kind === 'list' && raw[flag.name]) raw[flag.name] = (raw[flag.name] as string[]).flatMap((v) => v.split(','))
    return { values: raw, positionals }
  } catch (error) {
    const message = (error as Error).message
    const option = /'(-{1,2}[^'\s]+)/.exec(message)?.[1]
    if (/Unknown option/.test(message)) throw new UsageError(`unknown flag ${option} (see --help)`)
    if (/argument missing/.test(message)) throw new UsageError(`${option?.replace(/ <value>$/, '')} needs a value`)
    if (/argument is ambiguous/.test(message)) throw new UsageError(`${option} needs a value (one that begins with - is written ${option}=VALUE)`)
    throw new UsageError(message.split('\n')[0]!)
  }
}

/**
 * Checks one flag's value against its kind and bounds; undefined stays undefined. `source` names where the value came
 * from (`IPTS_RUNS`, `runs in ipts.yaml`); the flag itself when it came from argv.
 */
export function validateFlag(flag: Flag, value: string | string[] | boolean | undefined, source = `--${flag.name}`): unknown {
  if (value === undefined) return undefined
  const text = String(value)
  const bad = (what: string): never => {
    throw new UsageError(`${source} ${what}`)
  }
  switch (flag.kind) {
    case 'url': {
      let url: URL
      try {
        url = new URL(text)
      } catch {
        return bad(`must be an absolute http(s) URL, got ${JSON.stringify(text)}`)
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') bad(`must be an http or https URL, got ${url.protocol}`)
      if (url.search || url.hash) bad('must not carry a query or fragment')
      return text.replace(/\/+$/, '')
    }
    case 'address':
      return schemaPattern('Address').test(text) ? text : bad('must be 0x followed by 40 hex digits')
    case 'hash':
      return schemaPattern('Hash').test(text) ? text : bad('must be 0x followed by 64 hex digits')
    case 'receipt':
      return text.length >= 1 && text.length <= 512 ? text : bad('must be 1 to 512 characters')
    case 'secret':
      return text.length > 0 ? text : bad('must not be empty')
    case 'int': {
      if (!/^-?[0-9]+$/.test(text)) return bad(`must be a whole number, got ${JSON.stringify(text)}`)
      const number = Number(text)
      if (number < flag.min! || number > flag.max!) bad(`must be from ${flag.min} to ${flag.max}, got ${number}`)
      return number
    }
    case 'flag':
      return value === true
    case 'list':
      return (value as string[]).map((v) => v.trim()).filter(Boolean)
    case 'text':
      return text.length > 0 ? text : bad('must not be empty')
    case 'folder': {
      if (text.length === 0) return bad('must not be empty')
      const blocking = blockingFile(resolve(text))
      return blocking === undefined ? text : bad(`must name a folder, but ${blocking} is a file`)
    }
  }
}

/** The file in the way of an output folder (the path itself or one of its parents), found before a run rather than after it. */
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
    const value = f.kind === 'flag' ? '' : f.kind === 'int' ? ' N' : ' VALUE'
    const extra = [f.env ? `env ${f.env}` : '', f.default ? `default ${f.default}` : ''].filter(Boolean).join('; ')
    return `  --${f.name}${value}\n      ${f.help}${extra ? ` (${extra})` : ''}`
  })
}
