import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The order of the test files under mutation (mutation/vitest.mutation*.config.ts): the fast unit tests before the
 * runs of the checks against the reference. Stryker stops a mutant at its first failing test, so a mutant that a unit
 * test kills is then killed in milliseconds instead of after every run of a check that reaches it.
 */
export default class UnitTestsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // The unit tests, those of bounds (the longest, on large texts) last; then the tests on scripted answers and the
    // surfaces, those that open a browser last; then each check's runs.
    const rank = (file: TestSpecification) => {
      if (file.moduleId.endsWith('each-check.test.ts')) return 4
      if (file.moduleId.endsWith('-browser.test.ts')) return 3
      if (!file.moduleId.includes('/test/unit/')) return 2
      return file.moduleId.endsWith('-bounds.test.ts') ? 1 : 0
    }
    return [...files].sort((a, b) => rank(a) - rank(b) || a.moduleId.localeCompare(b.moduleId))
  }
}
