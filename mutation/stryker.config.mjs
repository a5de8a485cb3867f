// @ts-check
/**
 * npm run mutation, first part: StrykerJS over the checks, judged by test/checks/each-check.test.ts (each check run by
 * itself against the reference, its faults and its concern's allowances) and the unit tests of the property runner. The
 * every-response rules, the redaction of secrets and the verdict code are the second part (stryker.judges.config.mjs):
 * every check's run goes through them, so they are judged by tests of their own. See docs/mutation.md.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'mutation/vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/checks/**/*.ts',
    ...['every-response', 'profile-rules', 'exchange-judge', 'needs', 'types', 'index'].map(
      (file) => `!src/checks/${file}.ts`,
    ),
  ],
  // A mutant in a module's top-level code (a check's ID or title, a constant) would need every test; those are not
  // branches of a check.
  ignoreStatic: true,
  // Three workers on two cores: a worker waits on the quota probe, Retry-After and timeouts for a good part of each
  // test.
  concurrency: 3,
  incremental: true,
  incrementalFile: 'reports/mutation/checks-incremental.json',
  tempDirName: '.stryker-tmp',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/checks.html' },
  jsonReporter: { fileName: 'reports/mutation/checks.json' },
  thresholds: { high: 90, low: 80, break: null },
  // Over the time a mutant's tests took unmutated (times timeoutFactor): long enough for a loaded machine, short enough
  // that a mutant that loops costs little.
  timeoutMS: 15_000,
  cleanTempDir: 'always',
}
