import { writeFileSync } from 'node:fs'
import { profileTemplate } from './profile-template.js'
import { ERROR_CODES, UsageError } from '../core/errors.js'
import { loadProfile, parsedProfileFile, profileProblems } from '../profile/load.js'

export const DEFAULT_PROFILE_FILE = 'ipts-profile.yaml'

/** The subcommands of `ipts-conformance profile`. */
const profileSubcommands = [
  {
    usage: `init [FILE]`,
    summary: `write a commented deployment profile template to FILE (default ${DEFAULT_PROFILE_FILE}); an existing file is never overwritten`,
  },
  {
    usage: 'validate FILE',
    summary:
      'check a profile as a run would (specs/profile.schema.json, the rules beside it, the config schema it names): exit 0, or exit 2 with one line per problem',
  },
]

/** The profile subcommand's --help, which lists its subcommands. */
export function profileHelp(): string {
  return [
    'Usage: ipts-conformance profile SUBCOMMAND',
    '',
    'A deployment profile states the facts the contract leaves "not shown"; a run holds the deployment to them (--profile FILE).',
    '',
    'Subcommands:',
    ...profileSubcommands.map((sub) => `  ${sub.usage}\n      ${sub.summary}`),
    '',
    'The template names every key, what it states and what it unlocks, all commented out: uncomment what the deployment promises.',
  ].join('\n')
}

/**
 * `ipts-conformance profile init [FILE]` writes the commented profile template (never over a file); `profile validate
 * FILE` checks one. Without a subcommand it lists them.
 */
export function profileCommand(args: readonly string[], out: NodeJS.WritableStream): number | Promise<number> {
  const [sub, file = DEFAULT_PROFILE_FILE, ...rest] = args
  if (sub === undefined) {
    out.write(`${profileHelp()}\n`)
    return 0
  }
  if (sub === 'validate') return validateProfile(args.slice(1), out)
  if (sub !== 'init')
    throw new UsageError(
      `profile: unknown subcommand ${JSON.stringify(sub)} (one of: init [FILE], validate FILE; see ipts-conformance help profile)`,
    )
  if (rest.length > 0)
    throw new UsageError(
      `profile init: unexpected argument ${JSON.stringify(rest[0])} (usage: ipts-conformance profile init [FILE])`,
    )
  try {
    writeFileSync(file, profileTemplate(), { flag: 'wx' })
  } catch (error) {
    const code = (error as { code?: string }).code
    throw new UsageError(
      code === 'EEXIST'
        ? `profile init: ${file} exists; it is not overwritten`
        : `profile init: cannot write ${file} (${code ?? 'error'})`,
    )
  }
  out.write(`wrote ${file}: uncomment the keys your deployment promises, then run with --profile ${file}\n`)
  return 0
}

/**
 * `profile validate FILE`: every problem a run would stop at, one line each (exit 2), or what the profile states (exit
 * 0).
 */
async function validateProfile(args: readonly string[], out: NodeJS.WritableStream): Promise<number> {
  const [file, ...rest] = args
  if (file === undefined || rest.length > 0)
    throw new UsageError(
      `profile validate: ${file === undefined ? 'missing FILE' : `unexpected argument ${JSON.stringify(rest[0])}`} (usage: ipts-conformance profile validate FILE)`,
    )
  const parsed = parsedProfileFile(file, 'profile validate')
  const problems = profileProblems(parsed).map((problem) => `${file}: ${problem}`)
  if (problems.length === 0) {
    // What the file names (its config schema) is read as a run reads it; the published description is fetched by a run
    // only.
    try {
      await loadProfile({ file })
    } catch (error) {
      if ((error as { code?: string }).code !== ERROR_CODES.profile) throw error
      problems.push((error as Error).message)
    }
  }
  if (problems.length > 0) throw new UsageError(problems.join('\n'))
  const stated = Object.keys((parsed as { profile?: object | null }).profile ?? {})
  out.write(
    `${file}: a valid profile${stated.length > 0 ? ` stating ${stated.join(', ')}` : ', stating nothing yet'}\n`,
  )
  return 0
}
