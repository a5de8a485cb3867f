import { expect } from 'vitest'
import { checksByConcern } from '../../src/checks/index.js'
import { runConformance, type RunOptions } from '../../src/runner/run.js'
import type { CheckOutcome, Evidence, Report } from '../../src/core/report.js'
import type { CheckId } from '../../src/contract/catalogue-ids.js'
import type { FaultName } from '../../src/reference/fault-names.js'
import type { Behaviour } from '../../src/reference/types.js'
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js'
import { defaultRetryPolicy, type RetryPolicy } from '../../src/http/retry.js'
import { signAsTheReference } from './reference-signer.js'

export const FIXED_SEED = 20261122

/** The settings of a self-test's run, apart from its target and inputs. */
export const TEST_SETTINGS = {
  seed: FIXED_SEED,
  runs: 10,
  concurrency: 8,
  cursorParam: 'cursor',
  limitParam: 'limit',
  maxPages: 1000,
  // Guards only: the reference never hangs, so a timeout here would be the load of a shared machine, not a finding.
  connectTimeoutMs: 30_000,
  requestTimeoutMs: 60_000,
  maxBodyBytes: 4 * 1024 * 1024,
  probeRateLimit: false,
} as const satisfies Partial<RunOptions['settings']>

/**
 * The client's retries with the backoff after a 500, 502, 503 or 504 cut to milliseconds: a fault or scripted answer
 * that is a 5xx costs a self-test no seconds of waiting. Retry-After is honoured as ever; test/runs/retries.test.ts
 * holds the backoff.
 */
export const TEST_RETRY_POLICY: RetryPolicy = { ...defaultRetryPolicy, backoffBaseMs: 1, backoffCapMs: 8 }

/**
 * Runs the real suite against the embedded reference server with the given faults and allowances switched on; the
 * reference's signing command signs in this process.
 */
export function runAgainstReference(
  reference: RunOptions['reference'] & { faults?: FaultName[] } = {},
  settings: Partial<RunOptions['settings']> = {},
  extra: Partial<RunOptions> = {},
): Promise<Report> {
  return runConformance({
    settings: { ...TEST_SETTINGS, ...settings },
    reference,
    retryPolicy: TEST_RETRY_POLICY,
    signInProcess: signAsTheReference,
    ...extra,
  })
}

/**
 * Runs one check against a reference server of its own, given only the inputs `inputs` names (the embedded reference
 * fills in every input it has): the branches of a check for a target without a trader, an intent or a restricted key.
 */
export async function outcomeWithInputs(
  id: CheckId,
  inputs: (server: ReferenceServer) => Partial<RunOptions['settings']>,
  extra: Partial<RunOptions> = {},
): Promise<CheckOutcome> {
  const server = await startReferenceServer()
  try {
    const report = await runConformance({
      settings: { ...TEST_SETTINGS, baseUrl: server.baseUrl, ...inputs(server) },
      retryPolicy: TEST_RETRY_POLICY,
      signInProcess: signAsTheReference,
      only: [id],
      ...extra,
    })
    const outcome = report.checks.find((c) => c.id === id)
    if (!outcome) throw new Error(`${id} is not in the report`)
    return outcome
  } finally {
    await server.close()
  }
}

/**
 * Runs the given checks alone against the embedded reference with behaviours of the test's own: the answers a branch of
 * a check is there for, where no named fault of the reference gives them. Returns the outcome of the first check.
 */
export async function outcomeWithBehaviours(
  only: readonly CheckId[],
  behaviours: readonly Behaviour[],
  settings: Partial<RunOptions['settings']> = {},
  extra: Partial<RunOptions> = {},
): Promise<CheckOutcome> {
  const report = await runAgainstReference({ behaviours }, settings, { ...extra, only: [...only] })
  const outcome = report.checks.find((c) => c.id === only[0])
  if (!outcome) throw new Error(`${only[0]} is not in the report`)
  return outcome
}

export function idsWithStatus(report: Pick<Report, 'checks'>, status: string): string[] {
  return report.checks
    .filter((c) => c.status === status)
    .map((c) => c.id)
    .sort()
}

/** Checks that failed because they crashed: such a failure is no detection of a fault, and no check may crash. */
export function crashedIds(report: Pick<Report, 'checks'>): string[] {
  return report.checks
    .filter((c) => c.crashed)
    .map((c) => c.id)
    .sort()
}

/** A readable account of failures, for assertion messages. */
export function failureSummary(report: Report): string {
  const lines = report.checks
    .filter((c) => c.status === 'failed')
    .map((c) => `${c.id}${c.crashed ? ' (crashed)' : ''}: ${c.reason}`)
  return [...lines, ...report.errors].join('\n') || 'no failures'
}

/**
 * What is not said in words: "undefined", "[object Object]", "NaN", an error code of undici or Node where words should
 * be (a code in parentheses after the words that say it is fine: "the connection was reset (ECONNRESET)"), OpenSSL's
 * text, a JSON parser's. A value the target sent, quoted ("NaN"), is the target's and not looked at.
 */
const NOT_IN_WORDS = [
  /\bundefined\b/,
  /\[object \w+\]/,
  /\bNaN\b/,
  /\bUND_ERR_\w*/,
  /(?<!\()\b(?:ERR_[A-Z_]+|E[A-Z]{3,}|HPE_[A-Z_]+)\b(?!\))/,
  /wrong version number|SSL routines|ssl3_\w+|:error:[0-9A-F]{8}:/i,
  /Unexpected token|in JSON at position|is not valid JSON|Unexpected end of JSON/,
]

/**
 * Every message a report gives (reasons, evidence messages, transport errors, run errors) that is not in words, with
 * where it is.
 */
export function messagesNotInWords(report: Report): string[] {
  const found: string[] = []
  const look = (where: string, text: string | undefined) => {
    if (text === undefined) return
    const unquoted = text.replace(/"(?:[^"\\]|\\.)*"/g, '""')
    for (const pattern of NOT_IN_WORDS) if (pattern.test(unquoted)) found.push(`${where}: ${text}`)
  }
  const lookAt = (where: string, evidence: Evidence | undefined) => {
    if (!evidence) return
    look(`${where} evidence`, evidence.message)
    look(`${where} transport error`, evidence.transportError?.message)
    for (const [i, other] of (evidence.others ?? []).entries()) lookAt(`${where} evidence ${i + 2}`, other)
  }
  for (const check of report.checks) {
    look(`${check.id} reason`, check.reason)
    lookAt(check.id, check.evidence)
  }
  for (const error of report.errors) look('run error', error)
  for (const requirement of report.coverage?.requirements ?? []) look(`${requirement.id} coverage`, requirement.reason)
  return found
}

/** Runs each check of a concern alone against the plain reference: each passes, none skipped, with no reason given. */
export async function expectEveryCheckPasses(concern: keyof typeof checksByConcern): Promise<void> {
  for (const { id } of checksByConcern[concern]) {
    const outcome = await outcomeWithBehaviours([id], [])
    expect({ id, status: outcome.status, reason: outcome.reason }).toEqual({ id, status: 'passed', reason: undefined })
  }
}
