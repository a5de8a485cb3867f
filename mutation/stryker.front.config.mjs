// @ts-check
import { INPUT_FILES } from './stryker.inputs.config.mjs'
import { strykerPart } from './stryker.part.mjs'

/** The front ends (src/cli, src/runner, src/vitest, src/index.ts) but the inputs part's files. */
export const FRONT_FILES = [
  'src/cli/**/*.ts',
  'src/runner/**/*.ts',
  'src/vitest/**/*.ts',
  'src/index.ts',
  ...INPUT_FILES.map((file) => `!${file}`),
]

/**
 * npm run mutation, front part: the front ends but the inputs, judged per test by the surface tests that run each
 * command in this process (vitest.mutation-front.config.ts). Their top-level code (the tables of each command's flags,
 * the profile template, the preflight's messages) is the front-static part's (stryker.front-static.config.mjs): every
 * test would run for such a mutant, minutes each.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default strykerPart('front', FRONT_FILES)
