import type { RequirementId } from '../contract/catalogue-ids.js'
import { operations } from '../contract/operations.js'
import { isEnveloped } from '../contract/violation-rules.js'
import { bodyRuleCheck } from './success-bodies.js'
import type { Check } from './types.js'

const envelopeRules: readonly (readonly [slug: string, requirement: RequirementId, carries: string])[] = [
  ['data', 'ENV-DATA', 'data, an object or an array as its operation defines'],
  ['cursor-type', 'ENV-CURSOR-TYPE', 'a cursor that is a string, null or missing'],
  ['checkpoint-type', 'ENV-CHECKPOINT-TYPE', 'a checkpoint, when present, that is a string or null'],
  ['request-id-type', 'ENV-REQUESTID-TYPE', 'a requestId, when present, that is a string'],
]

/** Each rule is checked on every enveloped operation whose inputs were given. */
export const envelopeChecks: readonly Check[] = envelopeRules.map(([slug, requirement, carries]) =>
  bodyRuleCheck({
    id: `envelope/${slug}`,
    requirement,
    title: `every enveloped success body carries ${carries}`,
    operations: operations()
      .filter(isEnveloped)
      .map((op) => op.id),
  }),
)
