import { Agent, request } from 'undici'
import { createVitest } from 'vitest/node'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { allChecks } from '../checks/index.js'
import { gatherExchangeLog } from '../har/exchange-log.js'
import { writeHar } from '../har/write.js'
import { redactDeep, secretsOf } from '../http/secrets.js'
import { createSharedState } from '../http/shared-state.js'
import type { ProfileSource } from '../profile/load.js'
import { politeFetch, resolveProfile } from '../profile/resolve.js'
import { packageJson, packageRoot } from '../package-root.js'
import { broughtByFaults, referenceBehaviours } from '../reference/named-behaviours.js'
import { startReferenceServer, type ReferenceOptions, type ReferenceServer } from '../reference/server.js'
import type { RefRequest, RefResponse } from '../reference/types.js'
import { CheckCollector } from '../../reporters/collector.js'
import { summarize, type CheckOutcome, type Report } from '../../reporters/report.js'
import { traceRequirements } from '../../reporters/traceability.js'
import type { RunSettings } from './settings.js'

export interface Waiver {
  check: string
  reason: string
}

export interface RunOptions {
  /** The run's settings; without baseUrl the embedded reference server is the target and fills in its keys and fixtures. */
  settings: Omit<RunSettings, 'baseUrl' | 'embedded' | 'deadlineAt' | 'profile'> & { baseUrl?: string }
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

/** Raised when the target does not answer at all; the CLI maps it to exit 2. */
export class TargetUnreachableError extends Error {
  readonly code = 'IPTS_TARGET_UNREACHABLE'
}

/**
 * Concern files run in parallel workers, so that one file's long sequential check (a property's inputs go one after
 * another) does not hold the others back; the workers' clients share one concurrency bound and one quota gate.
 * Measured with 120 ms latency and 343 requests (README, Benchmark): 1 worker 9.9 s, 2 workers 7.0 s, 3 7.2 s, 4 8.5 s.
 */
const SUITE_WORKERS = 2

const suitesDir = join(packageRoot, import.meta.url.endsWith('.ts') ? 'suites' : 'dist/suites')

/** Runs the conformance suite once, through vitest, and returns the report. Starts and stops the embedded reference server when it is the target. */
export async function runConformance(options: RunOptions): Promise<Report> {
  const started = new Date()
  const behaviours = referenceBehaviours(options.reference?.faults, options.reference?.allowances)
  const record = options.reference?.record
  if (record) behaviours.push({ name: 'record', description: 'records every exchange', onResponse: (response, request) => record(request, response) })
  let server: ReferenceServer | undefined
  const { quota, receipts } = broughtByFaults(behaviours, options.reference ?? {})
  if (!options.settings.baseUrl) server = await startReferenceServer({ ...options.reference, quota, receipts, behaviours })
  const exchangeLog = options.harPath ? await mkdtemp(join(tmpdir(), 'ipts-exchanges-')) : undefined
  try {
    const given = server ? embeddedSettings(options.settings, server) : { ...options.settings, baseUrl: options.settings.baseUrl!, embedded: false }
    const settings: RunSettings = { ...given, deadlineAt: given.maxDurationMs === undefined ? undefined : started.getTime() + given.maxDurationMs }
    await ensureReachable(settings)
    const shared = createSharedState()
    settings.profile = await resolveProfile(options.profile, server && { baseUrl: server.baseUrl, behaviours }, politeFetch(settings, shared))
    // Checks redact their own evidence; this covers what else reaches the report and the console (run errors among it).
    const secrets = secretsOf(settings)
    const collector = await runSuites(settings, suitesDir, { ...options, shared, exchangeLog, onCheck: options.onCheck && ((outcome) => options.onCheck!(redactDeep(outcome, secrets))) })
    if (exchangeLog) await writeHar(options.harPath!, gatherExchangeLog(exchangeLog))
    const checks = applyWaivers(collector.outcomes, options.waivers ?? [])
    const strict = options.strict ?? false
    return redactDeep<Report>({
      tool: { name: packageJson.name, version: packageJson.version },
      target: { baseUrl: server ? 'embedded reference server' : settings.baseUrl, embedded: !!server },
      startedAt: started.toISOString(),
      durationMs: Date.now() - started.getTime(),
      seed: settings.seed,
      runs: settings.runs,
      strict,
      summary: summarize(checks, strict, collector.errors),
      checks,
      ...(settings.profile ? { profile: { source: settings.profile.source, values: settings.profile.values } } : {}),
      requirements: traceRequirements(checks, settings.profile),
      errors: collector.errors,
    }, secrets)
  } finally {
    await server?.close()
    if (exchangeLog) await rm(exchangeLog, { recursive: true, force: true })
  }
}

/**
 * Runs the check suites under `dir` through vitest against the settings' target, and returns what they found. The
 * suites' clients share `shared` (a fresh state when not given); with `exchangeLog` (a directory) they log every exchange there.
 */
export async function runSuites(settings: RunSettings, dir: string, options: Pick<RunOptions, 'only' | 'onCheck'> & { shared?: SharedArrayBuffer; exchangeLog?: string } = {}): Promise<CheckCollector> {
  const collector = new CheckCollector(options.onCheck)
  const vitest = await createVitest(
    'test',
    {
      config: false,
      root: packageRoot,
      dir,
      include: ['**/*.test.{ts,js}'],
      exclude: [],
      watch: false,
      reporters: [collector],
      provide: { ipts: settings, iptsShared: options.shared ?? createSharedState(), iptsExchangeLog: options.exchangeLog },
      pool: 'threads',
      maxWorkers: SUITE_WORKERS,
      isolate: false,
      testTimeout: settings.requestTimeoutMs * 20 + 60_000,
      maxConcurrency: settings.concurrency,
      testNamePattern: options.only ? titlePattern(options.only) : undefined,
      passWithNoTests: true,
    },
    { server: { watch: null } },
  )
  try {
    await vitest.start()
  } finally {
    await vitest.close()
  }
  return collector
}

function embeddedSettings(given: RunOptions['settings'], server: ReferenceServer): RunSettings {
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

function titlePattern(ids: readonly string[]): RegExp {
  const titles = allChecks.filter((check) => ids.includes(check.id)).map((check) => check.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^.*(?:${titles.join('|') || '(?!)'})$`)
}

function applyWaivers(outcomes: CheckOutcome[], waivers: readonly Waiver[]): CheckOutcome[] {
  return outcomes.map((outcome) => {
    const waiver = waivers.find((w) => w.check === outcome.id)
    return waiver ? { ...outcome, status: 'waived', waiver: { reason: waiver.reason, outcome: outcome.status as 'passed' | 'failed' | 'skipped' } } : outcome
  })
}
