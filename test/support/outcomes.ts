import type { CheckOutcome, CheckStatus } from '../../src/core/report.js'
import type { Profile } from '../../src/profile/profile.js'

/** A check's outcome made by hand: a MUST check `unit/<status>` of the requirement, with what `more` adds. */
export function outcomeOf(requirement: string, status: CheckStatus, more: Partial<CheckOutcome> = {}): CheckOutcome {
  return {
    id: `unit/${status}`,
    title: '',
    requirement,
    level: 'MUST',
    inferred: false,
    concern: 'unit',
    status,
    ...more,
  }
}

/** A deployment profile that states the intent states and nothing else. */
export const INTENT_STATES_PROFILE: Profile = {
  source: 'unit-profile.yaml',
  values: { intentStates: ['created', 'settled'] },
}
