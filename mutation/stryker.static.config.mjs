// @ts-check
import checks from './stryker.config.mjs'
import engine from './stryker.engine.config.mjs'
import front from './stryker.front.config.mjs'
import http from './stryker.http.config.mjs'
import judges from './stryker.judges.config.mjs'
import model from './stryker.model.config.mjs'
import secrets from './stryker.secrets.config.mjs'
import traffic from './stryker.traffic.config.mjs'
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
  // Every file the other parts mutate: engine's exclusions before the judges' verdict files, which they bring back.
  ...strykerPart(
    'static',
    [checks, engine, judges, traffic, http, model, front, secrets].flatMap((part) => part.mutate ?? []),
  ),
  ignoreStatic: false,
  plugins: ['@stryker-mutator/*', './mutation/top-level-only.mjs'],
  ignorers: ['top-level-only'],
}
