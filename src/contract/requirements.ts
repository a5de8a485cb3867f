import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { specPath } from '../core/package-root.js'
import type { RequirementId } from './catalogue-ids.js'
import type { ProfileKey } from '../profile/profile.js'

export type Level = 'MUST' | 'SHOULD'

export interface Requirement {
  id: RequirementId
  section: string
  level: Level
  rule: string
  /** The contract sentence(s) the rule rests on, verbatim. */
  quote: string[]
  /** True when the rule rests on a reading of its quote rather than a sentence that states it (then it is SHOULD). */
  inferred?: true
  observable: boolean
  reason?: string
  /**
   * Why the rule is no wider than its quote: the sentence that makes a MUST unavoidable, or what was cut back to a
   * reading.
   */
  note?: string
  /**
   * The profile key that makes a requirement the contract leaves "not shown" assessable (specs/profile.schema.json).
   */
  profile?: ProfileKey
}

/** A level as reports show it: `SHOULD (inferred)` for a rule that rests on a reading of the contract. */
export function levelLabel(rule: { level: Level; inferred?: boolean }): string {
  return rule.inferred ? `${rule.level} (inferred)` : rule.level
}

let cached: Requirement[] | undefined

export function loadRequirements(): Requirement[] {
  cached ??= (parse(readFileSync(specPath('requirements.yaml'), 'utf8')) as { requirements: Requirement[] })
    .requirements
  return cached
}

export function requirementById(id: string): Requirement {
  const found = loadRequirements().find((r) => r.id === id)
  if (!found) throw new Error(`unknown requirement ${id}`)
  return found
}
