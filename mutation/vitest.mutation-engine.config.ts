import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge the engine under mutation, but the verdict code (stryker.engine.config.mjs): the unit
 * tests of the verdict, relations, rounds, path segments and listed material, the read set and the rounds that read it
 * again (on a deployment made by hand), the shared reads, the 5xx policy and the responses seen, requirements,
 * coverage, evidence and redaction, and the shared-read and verdict tests of the checks on answers scripted by hand.
 * Not the runs (test/runs/): each mutant of the context is reached by each run.
 */
export default mutationPart([
  'test/unit/verdict-units.test.ts',
  'test/unit/relation-edges.test.ts',
  'test/unit/relation-memory.test.ts',
  'test/unit/round-timeline.test.ts',
  'test/unit/path-segments.test.ts',
  'test/unit/listed-material.test.ts',
  'test/checks/verdicts.test.ts',
  'test/checks/shared.test.ts',
  'test/unit/requirement-trace.test.ts',
  'test/unit/requirement-coverage.test.ts',
  'test/unit/evidence-parts.test.ts',
  'test/unit/redaction.test.ts',
  'test/unit/read-set.test.ts',
  'test/unit/resample.test.ts',
  'test/unit/shared-reads.test.ts',
  'test/unit/responses-seen.test.ts',
  'test/unit/run-checks-helpers.test.ts',
  'test/unit/check-context-calls.test.ts',
  'test/unit/observe-exchanges.test.ts',
  'test/unit/write-plan.test.ts',
  'test/unit/relation-tally.test.ts',
  'test/unit/judges-list.test.ts',
  'test/unit/run-checks-served.test.ts',
])
