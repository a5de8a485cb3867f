import { allChecks, unknownCheckId } from '../checks/index.js'
import { UsageError } from '../core/errors.js'
import { runChecks } from '../engine/run-checks.js'
import { writePlan } from '../engine/write-plan.js'
import type { Report } from '../core/report.js'
import type { RunOptions } from './options.js'
import { reportOfRun } from './run-report.js'
import { openTarget } from './target.js'

/**
 * Runs the conformance suite once in this process, through the engine (src/engine/run-checks.ts), and returns the
 * report. Starts and stops the embedded reference server when it is the target.
 */
export async function runConformance(options: RunOptions = {}): Promise<Report> {
  // A misspelt ID would leave every check skipped and the run passing.
  const unknown = unknownCheckId(options.only)
  if (unknown !== undefined) throw new UsageError(`only: ${unknown}`)
  const { minAssessed } = options
  if (minAssessed !== undefined && !(typeof minAssessed === 'number' && minAssessed >= 0 && minAssessed <= 100)) throw new UsageError(`minAssessed must be a percentage from 0 to 100, got ${String(minAssessed)}`)
  const target = await openTarget(options)
  try {
    const plan = writePlan(allChecks, target.settings, options.only)
    if (plan) options.onWritePlan?.(plan)
    const result = await runChecks(target, { only: options.only, onCheck: options.onCheck, retryPolicy: options.retryPolicy, stop: options.signal })
    await target.writeHar()
    return reportOfRun(target, result, options)
  } finally {
    await target.close()
  }
}

export type { RunOptions, Waiver } from './options.js'
