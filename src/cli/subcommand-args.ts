import { loadProfile } from '../profile/load.js'
import type { Profile } from '../profile/profile.js'
import { UsageError } from '../core/errors.js'
import { flagsHelp, parseFlags, readEnvironment, validateFlag, type Flag } from './flags.js'

/**
 * The share of the observable requirements a report must assess, for CI: a run, check-har and the proxy take it alike.
 */
export const minAssessedFlag: Flag = {
  name: 'min-assessed',
  env: 'IPTS_MIN_ASSESSED',
  kind: 'int',
  min: 0,
  max: 100,
  help: 'fail (exit 1) when less than this percentage of the observable requirements was assessed (default: no minimum; the report states the share either way)',
}

/** A previous report to compare with: a run, check-har and the proxy take it alike. */
export const baselineFlag: Flag = {
  name: 'baseline',
  env: 'IPTS_BASELINE',
  kind: 'text',
  help: "a previous run's report.json: say which checks newly fail, were fixed, or are unchanged",
}

/** Flags every subcommand that writes reports has, as a run has them. */
export const reportFlags: readonly Flag[] = [
  {
    name: 'report-dir',
    env: 'IPTS_REPORT_DIR',
    kind: 'folder',
    default: './conformance-report',
    help: 'where the report files are written',
  },
  { name: 'strict', env: 'IPTS_STRICT', kind: 'flag', help: 'a failed SHOULD check fails the run too' },
  minAssessedFlag,
  baselineFlag,
]

/** The flag of the subcommands that judge traffic (check-har, proxy): the deployment's facts, held to each exchange. */
export const trafficProfileFlag: Flag = {
  name: 'profile',
  kind: 'text',
  help: 'a deployment profile (YAML, specs/profile.schema.json): each exchange is held to its facts as a run holds its own; checks that read the published description (openapi) send requests and are not assessed',
}

/** The profile a traffic subcommand was given, read and checked (a ProfileError, exit 2, when it cannot be used). */
export function trafficProfile(path: string | undefined): Promise<Profile | undefined> {
  return path === undefined ? Promise.resolve(undefined) : loadProfile({ file: path })
}

/**
 * Parses and checks a subcommand's flags and its positional arguments; every mistake is a UsageError naming the flag.
 */
export function parseSubcommandArgs(
  argv: readonly string[],
  table: readonly Flag[],
  positionals: number,
  env: NodeJS.ProcessEnv = {},
): { values: Record<string, unknown>; positionals: string[] } {
  const parsed = parseFlags(argv, table)
  const notices: string[] = []
  const fromEnv = readEnvironment(table, env, notices)
  for (const notice of notices) process.stderr.write(`ipts-conformance: ${notice}\n`)
  const values: Record<string, unknown> = {}
  for (const flag of table) {
    // A flag wins over its environment variable, as in a run.
    const given = parsed.values[flag.name] ?? fromEnv.values[flag.name]
    values[flag.name] = validateFlag(
      flag,
      given ?? flag.default,
      parsed.values[flag.name] === undefined ? fromEnv.sources[flag.name] : undefined,
    )
  }
  if (parsed.positionals.length !== positionals) {
    throw new UsageError(
      parsed.positionals.length < positionals
        ? 'missing argument (see --help)'
        : `unexpected argument ${JSON.stringify(parsed.positionals[positionals])} (see --help)`,
    )
  }
  return { values, positionals: parsed.positionals }
}

export function subcommandHelp(usage: string, about: string, table: readonly Flag[]): string {
  return [`Usage: ${usage}`, '', about, '', ...flagsHelp(table)].join('\n')
}
