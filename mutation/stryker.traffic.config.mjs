// @ts-check
import { strykerPart } from './stryker.part.mjs'

/**
 * npm run mutation, traffic part: the adapters that judge recorded and proxied traffic (src/traffic) and the HAR they
 * read and write (src/har).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default strykerPart('traffic', ['src/traffic/**/*.ts', 'src/har/**/*.ts'])
