import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge the writers of the generated docs under mutation (src/docs/; stryker.docs.config.mjs):
 * their unit tests on texts made by hand, and the tests of the docs and of the catalogue, which hold what the writers
 * make to the committed files.
 */
export default mutationPart(
  ['test/unit/docs-writers.test.ts', 'test/meta/docs.test.ts', 'test/meta/catalogue.test.ts'],
  { topLevel: true },
)
