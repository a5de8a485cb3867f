// @ts-check
/**
 * npm run mutation: StrykerJS over the checks, the every-response rules, the redaction of secrets and the code that
 * decides pass/fail/skip, judged by the self-tests of vitest.mutation.config.ts. See docs/mutation.md.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/checks/**/*.ts',
    'src/http/secrets.ts',
    'src/engine/run-check.ts',
    'src/engine/judged-outcomes.ts',
    // summarize(): what turns the outcomes into the run's verdict.
    'src/core/report.ts:124-142',
  ],
  // A mutant in a module's top-level code (a check's ID or title, a constant) would need every test; those are not branches of a check.
  ignoreStatic: true,
  concurrency: 2,
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  tempDirName: '.stryker-tmp',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
  timeoutMS: 30_000,
  cleanTempDir: 'always',
}
