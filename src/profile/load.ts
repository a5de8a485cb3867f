import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js'
import { distance } from 'fastest-levenshtein'
import { parse as parseYaml } from 'yaml'
import { specPath } from '../core/package-root.js'
import { closestFirst } from '../core/closest.js'
import { yamlProblem } from '../core/yaml-problem.js'
import { operations } from '../contract/operations.js'
import { configSchemaCompiler } from './config-schema.js'
import { ProfileError } from '../core/errors.js'
import { judgeDescription } from './judge-description.js'
import { takesEarlierValues } from './chained-step.js'
import { realtimeProblems } from './realtime.js'
import type { Profile, ProfileValues } from './profile.js'
import { readPublishedDescription, type DescriptionFetch } from './published-description.js'

const operationIds: ReadonlySet<string> = new Set(operations().map((op) => op.id))

let validateFile: ReturnType<Ajv2020['compile']> | undefined

/** The key an ajv error is about, as a profile file spells it: profile.pagination.listMarkets.maxPageSize. */
function keyOf(error: ErrorObject): string {
  return error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.')
}

/** What is wrong, naming the key, the value given and what would be right (the closest first). */
function problemOf(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') {
    const unknown = (error.params as { additionalProperty: string }).additionalProperty
    const known = Object.keys((error.parentSchema as { properties?: object }).properties ?? {})
    const [closest] = closestFirst(unknown, known)
    const prefix = keyOf(error)
    const named = (name: string) => `'${prefix ? `${prefix}.` : ''}${name}'`
    return `unknown key ${named(unknown)} (${closest !== undefined && distance(unknown, closest) <= Math.max(2, unknown.length / 3) ? `did you mean ${named(closest)}?` : `the keys there: ${known.join(', ')}`})`
  }
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues: string[] }).allowedValues
    const what = allowed.every((value) => operationIds.has(value))
      ? 'an operation of the contract that this key takes'
      : 'a value this key takes'
    const given = `${error.propertyName === undefined ? 'is' : 'has the key'} ${JSON.stringify(error.data)}`
    return `${keyOf(error)} ${given}, not ${what} (closest first: ${closestFirst(String(error.data), allowed).join(', ')})`
  }
  if (error.keyword === 'required' && error.instancePath === '')
    return "has no 'profile' key: a profile file is a mapping under 'profile:' (ipts-conformance profile init writes one)"
  return `${keyOf(error) || 'the file'} ${error.message ?? error.keyword}`
}

/**
 * Checks a parsed profile file against specs/profile.schema.json and the rules a schema cannot state; returns its
 * values. `where` names the file in a ProfileError.
 */
export function profileValues(parsed: unknown, where: string): ProfileValues {
  const [first] = profileProblems(parsed)
  if (first !== undefined) throw new ProfileError(where, first)
  return (parsed as { profile: ProfileValues | null }).profile ?? {}
}

/**
 * Every problem of a parsed profile file, the one that explains the rest first: the schema's, else the rules a schema
 * cannot state. A run stops at the first; `profile validate` lists them all.
 */
export function profileProblems(parsed: unknown): string[] {
  validateFile ??= new Ajv2020({
    allErrors: true,
    verbose: true,
    strict: true,
    allowUnionTypes: true,
    // The project's own schema, checked against the meta-schema by test/meta/openapi.test.ts, not in every process.
    // Stryker disable next-line BooleanLiteral: equivalent: a schema checked again only costs time
    validateSchema: false,
  }).compile(JSON.parse(readFileSync(specPath('profile.schema.json'), 'utf8')))
  if (!validateFile(parsed)) {
    // An unknown key explains the rest (a misspelt 'profile' is also a missing one); a misspelt name as a key is
    // reported by its enum error, which ajv gives before the propertyNames error.
    const errors = validateFile.errors ?? []
    const first = errors.find((e) => e.keyword === 'additionalProperties') ?? errors[0]!
    return [...new Set([first, ...errors].map(problemOf))]
  }
  const values = (parsed as { profile: ProfileValues | null }).profile ?? {}
  const problems: string[] = []
  for (const [operation, rule] of Object.entries(values.pagination ?? {})) {
    if (rule.minPageSize > rule.maxPageSize)
      problems.push(
        `profile.pagination.${operation} has minPageSize ${rule.minPageSize} above maxPageSize ${rule.maxPageSize}`,
      )
  }
  const keyPattern = values.writes?.keyPattern
  if (keyPattern !== undefined) {
    let pattern: RegExp | undefined
    try {
      pattern = new RegExp(keyPattern, 'u')
    } catch (error) {
      problems.push(`profile.writes.keyPattern is not a regular expression: ${(error as Error).message}`)
    }
    // The contract allows 8 to 128 characters: a reading of "safe" narrows the characters, not the length.
    if (pattern && ![8, 128].every((length) => pattern.test('aZ9'.repeat(43).slice(0, length))))
      problems.push('profile.writes.keyPattern refuses keys of 8 and 128 letters and digits, which the contract allows')
  }
  for (const [name, op] of Object.entries(values.writes?.operations ?? {})) {
    const cancelled = op.cancels && values.writes!.operations[op.cancels.operation]
    if (op.cancels && (op.kind !== 'cancellation' || !cancelled?.receipt || !cancelled.statusPath)) {
      problems.push(
        `profile.writes.operations.${name}.cancels names ${op.cancels.operation}, which must be an intake of these writes with its receipt and statusPath, from a cancellation`,
      )
    }
    if (op.cancels && !takesEarlierValues(op.cancels))
      problems.push(
        `profile.writes.operations.${name}.cancels names no value of the submission it cancels: its path, query, headers or bodies.command must hold {id}, {receipt} or {/json/pointer}`,
      )
    for (const [key, step] of [
      [name, op],
      [`${name}.cancels`, op.cancels],
    ] as const) {
      const both = step?.accepted?.find((status) => step.refused?.includes(status))
      if (both !== undefined)
        problems.push(`profile.writes.operations.${key} lists ${both} as both accepted and refused`)
    }
    const accepting = op.keyReuse?.refused.find((status) => op.accepted?.includes(status) ?? status < 300)
    if (accepting !== undefined)
      problems.push(
        `profile.writes.operations.${name}.keyReuse.refused lists ${accepting}, a status this operation accepts`,
      )
  }
  if (values.realtime) problems.push(...realtimeProblems(values.realtime))
  const both = values.restrictedKey?.refused?.find((op) => values.restrictedKey?.granted?.includes(op))
  if (both) problems.push(`profile.restrictedKey lists ${both} as both refused and granted`)
  return problems
}

