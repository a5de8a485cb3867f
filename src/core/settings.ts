import type { Profile } from '../profile/profile.js'

/** Everything a run needs, as it crosses from the CLI to the suites (vitest provide/inject): plain data only. */
export interface RunSettings {
  baseUrl: string
  /** True when the target is the embedded reference server (its address then changes with every run). */
  embedded: boolean
  apiKey?: string
  restrictedApiKey?: string
  trader?: string
  /** Another trader with balances, to send a balances cursor for a trader it was not issued for. */
  secondTrader?: string
  intent?: IntentInput
  secondIntent?: IntentInput
  seed: number
  runs: number
  concurrency: number
  cursorParam: string
  limitParam: string
  /** A list walk that has not reached its last page after this many pages is reported skipped, not judged. */
  maxPages: number
  connectTimeoutMs: number
  requestTimeoutMs: number
  maxBodyBytes: number
  /** fast-check replay path of one failing input, with seed and a single --check. */
  replayPath?: string
  /** Opt-in: provoke a 429 on purpose to check the quota headers. */
  probeRateLimit: boolean
  /** Opt-in (--allow-writes, never the environment alone): send the profile's relayed writes, which create orders. */
  allowWrites?: boolean
  /**
   * Opt-in (--raw-record): what the run shares keeps response headers and body members as received, redacted by
   * detection alone, rather than by allowlist (src/http/listed-material.ts); the files may then hold secrets.
   */
  rawRecord?: boolean
  /** Bound on the submissions a run may send; a write check that would pass it is skipped with that reason. */
  maxWrites?: number
  /** Bound on the whole run: after it, requests are not sent and fail with that reason, so the run finishes. */
  maxDurationMs?: number
  /**
   * --duration: after its checks the run reads its read set again in rounds for this long (a soak); without it, once
   * (the last sweep). maxDurationMs bounds the checks, and the run's bound grows by this.
   */
  durationMs?: number
  /** --rate: the soak's requests per second at most. */
  rate?: number
  /** Epoch ms at which maxDurationMs runs out; set by the runner when the run starts. */
  deadlineAt?: number
  /**
   * Flags beyond the target's that shaped the run (the embedded reference's faults and allowances, parameter names),
   * for a replay command to carry.
   */
  shapingFlags?: string[]
  /**
   * The deployment profile, loaded: facts the contract leaves "not shown", each assessed by checks of its requirement.
   */
  profile?: Profile
}

export interface IntentInput {
  hash: string
  receipt: string
}
