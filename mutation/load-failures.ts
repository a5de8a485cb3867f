import type { RunnerTestCase, RunnerTestFile } from 'vitest'
import type { Reporter, Vitest } from 'vitest/node'

/**
 * A vitest reporter for the runs of StrykerJS: a test file that failed to load (a mutant of a module's top-level code
 * that makes it throw on import) gets one failed test carrying the load error. StrykerJS's vitest runner builds a
 * mutant's result from the tests it collected, and such a file collects none, so the mutant counted as survived
 * (stryker-js#6150, open in 9.6.1 and 10.0.0). A file that loaded is left as it is.
 */
export class LoadFailuresAsFailedTests implements Reporter {
  private vitest: Vitest | undefined

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  onTestRunEnd(): void {
    for (const file of this.vitest?.state.getFiles() ?? []) failLoad(file)
  }
}

/** A file with a load error and no task gets a failed test carrying that error. */
function failLoad(file: RunnerTestFile): void {
  if (file.result?.state !== 'fail' || file.tasks.length > 0) return
  // A test's context is vitest's to make while a test runs; nothing reads it once the run has ended.
  const failed: Omit<RunnerTestCase, 'context'> = {
    type: 'test',
    id: `${file.id}_load`,
    name: 'the file loads',
    fullName: `${file.name} > the file loads`,
    fullTestName: 'the file loads',
    mode: 'run',
    meta: {},
    file,
    suite: file,
    timeout: 0,
    annotations: [],
    artifacts: [],
    result: { state: 'fail', errors: file.result.errors ?? [] },
  }
  file.tasks.push(failed as RunnerTestCase)
}
