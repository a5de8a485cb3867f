// @ts-check
import base from './stryker.config.mjs'

/**
 * npm run mutation:ci: the mutation run CI can afford, on a fixed sample: the largest check file (cursors), the
 * every-response rules and the code that decides the verdict. The npm script limits test/each-check.test.ts to their
 * concerns (IPTS_EACH_CHECK_CONCERNS), so the initial run is short too. A score under thresholds.break fails it.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  ...base,
  mutate: ['src/checks/cursors.ts', 'src/checks/every-response.ts', 'src/checks/profile-rules.ts', 'src/engine/run-check.ts', 'src/engine/judged-outcomes.ts', 'src/core/report.ts:124-142'],
  incremental: false,
  tempDirName: '.stryker-tmp-ci',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation-ci/mutation.json' },
  thresholds: { high: 90, low: 80, break: 80 },
}
