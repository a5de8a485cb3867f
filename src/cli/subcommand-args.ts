import { parseArgs } from 'node:util'
import { UsageError } from './options.js'

export interface SubcommandFlag {
  name: string
  kind: 'text' | 'int' | 'flag'
  help: string
  default?: string
  min?: number
  max?: number
}

/** Flags every subcommand that writes reports has, as a run has them. */
export const reportFlags: readonly SubcommandFlag[] = [
  { name: 'report-dir', kind: 'text', default: './conformance-report', help: 'where the report files are written' },
  { name: 'strict', kind: 'flag', help: 'a failed SHOULD check fails the run too' },
]

export type ParsedFlags = Record<string, string | number | boolean | undefined>

/** Parses a subcommand's flags and positional arguments; every mistake is a UsageError naming the flag. */
export function parseSubcommandArgs(argv: readonly string[], flags: readonly SubcommandFlag[], positionals: number): { values: ParsedFlags; positionals: string[] } {
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: Object.fromEntries([...flags.map((f) => [f.name, { type: f.kind === 'flag' ? 'boolean' : 'string' }] as const), ['help', { type: 'boolean' }] as const]),
    })
  } catch (error) {
    const message = (error as Error).message
    const option = /'(-{1,2}[^'\s]+)/.exec(message)?.[1]
    if (/Unknown option/.test(message)) throw new UsageError(`unknown flag ${option} (see --help)`)
    if (/argument missing/.test(message)) throw new UsageError(`${option?.replace(/ <value>$/, '')} needs a value`)
    throw new UsageError(message.split('\n')[0]!)
  }
  const values: ParsedFlags = { help: parsed.values.help === true }
  for (const flag of flags) {
    const given = (parsed.values[flag.name] as string | boolean | undefined) ?? flag.default
    if (given === undefined) continue
    if (flag.kind === 'int') {
      const text = String(given)
      const number = Number(text)
      if (!/^[0-9]+$/.test(text) || number < flag.min! || number > flag.max!) throw new UsageError(`--${flag.name} must be a whole number from ${flag.min} to ${flag.max}, got ${JSON.stringify(text)}`)
      values[flag.name] = number
    } else if (flag.kind === 'text' && given === '') throw new UsageError(`--${flag.name} must not be empty`)
    else values[flag.name] = given
  }
  if (!values.help && parsed.positionals.length !== positionals) {
    throw new UsageError(parsed.positionals.length < positionals ? 'missing argument (see --help)' : `unexpected argument ${JSON.stringify(parsed.positionals[positionals])} (see --help)`)
  }
  return { values, positionals: parsed.positionals }
}

export function subcommandHelp(usage: string, about: string, flags: readonly SubcommandFlag[]): string {
  const lines = flags.map((f) => `  --${f.name}${f.kind === 'flag' ? '' : f.kind === 'int' ? ' N' : ' VALUE'}\n      ${f.help}${f.default ? ` (default ${f.default})` : ''}`)
  return [`Usage: ${usage}`, '', about, '', ...lines, '  --help\n      print this help', '', 'Exit codes: 0 no MUST check failed (nor a SHOULD check, with --strict); 1 a check failed; 2 a usage error.'].join('\n')
}
