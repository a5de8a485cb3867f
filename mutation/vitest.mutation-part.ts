import { defineConfig } from 'vitest/config'
import { LoadFailuresAsFailedTests } from './load-failures.js'
import UnitTestsFirst from '../test/support/unit-tests-first.js'

/**
 * The vitest configuration of a part of npm run mutation that is judged by its unit and surface tests (the files
 * given): Stryker runs them in one thread, one test at a time, and per mutant only the tests that reach it. The unit
 * tests run first (UnitTestsFirst), so that a mutant they kill costs no run.
 */
export function mutationPart(include: string[], { exclude = [] as string[], topLevel = false } = {}) {
  return defineConfig({
    test: {
      // A test file that fails to load under a mutant is a failed test, not an absent one (see load-failures.ts).
      reporters: ['default', new LoadFailuresAsFailedTests()],
      include,
      exclude,
      // One module graph for every run of the tests, as Stryker switches a mutant on at run time; but a fresh one for
      // each test file where the mutants are of top-level code, which runs when a module is imported.
      isolate: topLevel,
      sequence: { sequencer: UnitTestsFirst },
      testTimeout: 300_000,
      hookTimeout: 300_000,
    },
  })
}
