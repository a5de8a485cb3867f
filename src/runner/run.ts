import { allChecks } from '../checks/index.js'
import { runChecks } from '../engine/run-checks.js'
import { writePlan } from '../engine/write-plan.js'
import type { Report } from '../core/report.js'
import type { RunOptions } from './options.js'
import { findingsOfRun } from './run-report.js'
import { RunSession, type Findings } from './session.js'
import { openTarget } from './target.js'

/**
 * Runs the conformance suite once in this process, through the engine (src/engine/run-checks.ts), and returns the
 * report. Starts and stops the embedded reference server when it is the target.
 */
export async function runConformance(options: RunOptions = {}): Promise<Report> {
  return RunSession.judgingOnly(options).report(await runFindings(options))
}

/** What a run found, before the run session judges it: the API's run, and the CLI's, which also publishes it. */
export async function runFindings(options: RunOptions): Promise<Findings> {
  const target = await openTarget(options)
  try {
    const plan = writePlan(allChecks, target.settings, options.only)
    if (plan) options.onWritePlan?.(plan)
    const result = await runChecks(target, {
      only: options.only,
      onCheck: options.onCheck,
      retryPolicy: options.retryPolicy,
      stop: options.signal,
      resampling: {
        durationMs: target.settings.durationMs,
        rate: target.settings.rate,
        onRound: options.onRound,
      },
      signInProcess: options.signInProcess,
    })
    await target.writeHar()
    return findingsOfRun(target, result, options)
  } finally {
    await target.close()
  }
}

export type { RunOptions, Waiver } from './options.js'
