import { defineConfig } from 'vitest/config'
import { LoadFailuresAsFailedTests } from './load-failures.js'
import UnitTestsFirst from '../test/support/unit-tests-first.js'

/**
 * The self-tests the every-response rules and the verdict code are judged by under mutation
 * (stryker.judges.config.mjs): the rule tests of test/checks/each-check.test.ts (IPTS_EACH_CHECK_CONCERNS limits it to
 * them) and the unit tests. Stryker runs them in one thread, one test at a time.
 */
export default defineConfig({
  test: {
    // A test file that fails to load under a mutant is a failed test, not an absent one (see load-failures.ts).
    reporters: ['default', new LoadFailuresAsFailedTests()],
    include: [
      'test/checks/each-check.test.ts',
      'test/unit/verdict-units.test.ts',
      'test/unit/exchange-rules.test.ts',
      'test/unit/judged-edges.test.ts',
    ],
    env: { IPTS_EACH_CHECK_CONCERNS: 'every-response' },
    // One module graph for every run of the tests: Stryker switches mutants on at run time. (The redaction, whose
    // caches one graph would carry from one mutant's run to the next, is mutated in a part of its own.)
    isolate: false,
    sequence: { sequencer: UnitTestsFirst },
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
})
