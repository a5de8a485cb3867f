import { defineConfig } from 'vitest/config'
import { LoadFailuresAsFailedTests } from './load-failures.js'
import UnitTestsFirst from '../test/support/unit-tests-first.js'

/**
 * The self-tests the redaction of secrets is judged by under mutation (stryker.secrets.config.mjs): its unit tests,
 * each a text and the secrets it holds. Every run of a check redacts, so the runs would cover each mutant of it too,
 * and a mutant they let through would cost every run; the unit tests are what proves each branch. Stryker runs them in
 * one thread, one test at a time.
 */
export default defineConfig({
  test: {
    // A test file that fails to load under a mutant is a failed test, not an absent one (see load-failures.ts).
    reporters: ['default', new LoadFailuresAsFailedTests()],
    include: [
      'test/unit/redaction.test.ts',
      'test/unit/secret-forms.test.ts',
      'test/unit/redaction-edges.test.ts',
      'test/unit/decoded-views-edges.test.ts',
      'test/unit/decoded-views-decoders.test.ts',
      'test/unit/redaction-bounds.test.ts',
    ],
    // Its tests of bounds last: a mutant the short tests kill is stopped before them.
    sequence: { sequencer: UnitTestsFirst },
    // A fresh module graph for every run: redaction remembers short texts with their redaction, and the detectors of
    // lists of secrets, which one graph would carry from the run of one mutant to the next.
    isolate: true,
    testTimeout: 60_000,
  },
})
