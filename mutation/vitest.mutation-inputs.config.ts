import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge the reading and refusal of inputs under mutation (stryker.inputs.config.mjs): the unit
 * tests of the inputs' edges, the CLI given flags in this process, and the generated table of flags in the docs.
 */
export default mutationPart(
  [
    'test/unit/input-edges.test.ts',
    'test/unit/subcommand-args.test.ts',
    'test/unit/flag-parsing.test.ts',
    'test/surfaces/inputs.test.ts',
    'test/surfaces/cli.test.ts',
    'test/unit/catalogue-names.test.ts',
    'test/meta/docs.test.ts',
  ],
  // Its top-level code is measured here too: a fresh module graph for each test file.
  { topLevel: true },
)
