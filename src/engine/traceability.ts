import { allChecks } from '../checks/index.js'
import { exchangeRules } from '../checks/every-response.js'
import { loadRequirements, type Requirement } from '../contract/requirements.js'
import { stated, type Profile } from '../profile/profile.js'
import type { CheckOutcome, CheckStatus, RequirementResult, RequirementStatus } from '../core/report.js'

/** Which outcome of a requirement's checks decides its status: the first one present wins. */
const PRECEDENCE: readonly CheckStatus[] = ['failed', 'not run', 'waived', 'passed', 'skipped']

/** The check IDs of the suite that cite each requirement: every check, and every every-response rule. */
function catalogueCoverage(): Map<string, string[]> {
  const coverage = new Map<string, string[]>()
  for (const { id, requirement } of [...allChecks, ...exchangeRules])
    coverage.set(requirement, [...(coverage.get(requirement) ?? []), id])
  return coverage
}

/** Every requirement of the catalogue, traced to the checks that cover it and what they found in this run. */
export function traceRequirements(
  outcomes: readonly CheckOutcome[],
  profile?: Profile,
  requirements: readonly Requirement[] = loadRequirements(),
): RequirementResult[] {
  const coverage = catalogueCoverage()
  return requirements.map((requirement) => {
    const ran = outcomes.filter((o) => o.requirement === requirement.id)
    const checks = [...new Set([...(coverage.get(requirement.id) ?? []), ...ran.map((o) => o.id)])]
    const { id, section, level, rule, quote, observable } = requirement
    const key = requirement.profile
    const againstProfile = key && stated(profile, key) ? { profile: { key, value: profile.values[key] } } : {}
    return {
      id,
      section,
      level,
      rule,
      quote,
      inferred: requirement.inferred === true,
      observable,
      checks,
      ...verdictOf(requirement, checks, ran, !!againstProfile.profile),
      ...againstProfile,
    }
  })
}

/** Why a requirement the contract leaves "not shown" is not assessed, and the profile key that would assess it. */
export function notAssessedReason(requirement: Requirement): string {
  const reason = requirement.reason ?? 'not observable from outside'
  return requirement.profile
    ? `${reason} A deployment profile that states \`${requirement.profile}\` assesses it (--profile).`
    : reason
}

function verdictOf(
  requirement: Requirement,
  checks: readonly string[],
  ran: readonly CheckOutcome[],
  profiled: boolean,
): { status: RequirementStatus; reason?: string } {
  if (!requirement.observable && !profiled) return { status: 'not-assessable', reason: notAssessedReason(requirement) }
  if (checks.length === 0) return { status: 'uncovered', reason: 'no check of the suite covers this requirement' }
  if (ran.length === 0) return { status: 'skipped', reason: 'none of its checks ran in this run' }
  const status = PRECEDENCE.find((s) => ran.some((o) => o.status === s))!
  const decisive = ran.find((o) => o.status === status)!
  const reason = status === 'waived' ? decisive.waiver?.reason : status === 'passed' ? undefined : decisive.reason
  return reason ? { status, reason: `${decisive.id}: ${reason}` } : { status }
}

/** How many requirements ended in each status. */
export function requirementCounts(requirements: readonly RequirementResult[]): Record<RequirementStatus, number> {
  const counts: Record<RequirementStatus, number> = {
    passed: 0,
    failed: 0,
    skipped: 0,
    'not-assessable': 0,
    uncovered: 0,
    waived: 0,
    'not run': 0,
  }
  for (const r of requirements) counts[r.status]++
  return counts
}
