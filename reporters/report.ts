import type { Level } from '../src/contract/requirements.js'
import type { Evidence } from '../src/harness/evidence.js'

export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'waived'

/** One check's outcome. The shape is stable: other tools read report.json. */
export interface CheckOutcome {
  id: string
  title: string
  requirement: string
  level: Level
  concern: string
  status: CheckStatus
  /** Why a check was skipped, or the failure message. */
  reason?: string
  evidence?: Evidence
  /** For a waived check: the user's reason, and what the check found. */
  waiver?: { reason: string; outcome: 'passed' | 'failed' | 'skipped' }
  durationMs?: number
  /** True when a request of the check was retried after a 429, 502 or 503: the outcome depended on a retry. */
  retried?: boolean
  /** True when the check crashed (threw something other than a finding): it failed, but says nothing about the target. */
  crashed?: boolean
}

export type RequirementStatus = 'passed' | 'failed' | 'skipped' | 'not-assessable' | 'uncovered' | 'waived'

/** One requirement's result: the checks citing it and what they found together. */
export interface RequirementResult {
  id: string
  section: string
  level: Level
  rule: string
  observable: boolean
  status: RequirementStatus
  /** Why it was not assessed, skipped or uncovered. */
  reason?: string
  checks: string[]
}

export interface Summary {
  passed: number
  failed: number
  skipped: number
  waived: number
  total: number
  failedMust: number
  failedShould: number
  verdict: 'pass' | 'fail'
}

export interface Report {
  tool: { name: string; version: string }
  target: { baseUrl: string; embedded: boolean }
  startedAt: string
  durationMs: number
  seed: number
  runs: number
  strict: boolean
  summary: Summary
  checks: CheckOutcome[]
  /** Every requirement of specs/requirements.yaml, traced to the checks that cover it and their outcome. */
  requirements: RequirementResult[]
  /** Problems of the run itself (a suite file that did not load, an unhandled error), not of the target. */
  errors: string[]
}

export function summarize(checks: readonly CheckOutcome[], strict: boolean, errors: readonly string[]): Summary {
  const count = (status: CheckStatus) => checks.filter((c) => c.status === status).length
  const failedMust = checks.filter((c) => c.status === 'failed' && c.level === 'MUST').length
  const failedShould = checks.filter((c) => c.status === 'failed' && c.level === 'SHOULD').length
  const failing = failedMust > 0 || (strict && failedShould > 0) || errors.length > 0
  return {
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    waived: count('waived'),
    total: checks.length,
    failedMust,
    failedShould,
    verdict: failing ? 'fail' : 'pass',
  }
}
