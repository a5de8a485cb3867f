import { join } from 'node:path'
import { defineConfig } from 'vitest/config'
import type { VitestPluginContext } from 'vitest/node'
import { parseCli } from './src/cli/options.js'
import { allChecks } from './src/checks/index.js'
import { isUserFixable } from './src/core/errors.js'
import { writePlan, writePlanLines } from './src/engine/write-plan.js'
import { HAR_FILE } from './src/har/write.js'
import { secretsOf } from './src/http/secrets.js'
import { RunSession, withSecretsRedacted } from './src/runner/session.js'
import { openTarget } from './src/runner/target.js'
import { suiteTestConfig } from './src/vitest/config.js'
import { ReportFiles } from './src/vitest/report-files.js'

/**
 * `npx vitest run`: the target and settings come from the IPTS_* environment variables (the CLI's flags, README),
 * the embedded reference server when IPTS_BASE_URL is unset; the reports and exchanges.har go to IPTS_REPORT_DIR
 * (./conformance-report). Each test runs the engine's runCheck, as the CLI and the API do. Writes are sent only with
 * IPTS_ALLOW_WRITES=1 and a profile that states them (IPTS_PROFILE, or the embedded reference's own).
 */
export default defineConfig(async () => {
  const { run, reportDir, session, target } = await openFromEnvironment()
  const runOptions = { ...run, harPath: join(reportDir, HAR_FILE) }
  const reportFiles = new ReportFiles(target, runOptions, session)
  return {
    plugins: [
      {
        name: 'ipts-conformance',
        // Added here rather than in test.reporters, so that a --reporter flag adds vitest's reporters without dropping
        // the report files.
        configureVitest({ vitest }: VitestPluginContext) {
          vitest.config.reporters.push(reportFiles)
          vitest.onClose(() => target.close())
        },
      },
    ],
    test: suiteTestConfig(target, run.only),
  }
})

/**
 * The run's settings from the IPTS_* variables, and its target opened. A mistake the user can fix (a bad value, an
 * unreachable target) is one line on stderr and exit 2, as with the CLI, not vitest's "failed to load config" trace.
 */
async function openFromEnvironment() {
  try {
    // No command line here: writes need this variable, said explicitly (as --allow-writes would be), and a profile that
    // states them.
    const { run, reportDir, baseline, notices } = parseCli(
      process.env.IPTS_ALLOW_WRITES === '1' ? ['--allow-writes'] : [],
      process.env,
    )
    for (const notice of notices) process.stderr.write(`ipts-conformance: ${notice}\n`)
    return await withSecretsRedacted(
      () => secretsOf(run.settings),
      async () => {
        const session = await RunSession.open(run, { reportDir, baseline, env: process.env, stdout: process.stdout })
        const target = await openTarget({ ...run, harPath: join(reportDir, HAR_FILE) })
        const plan = writePlan(allChecks, target.settings, run.only)
        if (plan) process.stdout.write(`${writePlanLines(plan).join('\n')}\n`)
        return { run, reportDir, session, target }
      },
    )
  } catch (error) {
    if (!isUserFixable(error)) throw error
    for (const line of error.message.split('\n')) process.stderr.write(`ipts-conformance: ${line}\n`)
    process.exit(2)
  }
}
