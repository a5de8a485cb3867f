import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { gatherExchangeLog } from '../har/exchange-log.js'
import { writeHar } from '../har/write.js'
import { createSharedState } from '../http/shared-state.js'
import { politeFetch, resolveProfile } from './profile-of-run.js'
import { startReferenceServer, type Quota, type ReferenceServer } from '../reference/server.js'
import type { Behaviour } from '../reference/types.js'
import { TargetUnreachableError } from '../core/errors.js'
import { settingDefaults, withDefaults } from '../core/defaults.js'
import { behaviourFlags, type RunOptions } from './options.js'
import type { RunSettings } from '../core/settings.js'
import { validateRunOptions } from './validate-options.js'

/** What a run is pointed at: its settings, and the embedded reference server when that is the target. */
export interface Target {
  settings: RunSettings
  /** The state the run's clients share across worker threads (src/http/shared-state.ts); the profile's fetch already counts in it. */
  shared: SharedArrayBuffer
  server?: ReferenceServer
  startedAt: Date
  /** The folder the suite workers log the run's exchanges to (src/har/exchange-log.ts); undefined when the run writes no HAR. */
  exchangeLog?: string
  /** Writes the exchanges logged so far to the run's harPath; returns that path, or undefined when the run writes no HAR. */
  writeHar(): Promise<string | undefined>
  /** Stops the embedded reference server and removes the exchange log. */
  close(): Promise<void>
}

/**
 * The embedded reference's faults and allowances the run names, with the quota and receipts they bring. Their modules
 * are loaded only when the run names one: a run against a deployment, or the plain reference, runs no fault's code.
 */
async function namedBehaviours(options: RunOptions): Promise<{ behaviours: Behaviour[]; quota?: Quota; receipts?: [string, string] }> {
  const { faults, allowances, quota, receipts } = options.reference ?? {}
  if (!faults?.length && !allowances?.length) return { behaviours: [], quota, receipts }
  const { broughtByFaults, referenceBehaviours } = await import('../reference/named-behaviours.js')
  const behaviours = referenceBehaviours(faults, allowances)
  return { behaviours, ...broughtByFaults(behaviours, { quota, receipts }) }
}

/** Validates the options (a UsageError naming the first bad one), fills in the defaults, starts the embedded reference server when no base URL is given, makes sure the target can be connected to, and loads the deployment profile. */
export async function openTarget(options: RunOptions): Promise<Target> {
  validateRunOptions(options)
  const startedAt = new Date()
  const given = withDefaults(options.settings)
  const { behaviours, quota, receipts } = await namedBehaviours(options)
  behaviours.push(...(options.reference?.behaviours ?? []))
  const record = options.reference?.record
  if (record) behaviours.push({ name: 'record', description: 'records every exchange', onResponse: (response, request) => record(request, response) })
  const server = given.baseUrl ? undefined : await startReferenceServer({ ...options.reference, quota, receipts, behaviours })
  const targetSettings = server ? embeddedSettings(given, server) : { ...given, baseUrl: given.baseUrl!, embedded: false }
  const settings: RunSettings = { ...targetSettings, deadlineAt: targetSettings.maxDurationMs === undefined ? undefined : startedAt.getTime() + targetSettings.maxDurationMs }
  settings.shapingFlags = shapingFlags(options, settings)
  let exchangeLog: string | undefined
  const close = async () => {
    await server?.close()
    if (exchangeLog) await rm(exchangeLog, { recursive: true, force: true })
  }
  const shared = createSharedState()
  try {
    await ensureReachable(settings)
    settings.profile = await resolveProfile(options.profile, server && { baseUrl: server.baseUrl, behaviours, quota }, politeFetch(settings, shared))
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
  return { settings, shared, server, startedAt, exchangeLog, writeHar: writeExchanges, close }
}

/** The flags a replay needs besides the target, the check and the seed: the files the caller read its settings from, what switched the run's reference behaviours on, and parameter names that are not the defaults. */
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

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'ERR_TLS_CERT_ALTNAME_INVALID', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'])

/** Reads the probe sends at once: a target slow on one operation only still answers another. */
const PROBED_PATHS = ['/v1/config', '/v1/vault', '/v1/markets']

/**
 * A target that cannot be connected to, or that gives no response head to any probe within --timeout, is
 * unreachable: the run ends at once (exit 2) instead of waiting out every check. One that answers badly, or slowly
 * within the bound, gets failed checks instead.
 */
async function ensureReachable(settings: RunSettings): Promise<void> {
  const base = settings.baseUrl.replace(/\/+$/, '')
  const dispatcher = new Agent({ connect: { timeout: settings.connectTimeoutMs } })
  const probe = async (path: string) => {
    const { body } = await request(`${base}${path}`, { method: 'GET', headers: { accept: 'application/json' }, dispatcher, signal: AbortSignal.timeout(settings.requestTimeoutMs) })
    // The body is not wanted (it may never end); destroying it emits an abort error, which is expected here.
    body.on('error', () => undefined).destroy()
  }
  const origin = new URL(base).origin
  try {
    await Promise.any(PROBED_PATHS.map(probe))
  } catch (error) {
    const errors = (error as AggregateError).errors as { code?: string; name?: string; cause?: { code?: string } }[]
    const code = errors.map((e) => e.code ?? e.cause?.code).find((c) => c && UNREACHABLE.has(c))
    if (code) throw new TargetUnreachableError(`target ${origin} is unreachable (${code})`)
    if (errors.every((e) => e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT')) {
      throw new TargetUnreachableError(`target ${origin} accepted connections but never answered (no response within ${settings.requestTimeoutMs} ms, --timeout)`)
    }
  } finally {
    await dispatcher.destroy()
  }
}
