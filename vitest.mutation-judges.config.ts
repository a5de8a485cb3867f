import { defineConfig } from 'vitest/config'
import UnitTestsFirst from './test/support/unit-tests-first.js'

/**
 * The self-tests the every-response rules, the redaction and the verdict code are judged by under mutation
 * (stryker.judges.config.mjs): the rule tests of test/each-check.test.ts (IPTS_EACH_CHECK_CONCERNS limits it to them)
 * and the unit tests. Stryker runs them in one thread, one test at a time.
 */
export default defineConfig({
  test: {
    include: ['test/each-check.test.ts', 'test/verdict-units.test.ts', 'test/exchange-rules.test.ts', 'test/redaction.test.ts', 'test/secret-forms.test.ts'],
    env: { IPTS_EACH_CHECK_CONCERNS: 'every-response' },
    // A fresh module graph for every run: the redaction caches the forms of each secret by value, which one graph
    // would carry from the run of one mutant to the next.
    isolate: true,
    sequence: { sequencer: UnitTestsFirst },
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
})
