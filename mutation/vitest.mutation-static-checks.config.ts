import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge the checks' top-level code under mutation (stryker.static-checks.config.mjs), gathered in
 * one file so that a mutant costs one import of src/.
 */
export default mutationPart(['mutation/static-checks.test.ts'], { topLevel: true })
