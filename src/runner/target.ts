import { Agent, request } from 'undici'
import { createSharedState } from '../http/shared-state.js'
import { politeFetch, resolveProfile } from '../profile/resolve.js'
import { broughtByFaults, referenceBehaviours } from '../reference/named-behaviours.js'
import { startReferenceServer, type ReferenceServer } from '../reference/server.js'
import { withDefaults } from './defaults.js'
import type { RunOptions } from './run.js'
import type { RunSettings } from './settings.js'

/** What a run is pointed at: its settings, and the embedded reference server when that is the target. */
export interface Target {
  settings: RunSettings
  /** The state the run's clients share across worker threads (src/http/shared-state.ts); the profile's fetch already counts in it. */
  shared: SharedArrayBuffer
  server?: ReferenceServer
  startedAt: Date
  close(): Promise<void>
}

/** Raised when the target does not answer at all; the CLI maps it to exit 2. */
export class TargetUnreachableError extends Error {
  readonly code = 'IPTS_TARGET_UNREACHABLE'
}

/** Fills in the defaults, starts the embedded reference server when no base URL is given, makes sure the target can be connected to, and loads the deployment profile. */
export async function openTarget(options: RunOptions): Promise<Target> {
  const startedAt = new Date()
  const given = withDefaults(options.settings)
  const behaviours = referenceBehaviours(options.reference?.faults, options.reference?.allowances)
  const record = options.reference?.record
  if (record) behaviours.push({ name: 'record', description: 'records every exchange', onResponse: (response, request) => record(request, response) })
  const server = given.baseUrl ? undefined : await startReferenceServer({ ...options.reference, ...broughtByFaults(behaviours, options.reference ?? {}), behaviours })
  const targetSettings = server ? embeddedSettings(given, server) : { ...given, baseUrl: given.baseUrl!, embedded: false }
  const settings: RunSettings = { ...targetSettings, deadlineAt: targetSettings.maxDurationMs === undefined ? undefined : startedAt.getTime() + targetSettings.maxDurationMs }
  const close = async () => server?.close()
  const shared = createSharedState()
  try {
    await ensureReachable(settings)
    settings.profile = await resolveProfile(options.profile, server && { baseUrl: server.baseUrl, behaviours }, politeFetch(settings, shared))
  } catch (error) {
    await close()
    throw error
  }
  return { settings, shared, server, startedAt, close }
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
    intent: given.intent ?? { hash: first!.hash, receipt: first!.receipt },
    secondIntent: given.secondIntent ?? { hash: second!.hash, receipt: second!.receipt },
  }
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'ERR_TLS_CERT_ALTNAME_INVALID', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'])

/** How long the reachability probe waits for a response head once connected: a slow answer is the checks' business, not a reason to stop. */
const REACHABLE_GRACE_MS = 1000

/** Only a target that cannot be connected to is unreachable; one that answers badly, or slowly, gets failed checks instead. */
async function ensureReachable(settings: RunSettings): Promise<void> {
  const url = new URL(`${settings.baseUrl.replace(/\/+$/, '')}/v1/config`)
  const dispatcher = new Agent({ connect: { timeout: settings.connectTimeoutMs } })
  try {
    const { body } = await request(url, { method: 'GET', headers: { accept: 'application/json' }, dispatcher, signal: AbortSignal.timeout(settings.connectTimeoutMs + REACHABLE_GRACE_MS) })
    // The body is not wanted (it may never end); destroying it emits an abort error, which is expected here.
    body.on('error', () => undefined).destroy()
  } catch (error) {
    const err = error as { code?: string; cause?: { code?: string }; message?: string }
    const code = err.code ?? err.cause?.code
    if (code && UNREACHABLE.has(code)) throw new TargetUnreachableError(`target ${url.origin} is unreachable (${code})`)
  } finally {
    await dispatcher.destroy()
  }
}
