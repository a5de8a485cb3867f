// @ts-check
import { strykerPart } from './stryker.part.mjs'

/**
 * npm run mutation, front part: the front ends and the adapters that write reports (src/cli, src/runner, src/vitest,
 * src/docs, src/index.ts, reporters/), their top-level code too (the flags, the profile template, the docs' tables):
 * only the surface tests judge it, which the static part does not run.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  ...strykerPart('front', [
    'src/cli/**/*.ts',
    'src/runner/**/*.ts',
    'src/vitest/**/*.ts',
    'src/docs/**/*.ts',
    'src/index.ts',
    'reporters/**/*.ts',
  ]),
  ignoreStatic: false,
}
