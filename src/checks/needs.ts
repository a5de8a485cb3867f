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
