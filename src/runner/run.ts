import { Agent, request } from 'undici'
import { createVitest } from 'vitest/node'
import { join } from 'node:path'
import { allChecks } from '../checks/index.js'
import { redactDeep, secretsOf } from '../http/secrets.js'
import { createSharedState } from '../http/shared-state.js'
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
  settings: Omit<RunSettings, 'baseUrl' | 'embedded' | 'deadlineAt'> & { baseUrl?: string }
  /** For the embedded reference server: named faults and allowances to switch on, quota and latency. */
  reference?: Pick<ReferenceOptions, 'quota' | 'latencyMs' | 'apiKey' | 'restrictedApiKey' | 'receipts'> & {
    faults?: string[]
    allowances?: string[]
    /** Called with every request the embedded server answers and its response (self-tests and the benchmark count and replay them). */
    record?: (request: RefRequest, response: RefResponse) => void
  }
  /** Run only these check IDs. */
  only?: string[]
  waivers?: Waiver[]
  strict?: boolean
  onCheck?: (outcome: CheckOutcome) => void
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
  try {
    const given = server ? embeddedSettings(options.settings, server) : { ...options.settings, baseUrl: options.settings.baseUrl!, embedded: false }
    const settings: RunSettings = { ...given, deadlineAt: given.maxDurationMs === undefined ? undefined : started.getTime() + given.maxDurationMs }
    await ensureReachable(settings)
    // Checks redact their own evidence; this covers what else reaches the report and the console (run errors among it).
    const secrets = secretsOf(settings)
    const collector = await runSuites(settings, suitesDir, { ...options, onCheck: options.onCheck && ((outcome) => options.onCheck!(redactDeep(outcome, secrets))) })
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
      requirements: traceRequirements(checks),
      errors: collector.errors,
    }, secrets)
  } finally {
    await server?.close()
  }
}

/** Runs the check suites under `dir` through vitest against the settings' target, and returns what they found. */
export async function runSuites(settings: RunSettings, dir: string, options: Pick<RunOptions, 'only' | 'onCheck'> = {}): Promise<CheckCollector> {
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
      provide: { ipts: settings, iptsShared: createSharedState() },
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
