import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { startVitest, type Reporter } from 'vitest/node'
import { LoadFailuresAsFailedTests } from '../../mutation/load-failures.js'

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'unloadable')

/** What StrykerJS's vitest runner collects of a run: the tests of each file, with their states. */
async function collectedTests(reporters: LoadFailuresAsFailedTests[]) {
  // vitest sets the exit code of the process it runs in when a file fails: this process's is put back after.
  const exitCode = process.exitCode
  const vitest = await startVitest('test', [], {
    root: FIXTURES,
    config: false,
    include: ['*.test.ts'],
    watch: false,
    // A reporter of no hooks: the run prints nothing.
    reporters: [{} satisfies Reporter, ...reporters],
    pool: 'threads',
    maxWorkers: 1,
  })
  try {
    return vitest.state
      .getFiles()
      .map((file) => ({ file: file.name, tests: file.tasks.map((task) => [task.name, task.result?.state]) }))
      .sort((a, b) => a.file.localeCompare(b.file))
  } finally {
    await vitest.close()
    process.exitCode = exitCode
  }
}

describe('a test file that fails to load, under mutation', () => {
  test('collects no test in vitest alone (so StrykerJS would count the mutant survived), and one failed test with the reporter', async () => {
    expect(await collectedTests([])).toEqual([
      { file: 'loads.test.ts', tests: [['loads and passes', 'pass']] },
      { file: 'unloadable.test.ts', tests: [] },
    ])
    expect(await collectedTests([new LoadFailuresAsFailedTests()])).toEqual([
      { file: 'loads.test.ts', tests: [['loads and passes', 'pass']] },
      { file: 'unloadable.test.ts', tests: [['the file loads', 'fail']] },
    ])
  })
})
