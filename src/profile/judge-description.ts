import { Validator } from '@seriousme/openapi-schema-validator'
import type { ValidateFunction } from 'ajv'
import { operations, type Operation } from '../contract/operations.js'
import { compatibilityCorpus, type CorpusBody } from './compatibility-corpus.js'
import { configSchemaCompiler } from './config-schema.js'

type Document = { openapi?: unknown; info?: { version?: unknown }; paths?: Record<string, Record<string, unknown>> }

/**
 * A path template with its parameter names left out: /v1/intents/{} matches /v1/intents/{hash} and
 * /v1/intents/{orderHash}.
 */
const shapeOf = (template: string) => template.replace(/\{[^}]*\}/g, '{}')

/** The published path of an operation: the one of the same shape as the contract's. */
function publishedPath(document: Document, op: Operation): string | undefined {
  return Object.keys(document.paths ?? {}).find((path) => shapeOf(path) === shapeOf(op.template))
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1')

/**
 * The JSON pointer of the 200 JSON body schema of an operation in the published document, following a $ref'd response.
 */
function successSchemaPointer(document: Document, path: string): string | undefined {
  const get = document.paths?.[path]?.get as
    { responses?: Record<string, { $ref?: string; content?: Record<string, unknown> }> } | undefined
  let response = get?.responses?.['200']
  let pointer = `#/paths/${escapePointer(path)}/get/responses/200`
  if (response?.$ref?.startsWith('#/')) {
    pointer = response.$ref
    const member = (node: unknown, segment: string) =>
      (node as Record<string, unknown> | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')]
    response = pointer.slice(2).split('/').reduce<unknown>(member, document) as typeof response
  }
  return response?.content?.['application/json'] ? `${pointer}/content/application~1json/schema` : undefined
}

/**
 * What the checks of VER-OPENAPI find in a published description: judged once, before the run, since validating it is
 * CPU-bound.
 */
export interface DescriptionFindings {
  /** Why it is not a valid OpenAPI 3.1.0 document of interface 1.0.0 with the six operations; empty when it is. */
  document: string[]
  /** Where it disagrees with the contract on the corpus of known bodies; empty when it agrees. */
  compatibility: string[]
  /** How many bodies of each verdict the compatibility judgement rests on. */
  corpus: { accepted: number; forbidden: number }
}

/**
 * Stands for the description's source in findings kept for a later run, which may read the same document from elsewhere
 * (the embedded reference's port).
 */
const SOURCE = '\u0000source\u0000'
/**
 * The findings of the documents judged last, by their JSON: a process that runs again (a self-test, the API) judges the
 * same description again, and judging it is most of a run's set-up.
 */
const judgedDocuments = new Map<string, Promise<DescriptionFindings>>()
const KEPT_DOCUMENTS = 4

/**
 * Judges a published description: valid OpenAPI 3.1.0 (a maintained validator), version 1.0.0, the six operations,
 * compatible with the contract.
 */
export async function judgeDescription(source: string, document: unknown): Promise<DescriptionFindings> {
  const key = JSON.stringify(document)
  let judged = judgedDocuments.get(key)
  if (!judged) {
    const { accepted, forbidden } = compatibilityCorpus()
    judged = documentProblems(SOURCE, document as Document).then((problems) => ({
      document: problems,
      compatibility: compatibilityProblems(SOURCE, document as Document, accepted, forbidden),
      corpus: { accepted: accepted.length, forbidden: forbidden.length },
    }))
    judgedDocuments.set(key, judged)
    if (judgedDocuments.size > KEPT_DOCUMENTS) judgedDocuments.delete(judgedDocuments.keys().next().value!)
  }
  const findings = await judged
  const named = (problems: readonly string[]) => problems.map((problem) => problem.replaceAll(SOURCE, source))
  return { document: named(findings.document), compatibility: named(findings.compatibility), corpus: findings.corpus }
}

/** Compiling the OpenAPI 3.1 schema takes half a second; a validator keeps it for every later document. */
let validator: Validator | undefined

async function documentProblems(source: string, doc: Document): Promise<string[]> {
  const problems: string[] = []
  validator ??= new Validator()
  const result = await validator.validate(structuredClone(doc) as Record<string, unknown>)
  if (!result.valid) {
    const errors =
      typeof result.errors === 'string'
        ? result.errors
        : (result.errors ?? [])
            .slice(0, 3)
            .map((e) => `${e.instancePath || '/'} ${e.message} (${e.keyword})`)
            .join('; ')
    problems.push(`${source} is not a valid OpenAPI document (@seriousme/openapi-schema-validator): ${errors}`)
  }
  if (doc.openapi !== '3.1.0') problems.push(`${source} declares openapi ${JSON.stringify(doc.openapi)}, not "3.1.0"`)
  if (doc.info?.version !== '1.0.0')
    problems.push(`${source} declares info.version ${JSON.stringify(doc.info?.version)}, not "1.0.0"`)
  const missing = operations().filter((op) => {
    const path = publishedPath(doc, op)
    return path === undefined || doc.paths![path]!.get === undefined
  })
  if (missing.length > 0)
    problems.push(`${source} does not describe ${missing.map((op) => `GET ${op.template} (${op.id})`).join(', ')}`)
  return problems
}

function compatibilityProblems(
  source: string,
  doc: Document,
  accepted: readonly CorpusBody[],
  forbidden: readonly CorpusBody[],
): string[] {
  const ajv = configSchemaCompiler()
  try {
    ajv.addSchema(doc as object, 'published', undefined, false)
  } catch (error) {
    return [`${source}: its schemas cannot be read as JSON Schema 2020-12: ${(error as Error).message}`]
  }
  const validators = new Map<string, ValidateFunction | string>()
  const validatorOf = (op: Operation): ValidateFunction | string => {
    if (!validators.has(op.id)) {
      const path = publishedPath(doc, op)
      const pointer = path && successSchemaPointer(doc, path)
      try {
        validators.set(
          op.id,
          pointer
            ? ajv.compile({ $ref: `published${pointer}` })
            : `${source} gives no 200 JSON body schema for GET ${op.template}`,
        )
      } catch (error) {
        validators.set(
          op.id,
          `${source}: the 200 body schema of GET ${op.template} does not compile: ${(error as Error).message}`,
        )
      }
    }
    return validators.get(op.id)!
  }
  const problems = new Set<string>()
  const judge = (entry: CorpusBody, contractAccepts: boolean) => {
    const validate = validatorOf(operations().find((op) => op.id === entry.operation)!)
    if (typeof validate === 'string') problems.add(validate)
    else if (validate(entry.body) !== contractAccepts) {
      problems.add(
        contractAccepts
          ? `${source} rejects a ${entry.operation} body the contract accepts (${entry.from})`
          : `${source} accepts a ${entry.operation} body the contract forbids (${entry.from}): ${JSON.stringify(entry.body).slice(0, 300)}`,
      )
    }
  }
  for (const entry of accepted) judge(entry, true)
  for (const entry of forbidden) judge(entry, false)
  return [...problems]
}
