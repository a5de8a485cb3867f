// @ts-check
import checks from './stryker.config.mjs'
import { strykerPart } from './stryker.part.mjs'

/**
 * npm run mutation, the checks' top-level code: their definitions (IDs, requirements, what each needs, the tables and
 * helpers each judges with) in the files of the checks part (stryker.config.mjs), which measures the rest with
 * ignoreStatic. Every test runs for such a mutant, so these are judged by the tests of the checks on answers scripted
 * by hand and the catalogue's, gathered in one file (static-checks.test.ts), not by each check's whole runs.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  ...strykerPart('static-checks', checks.mutate ?? []),
  ignoreStatic: false,
  // StrykerJS's incremental mode keeps a static mutant that survived as survived though tests that kill it were added
  // since (seen on 2026-11-27: 39 survivors kept, each killed by a new test applied by hand): every run is whole.
  incremental: false,
  plugins: ['@stryker-mutator/*', './mutation/top-level-only.mjs'],
  ignorers: ['top-level-only'],
}
