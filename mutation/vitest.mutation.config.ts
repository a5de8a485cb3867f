import { defineConfig } from 'vitest/config'
import { LoadFailuresAsFailedTests } from './load-failures.js'
import UnitTestsFirst from '../test/support/unit-tests-first.js'

/**
 * The self-tests a mutant of a check is judged by (npm run mutation, stryker.config.mjs): each check run by itself
 * against the reference, its faults and its concern's allowances; the tests of each concern's checks on answers
 * scripted by hand (test/checks/); and the unit tests of the property runner, of the relation rules, of the reading of
 * realtime messages and of the values the checks judge with (the request formats, the refusals of operation-calls).
 * Stryker runs them in one thread, one test at a time, and per mutant only the tests that reach it. No build: none of
 * them runs the bin.
 */
export default defineConfig({
  test: {
    // A test file that fails to load under a mutant is a failed test, not an absent one (see load-failures.ts).
    reporters: ['default', new LoadFailuresAsFailedTests()],
    include: [
      'test/checks/*.test.ts',
      'test/unit/property-runner.test.ts',
      'test/unit/judged-edges.test.ts',
      'test/unit/relation-edges.test.ts',
      'test/unit/relation-rules-edges.test.ts',
      'test/unit/relation-memory.test.ts',
      'test/unit/realtime-messages.test.ts',
      // The realtime checks against channels that never answer, close or refuse: the paths the reference never takes.
      'test/runs/realtime-hostile.test.ts',
    ],
    // One module graph for every run of the tests: Stryker switches mutants on at run time, so nothing needs a fresh
    // import.
    isolate: false,
    sequence: { sequencer: UnitTestsFirst },
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
})
