import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge the model and the generators under mutation (src/core, src/contract, src/profile,
 * src/generators; stryker.model.config.mjs): the unit tests of the generators, schemas, violation rules and chained
 * steps, the report's lines, the loading of a profile and the judgement of its published description, the small
 * pieces of src/core, the profile checks' tests and the tests of the catalogue.
 */
export default mutationPart([
  'test/unit/generators.test.ts',
  'test/unit/signed-bodies.test.ts',
  'test/unit/generator-edges.test.ts',
  'test/unit/near-miss-edges.test.ts',
  'test/unit/generator-branch-edges.test.ts',
  'test/unit/schema-pattern-edges.test.ts',
  'test/unit/path-segments.test.ts',
  'test/unit/exchange-rules.test.ts',
  'test/unit/violation-rules.test.ts',
  'test/unit/chained-step.test.ts',
  'test/unit/verdict-units.test.ts',
  'test/unit/baseline.test.ts',
  'test/unit/report-lines.test.ts',
  'test/unit/round-timeline.test.ts',
  'test/unit/profile-load.test.ts',
  'test/unit/published-description-judgement.test.ts',
  'test/unit/realtime-profile.test.ts',
  'test/unit/realtime-section-edges.test.ts',
  'test/unit/core-pieces.test.ts',
  'test/unit/contract-model.test.ts',
  'test/unit/judged-edges.test.ts',
  'test/unit/coverage-case-lists.test.ts',
  'test/checks/profile.test.ts',
  'test/meta/catalogue-types.test.ts',
  'test/meta/quotes.test.ts',
])
