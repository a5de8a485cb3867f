import type { Operation } from './operations.js'
import { loadOpenApi, validateAgainst, type SchemaViolation } from './schemas.js'

/** A schema violation of a success body, with the requirement of specs/requirements.yaml whose rule it breaks. */
export interface RuledViolation extends SchemaViolation {
  requirement: string
}

interface SchemaNode {
  $ref?: string
  allOf?: SchemaNode[]
  properties?: Record<string, SchemaNode>
  items?: SchemaNode
}

/**
 * The requirement each component schema's own rules belong to. A violation belongs to the innermost component
 * that governs its location: a member typed by a component (Hash, UnsignedIntegerString…) belongs to that type,
 * an inline member to the record holding it. Two keywords have rules of their own: extra members of the strict
 * intent objects, and the retryable constant (checked by the intents concern). `wadMembers` is the rule of a
 * value-typed member whose name ends in Wad.
 */
interface ComponentRules {
  requirement: string
  additionalProperties?: string
  const?: string
  wadMembers?: string
}

const STRICT = 'SHAPE-INTENT-STRICT'
const PNL_GROUP: ComponentRules = { requirement: 'SHAPE-PNL', wadMembers: 'CONV-PNL-WAD-STRING' }

const componentRules: Readonly<Record<string, ComponentRules>> = {
  IntentStatus: { requirement: 'SHAPE-INTENT-STATUS', additionalProperties: STRICT },
  IntentFailure: {
    requirement: 'SHAPE-INTENT-FAILURE',
    additionalProperties: STRICT,
    const: 'STATE-FAILURE-NOT-RETRYABLE',
  },
  IntentSettlement: { requirement: 'SHAPE-INTENT-SETTLEMENT', additionalProperties: STRICT },
  IntentTrigger: { requirement: 'SHAPE-INTENT-TRIGGER', additionalProperties: STRICT },
  WireOrder: { requirement: 'SHAPE-WIRE-ORDER' },
  ErrorSelector: { requirement: 'SHAPE-INTENT-SETTLEMENT' },
  Hash: { requirement: 'CONV-HASH-FORMAT' },
  Address: { requirement: 'CONV-ADDRESS-FORMAT' },
  UnsignedIntegerString: { requirement: 'CONV-UINT-STRING', wadMembers: 'CONV-WAD-UINT' },
  PnlFunding: PNL_GROUP,
  PnlPositions: PNL_GROUP,
  PnlSettlements: PNL_GROUP,
  Vault: { requirement: 'SHAPE-VAULT' },
  Market: { requirement: 'SHAPE-MARKET' },
  Balance: { requirement: 'SHAPE-BALANCE' },
  // Not here: ConfigResponse, any JSON value, which nothing violates; TraderPnl, whose only rule is its type at /data,
  // the envelope's data member (ENV-DATA).
}

/** Members of the list and read envelope; a violation at the top of an enveloped body belongs to the member's rule. */
const envelopeMembers: Readonly<Record<string, string>> = {
  data: 'ENV-DATA',
  cursor: 'ENV-CURSOR-TYPE',
  checkpoint: 'ENV-CHECKPOINT-TYPE',
  requestId: 'ENV-REQUESTID-TYPE',
}

/** Where a response narrows an envelope member further than the envelope does, the narrowing is a rule of its own. */
const narrowedMembers: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  VaultResponse: { checkpoint: 'SHAPE-VAULT-CHECKPOINT' },
}

const COMPONENT_REF = '#/components/schemas/'
const VALUE_KEYWORDS = new Set(['type', 'pattern'])
const WAD_MEMBER = /Wad$/

function schemaOf(name: string): SchemaNode {
  return loadOpenApi().components.schemas[name] as SchemaNode
}

function expand(node: SchemaNode, components: string[]): SchemaNode[] {
  if (node.$ref) {
    const name = node.$ref.slice(COMPONENT_REF.length)
    components.push(name)
    return expand(schemaOf(name), components)
  }
  return [node, ...(node.allOf ?? []).flatMap((branch) => expand(branch, components))]
}

function pointerSegments(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
}

interface Location {
  /** The schema nodes that govern the location; none where the instance leaves the schema. */
  nodes: SchemaNode[]
  /** The component schemas met on the way from the root, outermost first. */
  components: string[]
}

function locate(root: string, pointer: string): Location {
  const components: string[] = []
  let nodes = expand({ $ref: COMPONENT_REF + root }, components)
  for (const segment of pointerSegments(pointer)) {
    nodes = nodes.flatMap((node) => {
      const child = node.properties?.[segment] ?? (/^\d+$/.test(segment) ? node.items : undefined)
      return child ? expand(child, components) : []
    })
  }
  return { nodes, components }
}

