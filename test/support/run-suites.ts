import { createVitest } from 'vitest/node'
import { CheckCollector } from '../../src/vitest/collector.js'
import { suiteTestConfig, type SuiteTarget } from '../../src/vitest/config.js'

/**
 * Runs the suite files under `dir` through vitest, as `npx vitest run` does, and returns what the collector gathered.
 */
export async function runSuitesThroughVitest(target: SuiteTarget, dir: string): Promise<CheckCollector> {
  const collector = new CheckCollector()
  const config = suiteTestConfig(target)
  const vitest = await createVitest(
    'test',
    { config: false, watch: false, ...config, dir, reporters: [collector] },
    { server: { watch: null } },
  )
  try {
    await vitest.start()
  } finally {
    await vitest.close()
  }
  return collector
}
