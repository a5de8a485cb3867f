import { join } from 'node:path'
import { createProgress, soakProgressLine } from '../../reporters/progress.js'
import { checksByConcern } from '../checks/index.js'
import { HAR_FILE } from '../har/write.js'
import { secretsOf } from '../http/secrets.js'
import { runFindings } from '../runner/run.js'
import { RunSession, withSecretsRedacted } from '../runner/session.js'
import { writePlanLines } from '../engine/write-plan.js'
import type { CliOptions } from './options.js'

/**
 * `ipts-conformance [run]`: runs the suite, writes the reports, prints the summary; 0 when the verdict is pass, else 1.
 * SIGINT and SIGTERM stop the run within seconds, and the reports of what ran are written marked interrupted.
 */
export async function run(options: CliOptions, env: NodeJS.ProcessEnv): Promise<number> {
  return withSecretsRedacted(
    () => secretsOf(options.run.settings),
    async () => {
      const session = await RunSession.open(options.run, {
        reportDir: options.reportDir,
        baseline: options.baseline,
        env,
        stdout: process.stdout,
      })
      const progress = createProgress(
        process.stdout,
        env,
        Object.fromEntries(Object.entries(checksByConcern).map(([concern, checks]) => [concern, checks.length])),
      )
      const harPath = join(options.reportDir, HAR_FILE)
      const stop = session.stopOnSignals()
      try {
        let findings
        try {
          findings = await runFindings({
            ...options.run,
            onCheck: progress.onCheck,
            onRound: (round) => {
              if (round.durationMs !== undefined) process.stdout.write(`${soakProgressLine(round)}\n`)
            },
            onWritePlan: (plan) => process.stdout.write(`${writePlanLines(plan).join('\n')}\n`),
            harPath,
            signal: stop.signal,
          })
        } finally {
          progress.end()
        }
        return await session.publish(session.report(findings), { path: harPath })
      } finally {
        stop.release()
      }
    },
  )
}
