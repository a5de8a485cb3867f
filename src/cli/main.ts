import { packageJson } from '../core/package-root.js'
import { isUserFixable, UsageError } from '../core/errors.js'

/** What a subcommand's module gives the dispatcher once loaded. */
export interface LoadedSubcommand {
  /** The subcommand's --help text: usage line, what it does, its flags. */
  help(): string
  /**
   * Parses argv and the environment into the subcommand's options (UsageError on bad input) and runs its handler, a
   * plain async function of those options.
   */
  run(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number>
}

export interface Subcommand {
  name: string
  /** One line for the top-level --help. */
  summary: string
  /**
   * Imported on demand, so that one subcommand's dependencies (the engine and its client, for a run) do not slow the
   * start of another, or of --help; `argv`, the subcommand's arguments, where they decide what it needs.
   */
  load(argv?: readonly string[]): Promise<LoadedSubcommand>
}

/**
 * Every subcommand of ipts-conformance; the first is the default when the first argument is not a subcommand's name.
 */
export const subcommands: readonly Subcommand[] = [
  {
    name: 'run',
    summary: 'run the conformance suite against a deployment (the default subcommand)',
    load: async () => {
      const { parseCli, runHelp } = await import('./options.js')
      return {
        help: runHelp,
        run: async (argv, env) => {
          const options = parseCli(argv, env)
          for (const notice of options.notices) process.stderr.write(`ipts-conformance: ${notice}\n`)
          const { run } = await import('./run.js')
          return run(options, env)
        },
      }
    },
  },
  {
    name: 'doctor',
    summary:
      "the run's preflight alone: its inputs, the report folder, the target, its scheme and the key; exit 0 when a run could start, else 2",
    load: async () => {
      const { doctor, doctorHelp } = await import('./doctor.js')
      return { help: doctorHelp, run: doctor }
    },
  },
  {
    name: 'check-har',
    summary: 'judge recorded traffic (a HAR file) offline',
    load: async () => {
      const { checkHar, checkHarHelp, parseCheckHarArgs } = await import('./check-har.js')
      return { help: checkHarHelp, run: (argv, env) => checkHar(parseCheckHarArgs(argv, env), env) }
    },
  },
  {
    name: 'proxy',
    summary: 'a validating reverse proxy: forwards traffic unchanged and judges each exchange',
    load: async () => {
      const { parseProxyArgs, proxyHelp, proxy } = await import('./proxy.js')
      return { help: proxyHelp, run: (argv, env) => proxy(parseProxyArgs(argv, env), env) }
    },
  },
  {
    name: 'reference',
    summary: 'serve the reference server standalone, with switchable faults and allowances',
    load: async (argv = []) => {
      // A profile's writes run `reference sign` once for each body: it loads the signer alone, not the server and its
      // faults (half the CPU of each start, which a loaded machine made slower than the command's time bound).
      if (argv[0] === 'sign') {
        const { referenceSign, referenceSignHelp } = await import('./reference-sign.js')
        return { help: referenceSignHelp, run: async (args) => referenceSign(args.slice(1), process.stdout) }
      }
      const { parseReferenceArgs, referenceHelp, reference } = await import('./reference.js')
      return { help: referenceHelp, run: (args) => reference(parseReferenceArgs(args)) }
    },
  },
  {
    name: 'compare',
    summary: 'line up several report.json files side by side (deployments, or one deployment over time)',
    load: async () => {
      const { compareHelp, parseCompareArgs, compare } = await import('./compare.js')
      return { help: compareHelp, run: (argv, env) => compare(parseCompareArgs(argv, env)) }
    },
  },
  {
    name: 'profile',
    summary:
      'profile init [FILE]: write a commented deployment profile template; profile validate FILE: check one as a run would',
    load: async () => {
      const { profileCommand, profileHelp } = await import('./profile-command.js')
      return { help: profileHelp, run: async (argv) => profileCommand(argv, process.stdout) }
    },
  },
]

function topLevelHelp(runHelp: string): string {
  const width = Math.max(...subcommands.map((s) => s.name.length))
  return [
    `ipts-conformance ${packageJson.version}: conformance suite for the Indexed-Protocol Trading Service REST interface`,
    '',
    'Subcommands (ipts-conformance help SUBCOMMAND, or SUBCOMMAND --help, for each):',
    ...subcommands.map((s) => `  ${s.name.padEnd(width)}  ${s.summary}`),
    '',
    runHelp,
    '  --help, -h\n      print this help (also: ipts-conformance help [SUBCOMMAND])',
    '  --version\n      print the version',
    '',
    'Exit codes: 0 no MUST check failed (nor a SHOULD check, with --strict); 1 a check failed; 2 a usage error, or the preflight found the run could not judge the deployment (an unreachable target, the wrong scheme, a refused key, an unwritable report folder).',
  ].join('\n')
}

/** Runs the CLI and returns its exit code; the only caller of process.exit is the bin script. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    // `help` and `help SUBCOMMAND` are --help and `SUBCOMMAND --help`.
    const args = argv[0] === 'help' ? [...argv.slice(1, 2), '--help'] : argv
    const named = subcommands.find((s) => s.name === args[0])
    if (!named && args[0] !== undefined && !args[0].startsWith('-')) {
      throw new UsageError(
        `unknown subcommand ${JSON.stringify(args[0])} (one of ${subcommands.map((s) => s.name).join(', ')}; see --help)`,
      )
    }
    const rest = named ? args.slice(1) : args
    if (rest.includes('--version')) {
      process.stdout.write(`${packageJson.version}\n`)
      return 0
    }
    const subcommand = await (named ?? subcommands[0]!).load(rest)
    if (rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(
        `${named ? `${subcommand.help()}\n  --help, -h\n      print this help` : topLevelHelp(subcommand.help())}\n`,
      )
      return 0
    }
    return await subcommand.run(rest, env)
  } catch (error) {
    if (isUserFixable(error)) {
      // One line each: the preflight names every problem it found at once.
      for (const line of error.message.split('\n')) process.stderr.write(`ipts-conformance: ${line}\n`)
      return 2
    }
    process.stderr.write(`ipts-conformance: internal error: ${(error as Error)?.message ?? String(error)}\n`)
    return 1
  }
}
