// @ts-check
import engine from './stryker.engine.config.mjs'
import http from './stryker.http.config.mjs'
import judges from './stryker.judges.config.mjs'
import model from './stryker.model.config.mjs'
import secrets from './stryker.secrets.config.mjs'
import traffic from './stryker.traffic.config.mjs'
import { staticPart } from './stryker.part.mjs'

/**
 * npm run mutation, static part: the mutants of top-level code (the tables, patterns, lists and definitions the checks,
 * the rules, the traffic adapters and the model judge with) of every file the other parts mutate with ignoreStatic,
 * but the checks' own files and the front's: the checks' definitions and the front ends' tables are judged only by
 * the tests of the checks and of the surfaces, which the static-checks and front parts run.
 * Every test runs for such a mutant, so these are judged by the unit tests that hold the judged values at their edges
 * (vitest.mutation-static.config.ts). The ignorer top-level-only.mjs keeps these mutants alone; the other
 * parts measure the rest.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default staticPart(
  'static',
  // Every file the other parts mutate: engine's exclusions before the judges' verdict files, which they bring back.
  [engine, judges, traffic, http, model, secrets].flatMap((part) => part.mutate ?? []),
)
