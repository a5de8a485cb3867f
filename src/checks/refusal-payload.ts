import { operation, type OperationId } from '../contract/operations.js'
import { loadOpenApi, validateAgainst } from '../contract/schemas.js'

interface SchemaObject {
  $ref?: string
  allOf?: SchemaObject[]
  required?: string[]
  properties?: Record<string, SchemaObject>
  items?: SchemaObject
}

const componentName = (ref: string | undefined) => ref?.replace('#/components/schemas/', '')
const component = (name: string) => loadOpenApi().components.schemas[name] as SchemaObject

/** The schema of an enveloped operation's data, from its success schema: an object schema, or the item schema of a list. */
function dataSchemaOf(successSchema: string): { name: string; list: boolean } | undefined {
  for (const part of component(successSchema).allOf ?? []) {
    const data = part.properties?.data
    const name = componentName(data?.$ref) ?? componentName(data?.items?.$ref)
    if (name) return { name, list: data!.$ref === undefined }
  }
  return undefined
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

/** The IntentStatus members a body carries; two or more of them are a status, whatever else the body holds. */
function intentStatusMembers(body: Record<string, unknown>): string[] {
  return (component('IntentStatus').required ?? []).filter((member) => body[member] !== undefined)
}

/**
 * What of the operation's protected payload a refusal's body carries, or undefined when it carries none: a data
 * member valid against the operation's data schema (a non-empty list of valid items), an IntentStatus or two of its
 * members. A bare data member (empty, or not the payload's shape) is not the payload. The configuration's shape is not
 * shown, so nothing is taken as its payload.
 */
export function carriedPayload(operationId: OperationId, body: unknown): string | undefined {
  if (!isObject(body)) return undefined
  const { successSchema } = operation(operationId)
  if (successSchema === 'IntentStatus') {
    if (isObject(body.data) && validateAgainst('IntentStatus', body.data).length === 0) return 'an IntentStatus as its data'
    const members = intentStatusMembers(body)
    return members.length >= 2 ? `the IntentStatus members ${members.join(', ')}` : undefined
  }
  const data = dataSchemaOf(successSchema)
  if (!data) return undefined
  if (data.list) {
    const items = Array.isArray(body.data) ? body.data : []
    const valid = items.length > 0 && items.every((item) => validateAgainst(data.name, item).length === 0)
    return valid ? `its data, ${items.length} valid ${data.name} item${items.length === 1 ? '' : 's'}` : undefined
  }
  return isObject(body.data) && validateAgainst(data.name, body.data).length === 0 ? `its data, a valid ${data.name}` : undefined
}
