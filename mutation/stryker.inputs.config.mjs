// @ts-check
import { strykerPart } from './stryker.part.mjs'

/** The inputs part's files: reading and refusing the CLI's flags, subcommands' arguments and the API's options. */
export const INPUT_FILES = [
  'src/cli/flags.ts',
  'src/cli/options.ts',
  'src/cli/subcommand-args.ts',
  'src/runner/options.ts',
  'src/runner/validate-options.ts',
]

/**
 * npm run mutation, inputs part: the reading of the CLI's flags, its subcommands' arguments and the API's options, and
 * the refusal of bad ones (one line, exit 2), top-level code too (the table of flags). Judged by the unit tests of the
 * inputs' edges and the surface tests that give the CLI its inputs in this process, which take seconds where the front
 * part's tests take minutes, so that every mutant of its tables can run them all.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default { ...strykerPart('inputs', INPUT_FILES), ignoreStatic: false }
