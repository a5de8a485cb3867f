// @ts-check
import { FRONT_FILES } from './stryker.front.config.mjs'
import { staticPart } from './stryker.part.mjs'

/**
 * npm run mutation, front-static part: the top-level code of the front ends (the tables of each command's flags and
 * help, the profile template, the preflight's messages and the errors it names), judged by the tests that read those
 * tables: the unit tests of the flags, the CLI given flags in this process, the preflight, the profile's template and
 * the test of the docs (vitest.mutation-front-static.config.ts). The rest of the front ends is the front part's.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default staticPart('front-static', FRONT_FILES)
