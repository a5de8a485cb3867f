// @ts-check
import { INPUT_FILES } from './stryker.inputs.config.mjs'
import { strykerPart } from './stryker.part.mjs'

/**
 * npm run mutation, front part: the front ends (src/cli, src/runner, src/vitest, src/index.ts) but the inputs part's
 * files, their top-level code too (the profile template): only the surface tests judge it, which the static part does
 * not run.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  ...strykerPart('front', [
    'src/cli/**/*.ts',
    'src/runner/**/*.ts',
    'src/vitest/**/*.ts',
    'src/index.ts',
    ...INPUT_FILES.map((file) => `!${file}`),
  ]),
  ignoreStatic: false,
}