/**
 * Reads and checks a profile file; `givenBy` names what gave its path (a flag, a variable, a config file's key) when it
 * cannot be read.
 */
export function readProfileFile(path: string, givenBy = '--profile'): ProfileValues {
  return profileValues(parsedProfileFile(path, givenBy), path)
}

/** A profile file read and parsed as YAML, not yet checked; a ProfileError when it cannot be read or parsed. */
export function parsedProfileFile(path: string, givenBy = '--profile'): unknown {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new ProfileError(givenBy, `cannot read ${path} (${(error as { code?: string }).code ?? 'error'})`)
  }
  let parsed: unknown
  try {
    parsed = parseYaml(text)
  } catch (error) {
    throw new ProfileError(path, yamlProblem(error))
  }
  return parsed
}

/**
 * A profile given where a run is configured: a profile file, or its values inline (a --config file's profile mapping).
 */
export type ProfileSource = { file: string } | { values: ProfileValues; baseDir: string; source: string }

/**
 * Reads what the profile's keys name: the config schema (parsed and compiled), and the published description
 * (read from a file, or fetched through the run's polite client). A file or URL that cannot be used is a ProfileError.
 * Without a fetch (judging recorded traffic) the description is not read: the checks that read it are not assessed
 * there.
 */
export async function loadProfile(given: ProfileSource, fetchDescription?: DescriptionFetch): Promise<Profile> {
  const values = 'file' in given ? readProfileFile(given.file) : given.values
  const baseDir = 'file' in given ? dirname(resolve(given.file)) : given.baseDir
  const profile: Profile = { source: 'file' in given ? given.file : given.source, baseDir, values }
  if (values.configSchema)
    profile.configSchema = readConfigSchema(resolve(baseDir, values.configSchema), profile.source)
  if (values.openapi && fetchDescription) {
    const { source, document } = await readPublishedDescription(
      values.openapi,
      baseDir,
      fetchDescription,
      profile.source,
    )
    profile.openapi = { source, findings: await judgeDescription(source, document) }
  }
  return profile
}

/**
 * The config schemas compiled so far, by their JSON: a process that loads the same profile again (a self-test, the API)
 * compiles it once, and gets the same schema object back, which the check that judges with it compiled once too.
 */
const compiledSchemas = new Map<string, object>()

function compiledOnce(schema: object): object {
  const key = JSON.stringify(schema)
  const known = compiledSchemas.get(key)
  if (known) return known
  configSchemaCompiler().compile(schema)
  compiledSchemas.set(key, schema)
  return schema
}

function readConfigSchema(path: string, where: string): Record<string, unknown> {
  let schema: unknown
  try {
    schema = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    const why = (error as { code?: string }).code ?? `not JSON: ${(error as Error).message}`
    throw new ProfileError(where, `profile.configSchema cannot be read from ${path} (${why})`)
  }
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
    throw new ProfileError(where, `profile.configSchema: ${path} is not a JSON Schema object`)
  try {
    schema = compiledOnce(schema as object)
  } catch (error) {
    throw new ProfileError(
      where,
      `profile.configSchema: ${path} does not compile as JSON Schema 2020-12: ${(error as Error).message.split('\n')[0]}`,
    )
  }
  return schema as Record<string, unknown>
}
