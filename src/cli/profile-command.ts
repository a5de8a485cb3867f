import { writeFileSync } from 'node:fs'
import { profileTemplate } from './profile-template.js'
import { UsageError } from '../core/errors.js'

export const DEFAULT_PROFILE_FILE = 'ipts-profile.yaml'

/** The subcommands of `ipts-conformance profile`. */
const profileSubcommands = [{ usage: `init [FILE]`, summary: `write a commented deployment profile template to FILE (default ${DEFAULT_PROFILE_FILE}); an existing file is never overwritten` }]

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

/** `ipts-conformance profile init [FILE]`: writes the commented profile template; never overwrites a file. Without a subcommand it lists them. */
export function profileCommand(args: readonly string[], out: NodeJS.WritableStream): number {
  const [sub, file = DEFAULT_PROFILE_FILE, ...rest] = args
  if (sub === undefined) {
    out.write(`${profileHelp()}\n`)
    return 0
  }
  if (sub !== 'init') throw new UsageError(`profile: unknown subcommand ${JSON.stringify(sub)} (the one there is: init [FILE]; see ipts-conformance help profile)`)
  if (rest.length > 0) throw new UsageError(`profile init: unexpected argument ${JSON.stringify(rest[0])} (usage: ipts-conformance profile init [FILE])`)
  try {
    writeFileSync(file, profileTemplate(), { flag: 'wx' })
  } catch (error) {
    const code = (error as { code?: string }).code
    throw new UsageError(code === 'EEXIST' ? `profile init: ${file} exists; it is not overwritten` : `profile init: cannot write ${file} (${code ?? 'error'})`)
  }
  out.write(`wrote ${file}: uncomment the keys your deployment promises, then run with --profile ${file}\n`)
  return 0
}
