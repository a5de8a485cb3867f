import type { CheckOutcome } from '../core/report.js'
import type { RoundProgress } from '../engine/resample.js'
import type { WritePlan } from '../engine/write-plan.js'
import type { GivenSettings } from '../core/defaults.js'
import type { ProfileSource } from '../profile/load.js'
import type { ReferenceOptions } from '../reference/server.js'
import type { Behaviour, RefRequest, RefResponse } from '../reference/types.js'
import type { RetryPolicy } from '../http/retry.js'
import type { SignInProcess } from '../generators/signed-bodies.js'
import type { CheckId } from '../contract/catalogue-ids.js'
import type { AllowanceName } from '../reference/allowance-names.js'
import type { FaultName } from '../reference/fault-names.js'

export interface Waiver {
  check: CheckId
  reason: string
}

export interface RunOptions {
  /**
   * The run's settings; each one left out takes the CLI's default. Without baseUrl the embedded reference server is the
   * target and fills in its keys and fixtures.
   */
  settings?: GivenSettings
  /** For the embedded reference server: named faults and allowances to switch on, quota and latency. */
  reference?: Pick<ReferenceOptions, 'quota' | 'latencyMs' | 'apiKey' | 'restrictedApiKey' | 'receipts'> & {
    faults?: FaultName[]
    allowances?: AllowanceName[]
    /**
     * Behaviours of the caller's own, after the named ones: self-tests script the embedded server's answers with them.
     */
    behaviours?: readonly Behaviour[]
    /**
     * Called with every request the embedded server answers and its response (self-tests and the benchmark count and
     * replay them).
     */
    record?: (request: RefRequest, response: RefResponse) => void
  }
  /**
   * The deployment profile: a file, or values inline. Undefined: the embedded reference's own profile when the
   * target is embedded, none otherwise. Null: no profile.
   */
  profile?: ProfileSource | null
  /** Run only these check IDs. */
  only?: CheckId[]
  waivers?: Waiver[]
  strict?: boolean
  /**
   * A share of the observable requirements, in percent (0 to 100), that the run must assess: below it the verdict is
   * fail (exit 1), however the checks ended. Undefined: no minimum, the verdict is the checks' alone.
   */
  minAssessed?: number
  onCheck?: (outcome: CheckOutcome) => void
  /** Called after each round of the reads after the checks (the last sweep, a soak's rounds): progress. */
  onRound?: (progress: RoundProgress) => void
  /**
   * Called before the first write of a run that may write (settings.allowWrites and a profile with writes), with what
   * it may send.
   */
  onWritePlan?: (plan: WritePlan) => void
  /**
   * Where to write the run's exchanges as HAR 1.2 (every attempt an entry, secrets as placeholders); none when
   * undefined.
   */
  harPath?: string
  /**
   * Aborting it interrupts the run: no request is sent after it, those in flight are cut off, the checks not ended are
   * 'not run' (interrupted), and the run resolves with a report marked `interrupted`, not a rejection. An abort reason
   * of 'SIGINT' or 'SIGTERM' is named as that signal (the CLI's); any other as the caller's abort.
   */
  signal?: AbortSignal
  /**
   * How safe reads are retried after a 429 or a 5xx (the 5xx policy, docs/checks.md); the polite default unless given
   * (a self-test shortens the backoff of the 5xx it scripts).
   */
  retryPolicy?: RetryPolicy
  /**
   * Signs in this process for the profile's signing commands it knows, returning the body the command would print;
   * undefined runs the command as a process, as without it.
   */
  signInProcess?: SignInProcess
}

/**
 * The embedded reference's faults and allowances a run switches on, as the report names them: `fault NAME`, `allowance
 * NAME`.
 */
export function switchedOnBehaviours(options: Pick<RunOptions, 'reference'>): string[] {
  return [
    ...(options.reference?.faults ?? []).map((name) => `fault ${name}`),
    ...(options.reference?.allowances ?? []).map((name) => `allowance ${name}`),
  ]
}

/** The same as flags of the CLI and the `reference` subcommand: `--fault NAME`, `--allowance NAME`. */
export function behaviourFlags(options: Pick<RunOptions, 'reference'>): string[] {
  return switchedOnBehaviours(options).map((named) => `--${named}`)
}
