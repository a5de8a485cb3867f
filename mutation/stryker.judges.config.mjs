// @ts-check
import checks from './stryker.config.mjs'

/**
 * npm run mutation, second part: the every-response rules and the code that decides pass, fail and skip (with the
 * checks' plumbing that every run goes through: needs, the errors a check throws, the catalogue). Every check's
 * run goes through them, so the tests of the checks would all cover each of their mutants; they are judged instead by
 * their own tests (vitest.mutation-judges.config.ts): each rule under each fault that names it, the rules on the plain
 * reference, each rule on responses made by hand, and the unit tests of the verdict.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  ...checks,
  vitest: { configFile: 'mutation/vitest.mutation-judges.config.ts', related: false },
  mutate: [
    'src/checks/every-response.ts',
    'src/checks/profile-rules.ts',
    'src/checks/exchange-judge.ts',
    // What every check's run goes through: the inputs it needs, its outcome's errors, the catalogue's selection of IDs.
    'src/checks/needs.ts',
    'src/checks/types.ts',
    'src/checks/index.ts',
    'src/engine/run-check.ts',
    'src/engine/judged-outcomes.ts',
    // What turns the outcomes into the run's verdict.
    'src/engine/summarize.ts',
  ],
  incrementalFile: 'reports/mutation/judges-incremental.json',
  tempDirName: '.stryker-tmp-judges',
  htmlReporter: { fileName: 'reports/mutation/judges.html' },
  jsonReporter: { fileName: 'reports/mutation/judges.json' },
}
