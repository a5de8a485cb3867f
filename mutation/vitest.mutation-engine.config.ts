import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge the engine under mutation, but the verdict code (stryker.engine.config.mjs): the unit tests
 * of the verdict, relations and rounds, the shared-read and verdict tests of the checks, then the runs of coverage and
 * server errors.
 */
export default mutationPart([
  'test/unit/verdict-units.test.ts',
  'test/unit/relation-edges.test.ts',
  'test/unit/relation-memory.test.ts',
  'test/unit/round-timeline.test.ts',
  'test/unit/path-segments.test.ts',
  'test/unit/listed-material.test.ts',
  'test/unit/harness.test.ts',
  'test/checks/verdicts.test.ts',
  'test/checks/shared.test.ts',
  'test/runs/coverage.test.ts',
  'test/runs/server-errors.test.ts',
])
