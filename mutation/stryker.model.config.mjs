// @ts-check
import { strykerPart } from './stryker.part.mjs'

/**
 * npm run mutation, model part: the model and the generators (src/core, src/contract, src/profile, src/generators).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default strykerPart('model', [
  'src/core/**/*.ts',
  'src/contract/**/*.ts',
  'src/profile/**/*.ts',
  'src/generators/**/*.ts',
])
