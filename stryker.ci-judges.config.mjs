// @ts-check
import judges from './stryker.judges.config.mjs'

/**
 * npm run mutation:ci, verdict part: the code that decides pass, fail and skip and the profile rules, judged by the
 * rule tests and the unit tests. A score under thresholds.break fails the run.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  ...judges,
  mutate: ['src/checks/profile-rules.ts', 'src/engine/run-check.ts', 'src/engine/judged-outcomes.ts', 'src/core/report.ts:124-142'],
  incremental: false,
  tempDirName: '.stryker-tmp-ci-judges',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation-ci/judges.json' },
  // break: the score of this sample when it was set up (87.6%), less a margin: raise it as survivors are killed.
  thresholds: { high: 90, low: 80, break: 85 },
}
