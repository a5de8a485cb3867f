import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The order of the test files under mutation (mutation/vitest.mutation*.config.ts): the fast unit tests before the
 * runs of the checks against the reference. Stryker stops a mutant at its first failing test, so a mutant that a unit
 * test kills is then killed in milliseconds instead of after every run of a check that reaches it.
 */
export default class UnitTestsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const runsChecks = (file: TestSpecification) => (file.moduleId.endsWith('each-check.test.ts') ? 1 : 0)
    return [...files].sort((a, b) => runsChecks(a) - runsChecks(b) || a.moduleId.localeCompare(b.moduleId))
  }
}
