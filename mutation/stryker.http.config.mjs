// @ts-check
import { strykerPart } from './stryker.part.mjs'

/**
 * npm run mutation, HTTP part: the client and what it goes through (src/http but the redaction and its decoded views,
 * a part of their own).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default strykerPart('http', ['src/http/**/*.ts', '!src/http/secrets.ts', '!src/http/decoded-views.ts'])
