import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge top-level code under mutation (stryker.static.config.mjs): every test runs for such a
 * mutant, each test file in a fresh module graph, so these are the fast ones: the unit tests (but the vitest
 * adapter's, which starts vitest) and the tests of the catalogue. Not the tests of the checks on scripted answers, the
 * runs or the surfaces: with them, the first run of the tests took over five minutes on two shared cores.
 */
export default mutationPart(
  ['test/unit/*.test.ts', 'test/meta/catalogue-types.test.ts'],
  {
    exclude: ['test/unit/harness.test.ts'],
    topLevel: true,
  },
)
