import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge top-level code under mutation (stryker.static.config.mjs): every test runs for such a
 * mutant, each test file in a fresh module graph, so these are the unit tests that hold the judged values at their
 * edges (patterns, status ranges, lists and bounds of the rules, the checks' request formats, the traffic adapters,
 * the contract's schemas and the generators). With every unit test, a mutant took a minute on two shared cores.
 */
export default mutationPart(
  [
    'test/unit/judged-edges.test.ts',
    'test/unit/exchange-rules.test.ts',
    'test/unit/violation-rules.test.ts',
    'test/unit/verdict-units.test.ts',
    'test/unit/relation-edges.test.ts',
    'test/unit/generators.test.ts',
    'test/unit/near-miss-edges.test.ts',
    'test/unit/path-segments.test.ts',
    'test/unit/chained-step.test.ts',
    'test/unit/http-edges.test.ts',
    'test/unit/learned-secret-edges.test.ts',
    'test/unit/redaction.test.ts',
    'test/unit/secret-forms.test.ts',
    'test/unit/write-key-edges.test.ts',
    'test/unit/har-reading.test.ts',
    'test/unit/har-spool.test.ts',
    'test/meta/catalogue-types.test.ts',
  ],
  { topLevel: true },
)
