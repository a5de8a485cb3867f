// @ts-check
import checks from './stryker.config.mjs'

/**
 * npm run mutation, third part: the redaction of secrets (src/http/secrets.ts) and the decoded views it reads a text
 * through (src/http/decoded-views.ts), judged by their unit tests (vitest.mutation-secrets.config.ts). Every check's
 * run redacts what it reports, so the runs of the other parts would cover each of its mutants; they are judged by the
 * tests of redaction alone.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  ...checks,
  vitest: { configFile: 'mutation/vitest.mutation-secrets.config.ts', related: false },
  mutate: ['src/http/secrets.ts', 'src/http/decoded-views.ts'],
  // Its patterns and tables are the static part's: each such mutant runs every test, 40 s instrumented here.
  ignoreStatic: true,
  incrementalFile: 'reports/mutation/secrets-incremental.json',
  tempDirName: '.stryker-tmp-secrets',
  htmlReporter: { fileName: 'reports/mutation/secrets.html' },
  jsonReporter: { fileName: 'reports/mutation/secrets.json' },
}
