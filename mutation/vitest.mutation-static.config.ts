import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge top-level code under mutation (stryker.static.config.mjs): every test runs for such a
 * mutant, so these are the fast ones: the unit tests (but the vitest adapter's, which starts vitest), the tests of each
 * concern's checks on answers scripted by hand and the tests of the catalogue; not the runs of each check
 * (each-check.test.ts) nor the surfaces.
 */
export default mutationPart(
  ['test/unit/*.test.ts', 'test/checks/*.test.ts', 'test/meta/catalogue.test.ts', 'test/meta/catalogue-types.test.ts'],
  { exclude: ['test/unit/harness.test.ts', 'test/checks/each-check.test.ts'], topLevel: true },
)
