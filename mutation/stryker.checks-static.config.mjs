// @ts-check
import { strykerPart } from './stryker.part.mjs'

/**
 * npm run mutation, static part of the checks: the mutants of the checks' top-level code (their tables, patterns, lists
 * and definitions, with the every-response rules and the verdict code), which the checks and judges parts leave out
 * (ignoreStatic): every test runs for such a mutant, so they are judged by the fast tests of the checks
 * (vitest.mutation-checks-static.config.ts) and not by each check's runs. The ignorer top-level-only.mjs keeps these
 * mutants alone.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  ...strykerPart('checks-static', [
    'src/checks/**/*.ts',
    ...['run-check', 'judged-outcomes', 'summarize'].map((file) => `src/engine/${file}.ts`),
  ]),
  plugins: ['@stryker-mutator/*', './mutation/top-level-only.mjs'],
  ignorers: ['top-level-only'],
}
