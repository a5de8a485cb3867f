import type { CheckOutcome, Report } from '../core/report.js'
import type { EngineResult } from '../engine/run-checks.js'
import { reportOf } from '../engine/report-of.js'
import { secretsOf } from '../http/secrets.js'
import { behaviourFlags, switchedOnBehaviours, type RunOptions, type Waiver } from './options.js'
import type { Target } from './target.js'

/**
 * The report of a finished run: what the checks found, with the waivers applied, summarised and traced to the
 * requirements.
 */
export function reportOfRun(
  target: Pick<Target, 'settings' | 'server' | 'startedAt'>,
  result: EngineResult,
  options: Pick<RunOptions, 'waivers' | 'strict' | 'reference' | 'minAssessed'>,
): Report {
  const { settings } = target
  return reportOf({
    target: {
      baseUrl: target.server ? 'embedded reference server' : settings.baseUrl,
      embedded: !!target.server,
      ...switchedOn(options),
      ...(target.server ? { restart: restartCommand(settings.baseUrl, options) } : {}),
    },
    startedAt: target.startedAt,
    seed: settings.seed,
    runs: settings.runs,
    strict: options.strict ?? false,
    checks: applyWaivers(result.outcomes, options.waivers ?? []),
    profile: settings.profile,
    errors: result.errors,
    responses: result.responses,
    minAssessed: options.minAssessed,
    ...(result.interrupted ? { interrupted: result.interrupted } : {}),
    secrets: secretsOf(settings),
  })
}

/**
 * The embedded reference's faults and allowances the run switched on, so that a fault run and a clean run do not look
 * alike.
 */
function switchedOn(options: Pick<RunOptions, 'reference'>): { switchedOn?: string[] } {
  const named = switchedOnBehaviours(options)
  return named.length > 0 ? { switchedOn: named } : {}
}

/**
 * The embedded reference is gone when the run ends, and its port with it: this serves one at the same address, with the
 * same behaviours, for the reproduction commands.
 */
function restartCommand(baseUrl: string, options: Pick<RunOptions, 'reference'>): string {
  return ['npx ipts-conformance reference --port', new URL(baseUrl).port, ...behaviourFlags(options)].join(' ')
}

function applyWaivers(outcomes: CheckOutcome[], waivers: readonly Waiver[]): CheckOutcome[] {
  return outcomes.map((outcome) => {
    const waiver = waivers.find((w) => w.check === outcome.id)
    return waiver
      ? {
          ...outcome,
          status: 'waived',
          waiver: { reason: waiver.reason, outcome: outcome.status as 'passed' | 'failed' | 'skipped' | 'not run' },
        }
      : outcome
  })
}
