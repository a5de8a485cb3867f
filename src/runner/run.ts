import { createVitest } from 'vitest/node'
import { suiteTestConfig } from '../../vitest.config.js'
import { CheckCollector } from '../../reporters/collector.js'
import { redactDeep, secretsOf } from '../http/secrets.js'
import type { CheckOutcome, Report } from '../../reporters/report.js'
import type { ProfileSource } from '../profile/load.js'
import type { ReferenceOptions } from '../reference/server.js'
import type { RefRequest, RefResponse } from '../reference/types.js'
import type { GivenSettings } from './defaults.js'
import { reportOfRun } from './run-report.js'
import { openTarget, type Target } from './target.js'

export { TargetUnreachableError } from './target.js'

export interface Waiver {
  check: string
  reason: string
}

export interface RunOptions {
  /** The run's settings; each one left out takes the CLI's default. Without baseUrl the embedded reference server is the target and fills in its keys and fixtures. */
  settings?: GivenSettings
  /** For the embedded reference server: named faults and allowances to switch on, quota and latency. */
  reference?: Pick<ReferenceOptions, 'quota' | 'latencyMs' | 'apiKey' | 'restrictedApiKey' | 'receipts'> & {
    faults?: string[]
    allowances?: string[]
    /** Called with every request the embedded server answers and its response (self-tests and the benchmark count and replay them). */
    record?: (request: RefRequest, response: RefResponse) => void
  }
  /**
   * The deployment profile: a file, or values inline. Undefined: the embedded reference's own profile when the
   * target is embedded, none otherwise. Null: no profile.
   */
  profile?: ProfileSource | null
  /** Run only these check IDs. */
  only?: string[]
  waivers?: Waiver[]
  strict?: boolean
  onCheck?: (outcome: CheckOutcome) => void
  /** Where to write the run's exchanges as HAR 1.2 (every attempt an entry, secrets as placeholders); none when undefined. */
  harPath?: string
}

/** Runs the conformance suite once, through vitest with the settings of vitest.config.ts, and returns the report. Starts and stops the embedded reference server when it is the target. */
export async function runConformance(options: RunOptions = {}): Promise<Report> {
  const target = await openTarget(options)
  try {
    const secrets = secretsOf(target.settings)
    const collector = await runSuites(target, { only: options.only, onCheck: options.onCheck && ((outcome) => options.onCheck!(redactDeep(outcome, secrets))) })
    await target.writeHar()
    return reportOfRun(target, collector, options)
  } finally {
    await target.close()
  }
}

/** Runs the check suites (those under `dir` when given, the suite's own otherwise) through vitest against the target, and returns what they found. */
export async function runSuites(target: Pick<Target, 'settings' | 'shared' | 'exchangeLog'>, options: Pick<RunOptions, 'only' | 'onCheck'> & { dir?: string } = {}): Promise<CheckCollector> {
  const collector = new CheckCollector(options.onCheck)
  const config = suiteTestConfig(target, options.only)
  const vitest = await createVitest('test', { config: false, watch: false, ...config, dir: options.dir ?? config.dir, reporters: [collector] }, { server: { watch: null } })
  try {
    await vitest.start()
  } finally {
    await vitest.close()
  }
  return collector
}
