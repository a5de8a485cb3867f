import { availableParallelism } from 'node:os'
import { configDefaults, defineConfig } from 'vitest/config'

/**
 * Whole runs against the reference, and surfaces run in this process, that leave the process as they found it (no
 * signal, listener, environment variable or output of it changed) and run no dist/ (the bin). They share one module
 * graph per fork, as the in-process tests do (a fresh import of src/ for each file cost a second or more of CPU), and
 * with it the plain runs of test/support/reach.ts.
 */
const SHARED_END_TO_END = [
  'test/runs/allowances.test.ts',
  'test/runs/client-waits.test.ts',
  'test/runs/concurrency.test.ts',
  'test/runs/content-coding.test.ts',
  'test/runs/cursors.test.ts',
  'test/runs/faults.test.ts',
  'test/runs/hostile.test.ts',
  'test/runs/quota.test.ts',
  'test/runs/realtime-hostile.test.ts',
  'test/runs/retries.test.ts',
  'test/runs/same-seed.test.ts',
  'test/runs/server-errors.test.ts',
  'test/runs/soak.test.ts',
  'test/runs/verdict-stability.test.ts',
  'test/surfaces/har-export.test.ts',
  'test/surfaces/report-browser.test.ts',
  'test/surfaces/report-formats.test.ts',
  'test/surfaces/vitest-config.test.ts',
]

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
    // Two forks a core, at most eight: a file of waiting tests (Retry-After, quotas, targets that go silent) holds its
    // fork idle for seconds while the other works, and on a machine loaded by other work the suite keeps its share of
    // the CPU (docs/development.md, Test time). Within a file, the runs of faults and allowances go concurrently.
    maxWorkers: Math.min(8, 2 * availableParallelism()),
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
          // Added to the exclusions above (a project's arrays extend the root's).
          exclude: SHARED_END_TO_END,
          // Compiles dist/ once (incrementally) for the tests that run the bin as a user does.
          globalSetup: ['test/support/build.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'end-to-end, shared',
          include: SHARED_END_TO_END,
          isolate: false,
        },
      },
    ],
  },
})
