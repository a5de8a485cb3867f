// @ts-check
import checks from './stryker.config.mjs'

/**
 * npm run mutation:ci, checks part: a fixed sample CI can afford, the checks of auth (every operation refused without a
 * key, with an unknown key, in the query; the restricted key's scope). The npm script limits
 * test/checks/each-check.test.ts to that concern (IPTS_EACH_CHECK_CONCERNS), so the initial run is short too. A score
 * under thresholds.break fails the run.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  ...checks,
  mutate: ['src/checks/auth.ts'],
  incremental: false,
  tempDirName: '.stryker-tmp-ci-checks',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation-ci/checks.json' },
  // break: this sample scored 100% on 2026-11-23 (auth.ts with test/checks/auth.test.ts); 90 leaves room for an
  // equivalent mutant or two a change brings before they are marked.
  thresholds: { high: 90, low: 80, break: 90 },
}
