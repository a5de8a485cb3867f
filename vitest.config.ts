import { join } from 'node:path'
import { defineConfig } from 'vitest/config'
import type { InlineConfig, VitestPluginContext } from 'vitest/node'
import { readBaseline } from './reporters/baseline.js'
import { ReportFiles } from './reporters/report-files.js'
import { allChecks } from './src/checks/index.js'
import { parseCli } from './src/cli/options.js'
import { HAR_FILE } from './src/har/write.js'
import { packageRoot } from './src/package-root.js'
import { openTarget, type Target } from './src/runner/target.js'

/**
 * The conformance suite's vitest settings, in one place: `npx vitest run` uses this file as its config, and the CLI and
 * the API (src/runner/run.ts) import suiteTestConfig from it. The project's own tests use vitest.selftest.config.ts.
 */

/**
 * Concern files run in parallel workers, so that one file's long sequential check (a property's inputs go one after
 * another) does not hold the others back; the workers' clients share one concurrency bound and one quota gate.
 * Measured with 120 ms latency and 343 requests (README, Benchmark): 1 worker 9.9 s, 2 workers 7.0 s, 3 7.2 s, 4 8.5 s.
 */
const SUITE_WORKERS = 2

/** suites/ beside this file, or dist/suites/ once compiled (the installed package). */
const suitesDir = join(packageRoot, import.meta.url.endsWith('.ts') ? 'suites' : 'dist/suites')

/** The vitest settings of a run of the suite against this target, optionally only some checks. */
export function suiteTestConfig(target: Pick<Target, 'settings' | 'shared' | 'exchangeLog'>, only?: readonly string[]): InlineConfig {
  const { settings } = target
  return {
    root: packageRoot,
    dir: suitesDir,
    include: ['**/*.test.{ts,js}'],
    exclude: [],
    pool: 'threads',
    maxWorkers: SUITE_WORKERS,
    isolate: false,
    testTimeout: settings.requestTimeoutMs * 20 + 60_000,
    maxConcurrency: settings.concurrency,
    testNamePattern: only ? titlePattern(only) : undefined,
    passWithNoTests: true,
    provide: { ipts: settings, iptsShared: target.shared, iptsExchangeLog: target.exchangeLog },
  }
}

function titlePattern(ids: readonly string[]): RegExp {
  const titles = allChecks.filter((check) => ids.includes(check.id)).map((check) => check.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^.*(?:${titles.join('|') || '(?!)'})$`)
}

/**
 * `npx vitest run`: the target and settings come from the IPTS_* environment variables (the CLI's flags, README),
 * the embedded reference server when IPTS_BASE_URL is unset; the reports and exchanges.har go to IPTS_REPORT_DIR (./conformance-report).
 */
export default defineConfig(async () => {
  const { run, reportDir, baseline } = parseCli([], process.env)
  const baselineReport = baseline ? { path: baseline, report: await readBaseline(baseline) } : undefined
  const runOptions = { ...run, harPath: join(reportDir, HAR_FILE) }
  const target = await openTarget(runOptions)
  const reportFiles = new ReportFiles(target, runOptions, { reportDir, baseline: baselineReport, env: process.env, stdout: process.stdout })
  return {
    plugins: [
      {
        name: 'ipts-conformance',
        // Added here rather than in test.reporters, so that a --reporter flag adds vitest's reporters without dropping the report files.
        configureVitest({ vitest }: VitestPluginContext) {
          vitest.config.reporters.push(reportFiles)
          vitest.onClose(() => target.close())
        },
      },
    ],
    test: suiteTestConfig(target, run.only),
  }
})
