// @ts-check
import checks from './stryker.config.mjs'
import { staticPart } from './stryker.part.mjs'

/**
 * npm run mutation, the checks' top-level code: their definitions (IDs, requirements, what each needs, the tables and
 * helpers each judges with) in the files of the checks part (stryker.config.mjs), which measures the rest with
 * ignoreStatic. Every test runs for such a mutant, so these are judged by the tests of the checks on answers scripted
 * by hand and the catalogue's, gathered in one file (static-checks.test.ts), not by each check's whole runs.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default staticPart('static-checks', checks.mutate ?? [])
