import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge the checks' top-level code under mutation (stryker.checks-static.config.mjs): every test
 * runs for such a mutant, so these are the fast ones: the tests of each concern's checks on answers scripted by hand,
 * the rule and verdict unit tests and the tests of the catalogue; not the runs of each check (each-check.test.ts).
 */
export default mutationPart([
  'test/unit/exchange-rules.test.ts',
  'test/unit/violation-rules.test.ts',
  'test/unit/property-runner.test.ts',
  'test/unit/verdict-units.test.ts',
  'test/meta/catalogue.test.ts',
  'test/meta/catalogue-types.test.ts',
  'test/checks/auth.test.ts',
  'test/checks/config.test.ts',
  'test/checks/cursors.test.ts',
  'test/checks/errors.test.ts',
  'test/checks/headers.test.ts',
  'test/checks/intents.test.ts',
  'test/checks/limits.test.ts',
  'test/checks/profile.test.ts',
  'test/checks/properties.test.ts',
  'test/checks/request-ids.test.ts',
  'test/checks/shapes.test.ts',
  'test/checks/shared.test.ts',
  'test/checks/verdicts.test.ts',
  'test/checks/writes.test.ts',
  'test/checks/check-inputs.test.ts',
])
