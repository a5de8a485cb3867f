import type { RunSettings } from '../core/settings.js'
import type { Need } from './types.js'

/** Why a check that needs an input the run was not given is skipped. */
export const missingInputReasons: Record<Need, string> = {
  apiKey: 'no API key given (--api-key)',
  restrictedApiKey: 'no restricted API key given (--restricted-api-key)',
  trader: 'no trader address given (--trader)',
  intent: 'no intent given (--intent-hash and --intent-receipt)',
  secondIntent: 'no second intent given (--second-intent-hash and --second-intent-receipt)',
}

/** The flags that give each input: what a report names as the way to assess a check skipped without it. */
export const needInputs: Record<Need, string[]> = {
  apiKey: ['--api-key'],
  restrictedApiKey: ['--restricted-api-key'],
  trader: ['--trader'],
  intent: ['--intent-hash', '--intent-receipt'],
  secondIntent: ['--second-intent-hash', '--second-intent-receipt'],
}

export function missingNeed(settings: RunSettings, needs: readonly Need[] = []): Need | undefined {
  const given: Record<Need, boolean> = {
    apiKey: !!settings.apiKey,
    restrictedApiKey: !!settings.restrictedApiKey,
    trader: !!settings.trader,
    intent: !!settings.intent,
    secondIntent: !!settings.secondIntent,
  }
  return needs.find((need) => !given[need])
}
