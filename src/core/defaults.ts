import type { RunSettings } from './settings.js'

/** What a caller of a run gives: any setting it leaves out takes the CLI's default. */
export type GivenSettings = Partial<Omit<RunSettings, 'embedded' | 'deadlineAt' | 'profile'>>

/** A run's settings, apart from the target, once every default is filled in. */
export type FilledSettings = Omit<RunSettings, 'baseUrl' | 'embedded' | 'deadlineAt' | 'profile'> & { baseUrl?: string }

/**
 * The default of every run setting: the CLI shows them in --help, and a run fills in from them what its caller left
 * out.
 */
export const settingDefaults = {
  runs: 25,
  concurrency: 8,
  requestTimeoutMs: 10_000,
  maxDurationMs: 1800_000,
  cursorParam: 'cursor',
  limitParam: 'limit',
  maxPages: 1000,
  maxBodyBytes: 4 * 1024 * 1024,
  probeRateLimit: false,
  rate: 2,
} as const

/** Connecting takes at most 5 s, or the whole request bound when that is shorter. */
export function connectTimeoutFor(requestTimeoutMs: number): number {
  return Math.min(requestTimeoutMs, 5000)
}

export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31)
}

/**
 * The given settings with every one left out (or undefined) taken from the defaults; the seed is random unless given.
 */
export function withDefaults(given: GivenSettings = {}): FilledSettings {
  const defined = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as GivenSettings
  const requestTimeoutMs = defined.requestTimeoutMs ?? settingDefaults.requestTimeoutMs
  return {
    ...settingDefaults,
    seed: randomSeed(),
    requestTimeoutMs,
    connectTimeoutMs: connectTimeoutFor(requestTimeoutMs),
    ...defined,
  }
}
