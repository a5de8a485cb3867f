import { mergeConfig } from 'vitest/config'
import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge the report writers under mutation (reporters/; stryker.reports.config.mjs): their unit
 * tests and the tests that render, write, compare and open in Chromium the reports of whole runs. Those runs are made
 * once, before the mutants (reference-reports.ts): a mutant of a writer cannot change them.
 */
export default mergeConfig(
  mutationPart(
    [
      'test/unit/report-escaping.test.ts',
      'test/unit/lifecycle-render.test.ts',
      'test/unit/baseline.test.ts',
      'test/unit/progress-lines.test.ts',
      'test/unit/compare-render.test.ts',
      'test/unit/compare-reports.test.ts',
      'test/unit/evidence-text.test.ts',
      'test/unit/html-timeline.test.ts',
      'test/unit/json-body.test.ts',
      'test/surfaces/report-formats.test.ts',
      'test/surfaces/compare.test.ts',
      'test/surfaces/report-browser.test.ts',
    ],
    // Its top-level code is measured here too: a fresh module graph for each test file.
    { topLevel: true },
  ),
  { test: { globalSetup: ['mutation/reference-reports.ts'] } },
)
