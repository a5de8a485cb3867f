// @ts-check
import { strykerPart } from './stryker.part.mjs'

/**
 * npm run mutation, reports part: the report writers (reporters/), their top-level code too (the page's styles and
 * script, the tables of labels), judged by the tests that render reports of whole runs made once
 * (vitest.mutation-reports.config.ts).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  ...strykerPart('reports', ['reporters/**/*.ts']),
  ignoreStatic: false,
  // Whole, as the static parts: StrykerJS's incremental mode keeps a static mutant that survived as survived though
  // tests that kill it were added since (stryker.part.mjs, staticPart).
  incremental: false,
}
