// @ts-check
import judges from './stryker.judges.config.mjs'

/**
 * npm run mutation:ci, verdict part: the code that decides pass, fail and skip and the profile rules, judged by the
 * rule tests and the unit tests. A score under thresholds.break fails the run.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  ...judges,
  mutate: [
    'src/checks/profile-rules.ts',
    'src/engine/run-check.ts',
    'src/engine/judged-outcomes.ts',
    'src/engine/summarize.ts',
  ],
  incremental: false,
  tempDirName: '.stryker-tmp-ci-judges',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation-ci/judges.json' },
  // break: the rules and the verdict code scored 100% in npm run mutation (docs/mutation.md); 97 leaves room for an
  // equivalent mutant a change brings before it is marked.
  thresholds: { high: 90, low: 80, break: 97 },
}
