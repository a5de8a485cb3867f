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
  // break: 94. The rules and the verdict code scored 100% in npm run mutation on 2026-11-23, before the writes (issue 23)
  // added code to run-check.ts (the opt-in's skip, --max-writes, the writes an outcome lists) that no verdict unit test
  // reaches yet; the sample measured 97.02% in CI on 2026-11-23 with them. Back to 97 once those tests land.
  thresholds: { high: 90, low: 80, break: 94 },
}
