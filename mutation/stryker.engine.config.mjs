// @ts-check
import { strykerPart } from './stryker.part.mjs'

/**
 * npm run mutation, engine part: the engine but the verdict code, which the judges part measures with the rules.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default strykerPart('engine', [
  'src/engine/**/*.ts',
  ...['run-check', 'judged-outcomes', 'summarize'].map((file) => `!src/engine/${file}.ts`),
])
