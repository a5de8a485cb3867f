// @ts-check
import checks from './stryker.config.mjs'
import { strykerPart } from './stryker.part.mjs'

/**
 * npm run mutation, static part: the mutants of top-level code (the tables, patterns, lists and definitions the checks,
 * the rules, the traffic adapters and the model judge with) of every file the other parts mutate with ignoreStatic.
 * Every test runs for such a mutant, so these are judged by the unit tests that hold the judged values at their edges
 * (vitest.mutation-static.config.ts). The ignorer top-level-only.mjs keeps these mutants alone; the other
 * parts measure the rest.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  ...strykerPart('static', [
    ...(checks.mutate ?? []),
    ...['every-response', 'profile-rules', 'exchange-judge', 'needs', 'types', 'index'].map(
      (f) => `src/checks/${f}.ts`,
    ),
    'src/engine/**/*.ts',
    'src/traffic/**/*.ts',
    'src/har/**/*.ts',
    'src/http/**/*.ts',
    '!src/http/secrets.ts',
    'src/core/**/*.ts',
    'src/contract/**/*.ts',
    'src/profile/**/*.ts',
    'src/generators/**/*.ts',
    'src/cli/**/*.ts',
    'src/runner/**/*.ts',
    'src/vitest/**/*.ts',
    'src/docs/**/*.ts',
    'src/index.ts',
    'reporters/**/*.ts',
  ]),
  ignoreStatic: false,
  plugins: ['@stryker-mutator/*', './mutation/top-level-only.mjs'],
  ignorers: ['top-level-only'],
}
