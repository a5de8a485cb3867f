import { join } from 'node:path'
import { readBaseline } from '../../reporters/baseline.js'
import { createProgress } from '../../reporters/progress.js'
import { publishReport, SIGNAL_EXIT_CODES } from '../../reporters/publish.js'
import { checksByConcern } from '../checks/index.js'
import { HAR_FILE } from '../har/write.js'
import { redact, secretsOf } from '../http/secrets.js'
import { runConformance } from '../runner/run.js'
import { writePlanLines } from '../engine/write-plan.js'
import type { CliOptions } from './options.js'

/**
 * `ipts-conformance [run]`: runs the suite, writes the reports, prints the summary; 0 when the verdict is pass, else 1.
 */
export async function run(options: CliOptions, env: NodeJS.ProcessEnv): Promise<number> {
  try {
    return await runAndReport(options, env)
  } catch (error) {
    // The CLI prints an error's message: keys and receipts given to this run must not reach it.
    if (error instanceof Error) error.message = redact(error.message, secretsOf(options.run.settings))
    throw error
  }
}

async function runAndReport(options: CliOptions, env: NodeJS.ProcessEnv): Promise<number> {
  const baseline = options.baseline
    ? { path: options.baseline, report: await readBaseline(options.baseline) }
    : undefined
  const progress = createProgress(
    process.stdout,
    env,
    Object.fromEntries(Object.entries(checksByConcern).map(([concern, checks]) => [concern, checks.length])),
  )
  const harPath = join(options.reportDir, HAR_FILE)
  let report
  const stop = stopOnSignals()
  try {
    try {
      report = await runConformance({
        ...options.run,
        onCheck: progress.onCheck,
        onWritePlan: (plan) => process.stdout.write(`${writePlanLines(plan).join('\n')}\n`),
        harPath,
        signal: stop.signal,
      })
    } finally {
      progress.end()
    }
    return await publishReport(report, { reportDir: options.reportDir, baseline, env, stdout: process.stdout, harPath })
  } finally {
    stop.release()
  }
}

/**
 * SIGINT and SIGTERM (Ctrl-C, a CI cancel) interrupt the run: the signal aborts, with the signal's name as its reason,
 * and the run ends within seconds with its reports marked interrupted. A second signal ends the process at once.
 */
function stopOnSignals(): { signal: AbortSignal; release(): void } {
  const stop = new AbortController()
  const onSignal = (name: keyof typeof SIGNAL_EXIT_CODES) => {
    if (stop.signal.aborted) process.exit(SIGNAL_EXIT_CODES[name])
    process.stderr.write(
      `ipts-conformance: ${name}: stopping; writing the reports of what ran (send it again to quit at once)\n`,
    )
    stop.abort(name)
  }
  const onInt = () => onSignal('SIGINT')
  const onTerm = () => onSignal('SIGTERM')
  process.on('SIGINT', onInt).on('SIGTERM', onTerm)
  return { signal: stop.signal, release: () => process.off('SIGINT', onInt).off('SIGTERM', onTerm) }
}
