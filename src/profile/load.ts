import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js'
import { parse as parseYaml } from 'yaml'
import { specPath } from '../core/package-root.js'
import { configSchemaCompiler } from './config-schema.js'
import { ProfileError } from '../core/errors.js'
import { judgeDescription } from './judge-description.js'
import type { Profile, ProfileValues } from './profile.js'
import { readPublishedDescription, type DescriptionFetch } from './published-description.js'


let validateFile: ReturnType<Ajv2020['compile']> | undefined

/** The key an ajv error is about, as a profile file spells it: profile.pagination.listMarkets.maxPageSize. */
function keyOf(error: ErrorObject): string {
  const path = error.instancePath.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
  const extra = error.keyword === 'additionalProperties' ? (error.params as { additionalProperty: string }).additionalProperty : error.keyword === 'propertyNames' ? (error.params as { propertyName: string }).propertyName : undefined
  return [...path, ...(extra === undefined ? [] : [extra])].join('.') || 'the file'
}

function problemOf(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') return 'is not a key of a profile (see specs/profile.schema.json)'
  if (error.keyword === 'propertyNames' || (error.keyword === 'enum' && /\/(?:refused|granted)\/\d+$/.test(error.instancePath))) return 'is not an operation of the contract that this key takes'
  if (error.keyword === 'enum') return `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
  return error.message ?? error.keyword
}

/** Checks a parsed profile file against specs/profile.schema.json and the rules a schema cannot state; returns its values. */
export function profileValues(parsed: unknown): ProfileValues {
  validateFile ??= new Ajv2020({ allErrors: false, strict: true, allowUnionTypes: true }).compile(JSON.parse(readFileSync(specPath('profile.schema.json'), 'utf8')))
  if (!validateFile(parsed)) {
    // The propertyNames error says which name; ajv reports it after the enum error of the name itself.
    const errors = validateFile.errors ?? []
    const error = errors.find((e) => e.keyword === 'propertyNames') ?? errors[0]!
    throw new ProfileError(keyOf(error), problemOf(error))
  }
  const values = (parsed as { profile: ProfileValues | null }).profile ?? {}
  for (const [operation, rule] of Object.entries(values.pagination ?? {})) {
    if (rule.minPageSize > rule.maxPageSize) throw new ProfileError(`profile.pagination.${operation}`, `has minPageSize ${rule.minPageSize} above maxPageSize ${rule.maxPageSize}`)
  }
  const keyPattern = values.writes?.keyPattern
  if (keyPattern !== undefined) {
    let pattern: RegExp
    try {
      pattern = new RegExp(keyPattern, 'u')
    } catch (error) {
      throw new ProfileError('profile.writes.keyPattern', `is not a regular expression: ${(error as Error).message}`)
    }
    // The contract allows 8 to 128 characters: a reading of "safe" narrows the characters, not the length.
    if (![8, 128].every((length) => pattern.test('aZ9'.repeat(43).slice(0, length)))) throw new ProfileError('profile.writes.keyPattern', 'refuses keys of 8 and 128 letters and digits, which the contract allows')
  }
  const both = values.restrictedKey?.refused?.find((op) => values.restrictedKey?.granted?.includes(op))
  if (both) throw new ProfileError('profile.restrictedKey', `lists ${both} as both refused and granted`)
  return values
}

/** Reads and checks a profile file. */
export function readProfileFile(path: string): ProfileValues {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new ProfileError(path, `cannot be read (${(error as { code?: string }).code ?? 'error'})`)
  }
  let parsed: unknown
  try {
    parsed = parseYaml(text)
  } catch (error) {
    throw new ProfileError(path, `is not valid YAML: ${(error as Error).message.split('\n')[0]}`)
  }
  return profileValues(parsed)
}

/** A profile given where a run is configured: a profile file, or its values inline (a --config file's profile mapping). */
export type ProfileSource = { file: string } | { values: ProfileValues; baseDir: string; source: string }

/**
 * Reads what the profile's keys name: the config schema (parsed and compiled), and the published description
 * (read from a file, or fetched through the run's polite client). A file or URL that cannot be used is a ProfileError.
 * Without a fetch (judging recorded traffic) the description is not read: the checks that read it are not assessed there.
 */
export async function loadProfile(given: ProfileSource, fetchDescription?: DescriptionFetch): Promise<Profile> {
  const values = 'file' in given ? readProfileFile(given.file) : given.values
  const baseDir = 'file' in given ? dirname(resolve(given.file)) : given.baseDir
  const profile: Profile = { source: 'file' in given ? given.file : given.source, baseDir, values }
  if (values.configSchema) profile.configSchema = readConfigSchema(resolve(baseDir, values.configSchema))
  if (values.openapi && fetchDescription) {
    const { source, document } = await readPublishedDescription(values.openapi, baseDir, fetchDescription)
    profile.openapi = { source, findings: await judgeDescription(source, document) }
  }
  return profile
}

function readConfigSchema(path: string): Record<string, unknown> {
  let schema: unknown
  try {
    schema = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    const why = (error as { code?: string }).code ?? `not JSON: ${(error as Error).message}`
    throw new ProfileError('profile.configSchema', `cannot be read from ${path} (${why})`)
  }
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) throw new ProfileError('profile.configSchema', `${path} is not a JSON Schema object`)
  try {
    configSchemaCompiler().compile(schema as object)
  } catch (error) {
    throw new ProfileError('profile.configSchema', `${path} does not compile as JSON Schema 2020-12: ${(error as Error).message.split('\n')[0]}`)
  }
  return schema as Record<string, unknown>
}
