import { configDefaults, defineConfig } from 'vitest/config'

/**
 * The project's own tests (npm test). The conformance suites under suites/ (and the fixture suites) run only through
 * the runner.
 */
export default defineConfig({
  test: {
    // each-check.test.ts (each check run by itself, 90 s in one thread) runs in CI after npm test and under mutation;
    // package.test.ts (npm pack, four installs, a consumer's tsc and npx vitest run: minutes) runs in CI after npm
    // test, which sets IPTS_SELFTEST_PACKAGE=1 (.ci/run).
    exclude: [
      ...configDefaults.exclude,
      'test/fixtures/**',
      'test/checks/each-check.test.ts',
      ...(process.env.IPTS_SELFTEST_PACKAGE === '1' ? [] : ['test/surfaces/package.test.ts']),
    ],
    // Guards against a run that never ends, not measures: on a loaded shared machine a whole run can take minutes.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Two forks on the two-core machines; within a file, the runs of faults and allowances go concurrently (waiting
    // tests, those of quotas and Retry-After, overlap with working ones).
    maxWorkers: 2,
    maxConcurrency: 6,
    projects: [
      {
        extends: true,
        test: {
          name: 'in-process',
          include: ['test/unit/**/*.test.ts', 'test/checks/**/*.test.ts', 'test/meta/**/*.test.ts'],
          // One module graph per fork for these files, as under mutation: none of them changes the process (its
          // signals, its environment, its output) beyond the test that restores it, and a fresh import of src/ for each
          // file cost half of their CPU.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'end-to-end',
          include: ['test/runs/**/*.test.ts', 'test/surfaces/**/*.test.ts'],
          // Compiles dist/ once (incrementally) for the tests that run the bin as a user does.
          globalSetup: ['test/support/build.ts'],
        },
      },
    ],
  },
})
