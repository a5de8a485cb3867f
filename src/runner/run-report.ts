import type { CheckCollector } from '../../reporters/collector.js'
import { summarize, type CheckOutcome, type Report } from '../../reporters/report.js'
import { traceRequirements } from '../../reporters/traceability.js'
import { redactDeep, secretsOf } from '../http/secrets.js'
import { packageJson } from '../package-root.js'
import type { RunOptions, Waiver } from './run.js'
import type { Target } from './target.js'

/**
 * The report of a finished run: what the collector gathered, with the waivers applied, summarised and traced to the
 * requirements. Checks redact their own evidence; this covers what else reaches the report (run errors among it).
 */
export function reportOfRun(target: Target, collector: Pick<CheckCollector, 'outcomes' | 'errors'>, options: Pick<RunOptions, 'waivers' | 'strict'>): Report {
  const checks = applyWaivers(collector.outcomes, options.waivers ?? [])
  const strict = options.strict ?? false
  return redactDeep<Report>({
    tool: { name: packageJson.name, version: packageJson.version },
    target: { baseUrl: target.server ? 'embedded reference server' : target.settings.baseUrl, embedded: !!target.server },
    startedAt: target.startedAt.toISOString(),
    durationMs: Date.now() - target.startedAt.getTime(),
    seed: target.settings.seed,
    runs: target.settings.runs,
    strict,
    summary: summarize(checks, strict, collector.errors),
    checks,
    ...(target.settings.profile ? { profile: { source: target.settings.profile.source, values: target.settings.profile.values } } : {}),
    requirements: traceRequirements(checks, target.settings.profile),
    errors: collector.errors,
  }, secretsOf(target.settings))
}

function applyWaivers(outcomes: CheckOutcome[], waivers: readonly Waiver[]): CheckOutcome[] {
  return outcomes.map((outcome) => {
    const waiver = waivers.find((w) => w.check === outcome.id)
    return waiver ? { ...outcome, status: 'waived', waiver: { reason: waiver.reason, outcome: outcome.status as 'passed' | 'failed' | 'skipped' } } : outcome
  })
}
