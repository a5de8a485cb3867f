import { redactDeep, type Secret } from '../http/secrets.js'
import type { Report } from '../core/report.js'
import { summarize } from './summarize.js'
import { packageJson } from '../core/package-root.js'
import type { Profile } from '../profile/profile.js'
import { traceRequirements } from './traceability.js'
import { coverageOf } from './coverage.js'
import type { ResponsesSeen } from './responses-seen.js'

/** What a report is made of, whether the checks ran against a target or judged recorded traffic. */
export interface ReportParts
  extends
    Pick<Report, 'target' | 'strict' | 'checks' | 'errors'>,
    Partial<Pick<Report, 'seed' | 'runs' | 'traffic' | 'interrupted' | 'resampling'>> {
  startedAt: Date
  profile?: Profile
  /**
   * Every secret the report must not show; evidence is redacted when built, this covers the rest (run errors among it).
   */
  secrets: readonly Secret[]
  /** The responses seen by operation and status, and how many were judged. */
  responses: ResponsesSeen
  /** The share of the observable requirements the report must assess (--min-assessed), else it fails. */
  minAssessed?: number
}

/**
 * The report: the outcomes summarised into a verdict, traced to the requirements, with how much they judged; secrets as
 * placeholders.
 */
export function reportOf(parts: ReportParts): Report {
  const {
    target,
    startedAt,
    seed,
    runs,
    strict,
    traffic,
    checks,
    profile,
    errors,
    secrets,
    responses,
    minAssessed,
    interrupted,
    resampling,
  } = parts
  const requirements = traceRequirements(checks, profile)
  const coverage = coverageOf(requirements, checks, responses, profile, minAssessed)
  return redactDeep<Report>(
    {
      tool: { name: packageJson.name, version: packageJson.version },
      target,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      ...(seed === undefined ? {} : { seed }),
      ...(runs === undefined ? {} : { runs }),
      strict,
      ...(traffic ? { traffic } : {}),
      ...(resampling ? { resampling } : {}),
      summary: summarize(checks, strict, errors, coverage.summary),
      checks,
      ...(profile ? { profile: { source: profile.source, values: profile.values } } : {}),
      requirements,
      coverage,
      errors,
      ...(interrupted ? { interrupted } : {}),
    },
    secrets,
  )
}
