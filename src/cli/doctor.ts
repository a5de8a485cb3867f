import { join } from 'node:path'
import { HAR_FILE } from '../har/write.js'
import { openTarget } from '../runner/target.js'
import { flagsHelp } from './flags.js'
import { flags, parseCli } from './options.js'

export function doctorHelp(): string {
  return [
    'Usage: ipts-conformance doctor [flags]',
    '',
    "Runs a run's preflight alone, with a run's flags (put doctor in front of a run's command line): checks every input,",
    'writes a probe file to the report folder, reads three operations of the target to see that it answers, in the scheme',
    'given, and accepts the key, and loads the profile. Sends no check. Prints what it found and exits 0 when a run could',
    'start; else exit 2 with one line per problem, as the run would stop before its first check.',
    '',
    ...flagsHelp(flags),
  ].join('\n')
}

/** `ipts-conformance doctor`: the preflight of the run these flags describe, alone. */
export async function doctor(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const options = parseCli(argv, env)
  for (const notice of options.notices) process.stderr.write(`ipts-conformance: ${notice}\n`)
  const target = await openTarget({ ...options.run, harPath: join(options.reportDir, HAR_FILE) })
  try {
    const profile = target.settings.profile
      ? `profile ${target.settings.profile.source}: loaded`
      : 'profile: none (the facts the contract leaves "not shown" are reported not assessable)'
    const what = target.server ? 'the embedded reference server' : target.settings.baseUrl
    process.stdout.write(
      `${[...target.preflight, profile, `ready: a run against ${what} with these flags can start`].join('\n')}\n`,
    )
    return 0
  } finally {
    await target.close()
  }
}
