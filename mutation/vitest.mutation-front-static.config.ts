import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge the top-level code of the front ends under mutation (stryker.front-static.config.mjs): the
 * tables of each command's flags and help, the profile template, the preflight's messages and the errors it names.
 * Every one of them runs for each such mutant, so these are the tests that read those tables in seconds: the unit
 * tests of the flags, the CLI given flags in this process, the preflight, profile init and the test of the docs.
 */
export default mutationPart(
  [
    'test/unit/subcommand-args.test.ts',
    'test/unit/subcommand-flags.test.ts',
    'test/unit/preflight-failures.test.ts',
    'test/unit/flag-parsing.test.ts',
    'test/unit/input-edges.test.ts',
    'test/unit/harness.test.ts',
    'test/surfaces/cli.test.ts',
    'test/surfaces/inputs.test.ts',
    'test/surfaces/preflight.test.ts',
    'test/runs/profile.test.ts',
    'test/meta/docs.test.ts',
  ],
  // A fresh module graph for each test file: top-level code runs when a module is imported.
  { topLevel: true },
)
