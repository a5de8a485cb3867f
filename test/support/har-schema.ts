import { createRequire } from 'node:module'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats'

const require = createRequire(import.meta.url)
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  addFormatsModule) as unknown as FormatsPlugin

/**
 * har-schema: the HAR 1.2 JSON Schema (draft-06) that har-validator validates with. Its schemas use two keywords of
 * their own (min, optional).
 */
export function harValidator(): ValidateFunction {
  const ajv = new Ajv({ strict: false, allErrors: true })
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'))
  addFormats(ajv)
  const schemas = require('har-schema') as Record<string, object>
  for (const schema of Object.values(schemas)) ajv.addSchema(schema)
  return ajv.getSchema('har.json#')!
}
