import { writeFileSync } from 'node:fs'
import { profileTemplate } from './profile-template.js'
import { UsageError } from '../core/errors.js'

export const DEFAULT_PROFILE_FILE = 'ipts-profile.yaml'

/** The profile subcommand's --help. */
export function profileHelp(): string {
  return [
    'Usage: ipts-conformance profile init [FILE]',
    '',
    `Writes a commented deployment profile template to FILE (default ${DEFAULT_PROFILE_FILE}): every key, what it states and`,
    'what it unlocks, all commented out. Uncomment what the deployment promises, then run with --profile FILE. An',
    'existing file is never overwritten.',
  ].join('\n')
}

/** `ipts-conformance profile init [FILE]`: writes the commented profile template; never overwrites a file. */
export function profileCommand(args: readonly string[], out: NodeJS.WritableStream): number {
  const [sub, file = DEFAULT_PROFILE_FILE, ...rest] = args
  if (sub !== 'init') throw new UsageError(`profile: unknown subcommand ${JSON.stringify(sub ?? '')} (usage: ipts-conformance profile init [FILE])`)
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
