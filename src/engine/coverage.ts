import { missingInputReasons, needInputs } from '../checks/needs.js'
import type { Need } from '../checks/types.js'
import { requirementById } from '../contract/requirements.js'
import type { CheckOutcome, Coverage, RequirementCoverage, RequirementResult } from '../core/report.js'
import {
  notAssessableWithout,
  PROFILE_KEYS,
  stated,
  WRITES_NOT_ASSESSABLE,
  type Profile,
  type ProfileKey,
} from '../profile/profile.js'
import { operationCoverage, type ResponsesSeen } from './responses-seen.js'

type AssessedWith = NonNullable<RequirementCoverage['assessedWith']>

/** The reasons the engine skips a check for a missing input or profile key, each with what would assess it. */
const REMEDIES = new Map<string, AssessedWith>([
  ...Object.entries(missingInputReasons).map(([need, reason]): [string, AssessedWith] => [
    reason,
    { inputs: needInputs[need as Need] },
  ]),
  ...PROFILE_KEYS.map((key): [string, AssessedWith] => [notAssessableWithout(key), { profileKeys: [key] }]),
  [WRITES_NOT_ASSESSABLE, { inputs: ['--allow-writes'], profileKeys: ['writes'] }],
])

/**
 * Whether an outcome judged the target: passed or failed (a waived one by what it found). Anything else judged nothing:
 * skipped, not run, a crash (the suite's own defect), and any status a later version adds for what was not assessed.
 */
export function judgedSomething(outcome: CheckOutcome): boolean {
  const found = outcome.status === 'waived' ? outcome.waiver?.outcome : outcome.status
  return found === 'passed' || (found === 'failed' && outcome.crashed !== true)
}

/**
 * How much a report judged: each operation's responses, each requirement assessed or not (why not, and what would
 * assess it; a profile key the run's profile already states is not named), and the share of the observable
 * requirements assessed, held to --min-assessed when it was given.
 */
export function coverageOf(
  requirements: readonly RequirementResult[],
  outcomes: readonly CheckOutcome[],
  responses: ResponsesSeen,
  profile?: Profile,
  minAssessed?: number,
): Coverage {
  const covered = requirements.map((result) =>
    requirementCoverage(
      result,
      outcomes.filter((o) => o.requirement === result.id),
      profile,
    ),
  )
  const observable = covered.filter((r) => r.observable)
  const assessed = observable.filter((r) => r.assessed).length
  const percent = observable.length === 0 ? 0 : Math.floor((assessed * 1000) / observable.length) / 10
  return {
    operations: operationCoverage(responses),
    requirements: covered,
    summary: {
      assessed,
      observable: observable.length,
      percent,
      ...(minAssessed === undefined ? {} : { minimum: minAssessed }),
    },
  }
}

function requirementCoverage(
  result: RequirementResult,
  ran: readonly CheckOutcome[],
  profile: Profile | undefined,
): RequirementCoverage {
  const { id, level } = result
  const key = requirementById(id).profile
  if (result.status === 'not-assessable') {
    return {
      id,
      level,
      observable: key !== undefined,
      assessed: false,
      reason: result.reason,
      ...(key ? { assessedWith: { profileKeys: [key] } } : {}),
    }
  }
  const base = { id, level, observable: true }
  if (ran.some(judgedSomething)) return { ...base, assessed: true }
  const reasons = [...new Set(ran.map((o) => o.reason).filter((reason): reason is string => !!reason))]
  const reason = reasons.length > 0 ? reasons.join('; ') : (result.reason ?? 'none of its checks judged anything')
  const assessedWith = remedyOf(reasons, profile)
  return { ...base, assessed: false, reason, ...(assessedWith ? { assessedWith } : {}) }
}

/**
 * The inputs and profile keys that the skip reasons name, each once; undefined when none of them is a missing input.
 */
function remedyOf(reasons: readonly string[], profile: Profile | undefined): AssessedWith | undefined {
  const inputs = new Set<string>()
  const profileKeys = new Set<ProfileKey>()
  for (const remedy of reasons.map((reason) => REMEDIES.get(reason))) {
    for (const input of remedy?.inputs ?? []) inputs.add(input)
    for (const key of remedy?.profileKeys ?? []) if (!stated(profile, key)) profileKeys.add(key)
  }
  if (inputs.size === 0 && profileKeys.size === 0) return undefined
  return {
    ...(inputs.size > 0 ? { inputs: [...inputs] } : {}),
    ...(profileKeys.size > 0 ? { profileKeys: [...profileKeys] } : {}),
  }
}
