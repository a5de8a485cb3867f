import type { EngineResult } from '../engine/run-checks.js'
import { secretsOf } from '../http/secrets.js'
import { behaviourFlags, switchedOnBehaviours, type RunOptions } from './options.js'
import type { Findings } from './session.js'
import type { Target } from './target.js'

/**
 * What a run against a target found, for the run session to judge: the checks' outcomes, and what the run was pointed
 * at.
 */
export function findingsOfRun(
  target: Pick<Target, 'settings' | 'server' | 'startedAt'>,
  result: EngineResult,
  options: Pick<RunOptions, 'reference'>,
): Findings {
  const { settings } = target
  return {
    target: {
      baseUrl: target.server ? 'embedded reference server' : settings.baseUrl,
      embedded: !!target.server,
      ...switchedOn(options),
      ...(target.server ? { restart: restartCommand(settings.baseUrl, options) } : {}),
    },
    startedAt: target.startedAt,
    seed: settings.seed,
    runs: settings.runs,
    checks: result.outcomes,
    profile: settings.profile,
    errors: result.errors,
    responses: result.responses,
    ...(result.interrupted ? { interrupted: result.interrupted } : {}),
    ...(result.resampling ? { resampling: result.resampling } : {}),
    secrets: secretsOf(settings),
  }
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
