import { Validator } from '@seriousme/openapi-schema-validator'
import type { ValidateFunction } from 'ajv'
import { operations, type Operation } from '../contract/operations.js'
import { compatibilityCorpus, type CorpusBody } from '../profile/compatibility-corpus.js'
import { configSchemaCompiler } from '../profile/config-schema.js'
import type { Check, CheckContext } from './types.js'

type Document = { openapi?: unknown; info?: { version?: unknown }; paths?: Record<string, Record<string, unknown>> }

const published = (ctx: CheckContext) => ctx.settings.profile!.openapi!
/** A path template with its parameter names left out: /v1/intents/{} matches /v1/intents/{hash} and /v1/intents/{orderHash}. */
const shapeOf = (template: string) => template.replace(/\{[^}]*\}/g, '{}')

/** The published path of an operation: the one of the same shape as the contract's. */
function publishedPath(document: Document, op: Operation): string | undefined {
  return Object.keys(document.paths ?? {}).find((path) => shapeOf(path) === shapeOf(op.template))
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1')

/** The JSON pointer of the 200 JSON body schema of an operation in the published document, following a $ref'd response. */
function successSchemaPointer(document: Document, path: string): string | undefined {
  const get = document.paths?.[path]?.get as { responses?: Record<string, { $ref?: string; content?: Record<string, unknown> }> } | undefined
  let response = get?.responses?.['200']
  let pointer = `#/paths/${escapePointer(path)}/get/responses/200`
  if (response?.$ref?.startsWith('#/')) {
    pointer = response.$ref
    response = pointer.slice(2).split('/').reduce<any>((node, segment) => node?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')], document)
  }
  return response?.content?.['application/json'] ? `${pointer}/content/application~1json/schema` : undefined
}

export const profileOpenApiChecks: readonly Check[] = [
  {
    id: 'profile/openapi-document',
    requirement: 'VER-OPENAPI',
    title: "the profile's published description is a valid OpenAPI 3.1.0 document of interface version 1.0.0 with the six operations at their paths",
    profile: 'openapi',
    async run(ctx) {
      const { source, document } = published(ctx)
      const doc = document as Document
      const validator = new Validator()
      const result = await validator.validate(structuredClone(document) as Record<string, unknown>)
      if (!result.valid) {
        const errors = typeof result.errors === 'string' ? result.errors : (result.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message} (${e.keyword})`).join('; ')
        ctx.fail(`${source} is not a valid OpenAPI document (@seriousme/openapi-schema-validator): ${errors}`)
      }
      if (doc.openapi !== '3.1.0') ctx.fail(`${source} declares openapi ${JSON.stringify(doc.openapi)}, not "3.1.0"`)
      if (doc.info?.version !== '1.0.0') ctx.fail(`${source} declares info.version ${JSON.stringify(doc.info?.version)}, not "1.0.0"`)
      const missing = operations().filter((op) => {
        const path = publishedPath(doc, op)
        return path === undefined || doc.paths![path]!.get === undefined
      })
      if (missing.length > 0) ctx.fail(`${source} does not describe ${missing.map((op) => `GET ${op.template} (${op.id})`).join(', ')}`)
    },
  },
  {
    id: 'profile/openapi-compatible',
    requirement: 'VER-OPENAPI',
    title: "the profile's published description accepts the success bodies the contract accepts and rejects those it forbids",
    profile: 'openapi',
    async run(ctx) {
      const { source, document } = published(ctx)
      const doc = document as Document
      const ajv = configSchemaCompiler()
      try {
        ajv.addSchema(document as object, 'published', undefined, false)
      } catch (error) {
        ctx.fail(`${source}: its schemas cannot be read as JSON Schema 2020-12: ${(error as Error).message}`)
      }
      const validators = new Map<string, ValidateFunction | string>()
      const validatorOf = (op: Operation): ValidateFunction | string => {
        if (!validators.has(op.id)) {
          const path = publishedPath(doc, op)
          const pointer = path && successSchemaPointer(doc, path)
          try {
            validators.set(op.id, pointer ? ajv.compile({ $ref: `published${pointer}` }) : `${source} gives no 200 JSON body schema for GET ${op.template}`)
          } catch (error) {
            validators.set(op.id, `${source}: the 200 body schema of GET ${op.template} does not compile: ${(error as Error).message}`)
          }
        }
        return validators.get(op.id)!
      }
      const judge = (entry: CorpusBody): { problem?: string; valid?: boolean } => {
        const validate = validatorOf(operations().find((op) => op.id === entry.operation)!)
        return typeof validate === 'string' ? { problem: validate } : { valid: validate(entry.body) as boolean, problem: undefined }
      }
      const { accepted, forbidden } = await compatibilityCorpus()
      for (const entry of accepted) {
        const verdict = judge(entry)
        if (verdict.problem) ctx.fail(verdict.problem)
        if (!verdict.valid) ctx.fail(`${source} rejects a ${entry.operation} body the contract accepts (${entry.from})`)
      }
      for (const entry of forbidden) {
        const verdict = judge(entry)
        if (verdict.problem) ctx.fail(verdict.problem)
        if (verdict.valid) ctx.fail(`${source} accepts a ${entry.operation} body the contract forbids (${entry.from}): ${JSON.stringify(entry.body).slice(0, 300)}`)
      }
    },
  },
]
