import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { gatherExchangeLog } from '../har/exchange-log.js'
import { writeHar } from '../har/write.js'
import { createSharedState } from '../http/shared-state.js'
import { politeFetch, resolveProfile } from './profile-of-run.js'
import { startReferenceServer, type Quota, type ReferenceServer } from '../reference/server.js'
import type { Behaviour } from '../reference/types.js'
import { settingDefaults, withDefaults } from '../core/defaults.js'
import { behaviourFlags, type RunOptions } from './options.js'
import type { RunSettings } from '../core/settings.js'
import { validateRunOptions } from './validate-options.js'
import { preflight } from './preflight.js'

/** What a run is pointed at: its settings, and the embedded reference server when that is the target. */
export interface Target {
  settings: RunSettings
  /**
   * The state the run's clients share across worker threads (src/http/shared-state.ts); the profile's fetch already
   * counts in it.
   */
  shared: SharedArrayBuffer
  server?: ReferenceServer
  startedAt: Date
  /** What the preflight found, one line each (src/runner/preflight.ts): `doctor` prints them. */
  preflight: string[]
  /**
   * The folder the suite workers log the run's exchanges to (src/har/exchange-log.ts); undefined when the run writes no
   * HAR.
   */
  exchangeLog?: string
  /**
   * Writes the exchanges logged so far to the run's harPath; returns that path, or undefined when the run writes no
   * HAR.
   */
  writeHar(): Promise<string | undefined>
  /** Stops the embedded reference server and removes the exchange log. */
  close(): Promise<void>
}

/**
 * The embedded reference's faults and allowances the run names, with the quota and receipts they bring. Their modules
 * are loaded only when the run names one: a run against a deployment, or the plain reference, runs no fault's code.
 */
async function namedBehaviours(
  options: RunOptions,
): Promise<{ behaviours: Behaviour[]; quota?: Quota; receipts?: [string, string] }> {
  const { faults, allowances, quota, receipts } = options.reference ?? {}
  if (!faults?.length && !allowances?.length) return { behaviours: [], quota, receipts }
  const { broughtByFaults, referenceBehaviours } = await import('../reference/named-behaviours.js')
  const behaviours = referenceBehaviours(faults, allowances)
  return { behaviours, ...broughtByFaults(behaviours, { quota, receipts }) }
}

/**
 * Validates the options (a UsageError naming the first bad one), fills in the defaults, starts the embedded reference
 * server when no base URL is given, runs the preflight (the report folder, the target, its scheme, the key), and loads
 * the deployment profile.
 */
export async function openTarget(options: RunOptions): Promise<Target> {
  validateRunOptions(options)
  const startedAt = new Date()
  const given = withDefaults(options.settings)
  const { behaviours, quota, receipts } = await namedBehaviours(options)
  behaviours.push(...(options.reference?.behaviours ?? []))
  const record = options.reference?.record
  if (record)
    behaviours.push({
      name: 'record',
      description: 'records every exchange',
      onResponse: (response, request) => record(request, response),
    })
  const server = given.baseUrl
    ? undefined
    : await startReferenceServer({ ...options.reference, quota, receipts, behaviours })
  const targetSettings = server
    ? embeddedSettings(given, server)
    : { ...given, baseUrl: given.baseUrl!, embedded: false }
  const settings: RunSettings = {
    ...targetSettings,
    deadlineAt:
      targetSettings.maxDurationMs === undefined
        ? undefined
        : startedAt.getTime() + targetSettings.maxDurationMs + (targetSettings.durationMs ?? 0),
  }
  settings.shapingFlags = shapingFlags(options, settings)
  let exchangeLog: string | undefined
  const close = async () => {
    await server?.close()
    if (exchangeLog) await rm(exchangeLog, { recursive: true, force: true })
  }
  const shared = createSharedState()
  let checked: string[]
  try {
    checked = await preflight(settings, options.harPath === undefined ? undefined : dirname(options.harPath))
    settings.profile = await resolveProfile(
      options.profile,
      server && { baseUrl: server.baseUrl, behaviours, quota },
      politeFetch(settings, shared),
    )
    if (options.harPath) exchangeLog = await mkdtemp(join(tmpdir(), 'ipts-exchanges-'))
  } catch (error) {
    await close()
    throw error
  }
  const harPath = options.harPath
  const writeExchanges = async () => {
    if (!exchangeLog || !harPath) return undefined
    await writeHar(harPath, gatherExchangeLog(exchangeLog))
    return harPath
  }
  return { settings, shared, server, startedAt, preflight: checked, exchangeLog, writeHar: writeExchanges, close }
}

/**
 * The flags a replay needs besides the target, the check and the seed: the files the caller read its settings from,
 * what switched the run's reference behaviours on, and parameter names that are not the defaults.
 */
function shapingFlags(options: RunOptions, settings: Pick<RunSettings, 'cursorParam' | 'limitParam'>): string[] {
  const flags = [...(options.settings?.shapingFlags ?? []), ...behaviourFlags(options)]
  if (settings.cursorParam !== settingDefaults.cursorParam) flags.push(`--cursor-param ${settings.cursorParam}`)
  if (settings.limitParam !== settingDefaults.limitParam) flags.push(`--limit-param ${settings.limitParam}`)
  return flags
}

function embeddedSettings(given: ReturnType<typeof withDefaults>, server: ReferenceServer): RunSettings {
  const [first, second] = server.data.intents
  return {
    ...given,
    baseUrl: server.baseUrl,
    embedded: true,
    apiKey: given.apiKey ?? server.data.apiKey,
    restrictedApiKey: given.restrictedApiKey ?? server.data.restrictedApiKey,
    trader: given.trader ?? server.data.trader,
    secondTrader: given.secondTrader ?? server.data.secondTrader,
    intent: given.intent ?? { hash: first!.hash, receipt: first!.receipt },
    secondIntent: given.secondIntent ?? { hash: second!.hash, receipt: second!.receipt },
  }
}