/** The innermost component schema that governs a location of the instance. */
function ownerAt(root: string, pointer: string): string {
  return locate(root, pointer).components.at(-1)!
}

function isEnvelope(schema: string): boolean {
  return locate(schema, '').components.includes('Envelope')
}

/** Whether the operation's success body is the list and read envelope. */
export function isEnveloped(op: Operation): boolean {
  return isEnvelope(op.successSchema)
}

/** The member a violation is about: the missing or extra one, or the one whose value is wrong. */
function memberOf(violation: SchemaViolation): string | undefined {
  const { missingProperty, additionalProperty } = violation.params as {
    missingProperty?: string
    additionalProperty?: string
  }
  return missingProperty ?? additionalProperty ?? pointerSegments(violation.instancePath).at(-1)
}

function envelopeRequirement(schema: string, violation: SchemaViolation, body: unknown): string {
  const member = memberOf(violation)
  if (member === undefined) return envelopeMembers.data!
  const narrowed = narrowedMembers[schema]?.[member]
  const envelopeFlagsMember = () => validateAgainst('Envelope', body).some((v) => memberOf(v) === member)
  if (narrowed && !envelopeFlagsMember()) return narrowed
  return envelopeMembers[member] ?? envelopeMembers.data!
}

function requirementOf(schema: string, violation: SchemaViolation, body: unknown): string {
  if (
    pointerSegments(violation.instancePath).length <= 1 &&
    violation.keyword !== 'additionalProperties' &&
    isEnvelope(schema)
  ) {
    return envelopeRequirement(schema, violation, body)
  }
  const owner = ownerAt(schema, violation.instancePath)
  const rules = componentRules[owner]
  if (!rules) throw new Error(`no requirement is mapped for violations of ${owner} (${violation.instancePath})`)
  const byKeyword = rules[violation.keyword as 'additionalProperties' | 'const']
  if (byKeyword) return byKeyword
  if (rules.wadMembers && VALUE_KEYWORDS.has(violation.keyword) && WAD_MEMBER.test(memberOf(violation) ?? ''))
    return rules.wadMembers
  return rules.requirement
}

function* members(
  value: unknown,
  pointer = '',
): Generator<{ pointer: string; parent: string; name: string; value: unknown }> {
  if (value === null || typeof value !== 'object') return
  for (const [name, member] of Object.entries(value)) {
    const at = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`
    yield { pointer: at, parent: pointer, name, value: member }
    yield* members(member, at)
  }
}

/**
 * The Wad convention where the schema types a Wad member only as string (Vault, Market, and members it does not
 * list): such a member is an UnsignedIntegerString. Members whose component already rules Wad members (typed by
 * UnsignedIntegerString, or the PnL groups the contract types only as string) are left to the schema.
 */
function wadConventionViolations(schema: string, body: unknown): RuledViolation[] {
  const violations: RuledViolation[] = []
  for (const member of members(body)) {
    // Where the instance has left the schema, the structural violation is reported and the member's rule is unknown.
    if (!WAD_MEMBER.test(member.name) || locate(schema, member.parent).nodes.length === 0) continue
    if (componentRules[ownerAt(schema, member.pointer)]?.wadMembers) continue
    for (const violation of validateAgainst('UnsignedIntegerString', member.value)) {
      violations.push({
        ...violation,
        instancePath: member.pointer + violation.instancePath,
        requirement: componentRules.UnsignedIntegerString!.wadMembers!,
      })
    }
  }
  return violations
}

/** The violations found in a parsed body, which every body rule of one exchange asks for in turn. */
const ruledOfBody = new WeakMap<object, { schema: string; violations: readonly RuledViolation[] }>()

/** Every violation of an operation's success body, each with the requirement it breaks. */
export function ruledViolations(operation: Operation, body: unknown): readonly RuledViolation[] {
  const schema = operation.successSchema
  const known = body !== null && typeof body === 'object' ? ruledOfBody.get(body) : undefined
  if (known?.schema === schema) return known.violations
  const fromSchema = validateAgainst(schema, body).map((violation) => ({
    ...violation,
    requirement: requirementOf(schema, violation, body),
  }))
  const violations = [...fromSchema, ...wadConventionViolations(schema, body)]
  if (body !== null && typeof body === 'object') ruledOfBody.set(body, { schema, violations })
  return violations
}
