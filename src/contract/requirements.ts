import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { specPath } from '../package-root.js'
import type { ProfileKey } from '../profile/profile.js'

export type Level = 'MUST' | 'SHOULD'

export interface Requirement {
  id: string
  section: string
  level: Level
  rule: string
  observable: boolean
  reason?: string
  /** The profile key that makes a requirement the contract leaves "not shown" assessable (specs/profile.schema.json). */
  profile?: ProfileKey
}

let cached: Requirement[] | undefined

export function loadRequirements(): Requirement[] {
  cached ??= (parse(readFileSync(specPath('requirements.yaml'), 'utf8')) as { requirements: Requirement[] }).requirements
  return cached
}

export function requirementById(id: string): Requirement {
  const found = loadRequirements().find((r) => r.id === id)
  if (!found) throw new Error(`unknown requirement ${id}`)
  return found
}
