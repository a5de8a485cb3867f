// @ts-check
import { strykerPart } from './stryker.part.mjs'

/**
 * npm run mutation, docs part: the writers of the generated docs and catalogue files (src/docs/), their top-level code
 * too, judged by the tests that compare what they write with the committed files (vitest.mutation-docs.config.ts).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  ...strykerPart('docs', ['src/docs/**/*.ts']),
  ignoreStatic: false,
  // StrykerJS marks every file of its copy // @ts-nocheck by default, the generated ones too, which the tests then find
  // stale; vitest does not check types, so only the mutated files need it.
  disableTypeChecks: 'src/docs/**/*.ts',
  // Whole, as the static parts: StrykerJS's incremental mode keeps a static mutant that survived as survived though
  // tests that kill it were added since (stryker.part.mjs, staticPart).
  incremental: false,
}
