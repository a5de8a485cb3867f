import { readFileSync } from 'node:fs'
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats'
import { parse } from 'yaml'
import { specPath } from '../core/package-root.js'

const SCHEMA_BASE = 'openapi.yaml#/components/schemas/'
// ajv-formats is CommonJS: under NodeNext its default import is the module object, not the plugin.
export const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  addFormatsModule) as unknown as FormatsPlugin

export interface OpenApiDocument {
  openapi: string
  info: { version: string }
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>
  components: { schemas: Record<string, unknown> }
}

let document: OpenApiDocument | undefined
let ajv: Ajv2020 | undefined
const validators = new Map<string, ValidateFunction>()

export function loadOpenApi(): OpenApiDocument {
  document ??= parse(readFileSync(specPath('openapi.yaml'), 'utf8')) as OpenApiDocument
  return document
}

/**
 * The pattern of a component schema of specs/openapi.yaml, as a RegExp: generators and checks derive from it rather
 * than retype it.
 */
export function schemaPattern(name: string): RegExp {
  const schema = loadOpenApi().components.schemas[name] as { pattern?: string } | undefined
  if (!schema?.pattern) throw new Error(`specs/openapi.yaml: component schema ${name} has no pattern`)
  return new RegExp(schema.pattern)
}

function compiler(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020({
      strict: true,
      allErrors: true,
      allowUnionTypes: true,
      verbose: true,
      // The project's own schemas, checked against the meta-schema by test/meta/openapi.test.ts: checking them in every
      // process cost more than compiling them.
      // Stryker disable next-line BooleanLiteral: equivalent: a schema checked again only costs time
      validateSchema: false,
    })
    addFormats(ajv)
    // Registered under their OpenAPI pointers, the document's local refs (#/components/schemas/X) resolve as they are.
    for (const [name, schema] of Object.entries(loadOpenApi().components.schemas))
      ajv.addSchema(schema as object, SCHEMA_BASE + name)
  }
  return ajv
}

/** A compiled validator for one named component schema of specs/openapi.yaml. */
export function schemaValidator(name: string): ValidateFunction {
  let validate = validators.get(name)
  if (!validate) {
    validate = compiler().getSchema(SCHEMA_BASE + name)
    if (!validate) throw new Error(`specs/openapi.yaml has no component schema ${name}`)
    validators.set(name, validate)
  }
  return validate
}

export interface SchemaViolation {
  schema: string
  keyword: string
  instancePath: string
  schemaPath: string
  params: Record<string, unknown>
  message: string
  value?: unknown
}

export function validateAgainst(name: string, value: unknown): SchemaViolation[] {
  const validate = schemaValidator(name)
  return validate(value) ? [] : violationsOf(name, validate.errors)
}

/** ajv's errors as evidence shows them, under the name of the schema that raised them. */
export function violationsOf(name: string, errors: ErrorObject[] | null | undefined): SchemaViolation[] {
  return (errors ?? []).map((error: ErrorObject) => ({
    schema: name,
    keyword: error.keyword,
    instancePath: error.instancePath,
    schemaPath: error.schemaPath,
    params: error.params,
    message: error.message ?? error.keyword,
    value: error.data,
  }))
}
