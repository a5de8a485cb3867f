import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge top-level code under mutation (stryker.static.config.mjs): every test runs for such a
 * mutant in a fresh module graph, so these are the unit tests of the parts it measures, which hold their judged values
 * at their edges (patterns, status ranges, lists and bounds of the rules, the checks' request formats, the traffic
 * adapters, the HTTP client, the redaction, the contract's schemas, the generators, the engine) and the test of the
 * generated docs (the rules' titles), gathered in one file (static.test.ts) so that a mutant costs one import of src/.
 */
export default mutationPart(['mutation/static.test.ts'], { topLevel: true })
