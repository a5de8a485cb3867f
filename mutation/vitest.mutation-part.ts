import { defineConfig } from 'vitest/config'
import UnitTestsFirst from '../test/support/unit-tests-first.js'

/**
 * The vitest configuration of a part of npm run mutation that is judged by its unit and surface tests (the files
 * given): Stryker runs them in one thread, one test at a time, and per mutant only the tests that reach it. The unit
 * tests run first (UnitTestsFirst), so that a mutant they kill costs no run.
 */
export function mutationPart(include: string[]) {
  return defineConfig({
    test: {
      include,
      // One module graph for every run of the tests: Stryker switches mutants on at run time.
      isolate: false,
      sequence: { sequencer: UnitTestsFirst },
      testTimeout: 300_000,
      hookTimeout: 300_000,
    },
  })
}
