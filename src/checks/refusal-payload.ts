import { operation, type OperationId } from '../contract/operations.js'
import { loadOpenApi, validateAgainst } from '../contract/schemas.js'

interface SchemaObject {
  $ref?: string
  allOf?: SchemaObject[]
  required?: string[]
  properties?: Record<string, SchemaObject>
  items?: SchemaObject
}

const componentName = (ref: string) => ref.replace('#/components/schemas/', '')
const component = (name: string) => loadOpenApi().components.schemas[name] as SchemaObject

/**
 * The schema of an enveloped operation's data, from its success schema: an object schema, or the item schema of a list.
 */
function dataSchemaOf(successSchema: string): { name: string; list: boolean } | undefined {
  // Stryker disable next-line ArrayDeclaration: equivalent: only ConfigResponse lacks allOf; a string has none
  for (const part of component(successSchema).allOf ?? []) {
    const data = part.properties?.data
    // The Envelope part has no properties; the part that names data gives its schema, an object's $ref or a list's
    // items.
    if (!data) continue
    // Every data member of a success schema's allOf has a $ref or items (specs/openapi.yaml).
    return { name: componentName((data.$ref ?? data.items!.$ref)!), list: data.$ref === undefined }
  }
  return undefined
}

/** The IntentStatus members a body carries; two or more of them are a status, whatever else the body holds. */
function intentStatusMembers(body: Record<string, unknown>): string[] {
  return component('IntentStatus').required!.filter((member) => body[member] !== undefined)
}

/**
 * What of the operation's protected payload a refusal's body carries, or undefined when it carries none: a data
 * member valid against the operation's data schema (a non-empty list of valid items), an IntentStatus or two of its
 * members. A bare data member (empty, or not the payload's shape) is not the payload. The configuration's shape is not
 * shown, so nothing is taken as its payload.
 */
export function carriedPayload(operationId: OperationId, body: unknown): string | undefined {
  // A body that is no object carries no member: a JSON string's, number's or array's members by these names are
  // undefined too.
  const members = (body ?? {}) as Record<string, unknown>
  const { successSchema } = operation(operationId)
  // Each data schema is an object schema: a data member that is no object is not valid against it.
  if (successSchema === 'IntentStatus') {
    if (validateAgainst('IntentStatus', members.data).length === 0) return 'an IntentStatus as its data'
    const present = intentStatusMembers(members)
    return present.length >= 2 ? `the IntentStatus members ${present.join(', ')}` : undefined
  }
  const data = dataSchemaOf(successSchema)
  if (!data) return undefined
  if (data.list) {
    const items = members.data
    if (
      !Array.isArray(items) ||
      items.length === 0 ||
      !items.every((item) => validateAgainst(data.name, item).length === 0)
    )
      return undefined
    return `its data, ${items.length} valid ${data.name} item${items.length === 1 ? '' : 's'}`
  }
  return validateAgainst(data.name, members.data).length === 0 ? `its data, a valid ${data.name}` : undefined
}
