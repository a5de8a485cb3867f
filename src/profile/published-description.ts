import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { ProfileError } from '../core/errors.js'
import { yamlProblem } from '../core/yaml-problem.js'

/** GET of an absolute URL through the run's polite client: the status and body, or why nothing came back. */
export type DescriptionFetch = (url: string) => Promise<{ status: number; body: string } | { error: string }>

const isUrl = (value: string) => /^https?:\/\//i.test(value)

/**
 * The deployment's published description, parsed (JSON or YAML): fetched when the profile gives an http(s) URL,
 * read when it gives a file (relative to the profile). A source that cannot be reached or parsed is a ProfileError;
 * whether the document is a valid and compatible description is for the checks to say.
 */
/**
 * The descriptions parsed last, by their text: a process that runs again (a self-test, the API) reads the same
 * description again. Only read, never changed.
 */
const parsedDescriptions = new Map<string, unknown>()
const KEPT_DESCRIPTIONS = 4

function parsedOnce(text: string): unknown {
  if (!parsedDescriptions.has(text)) {
    parsedDescriptions.set(text, parseYaml(text))
    if (parsedDescriptions.size > KEPT_DESCRIPTIONS) parsedDescriptions.delete(parsedDescriptions.keys().next().value!)
  }
  return parsedDescriptions.get(text)
}

export async function readPublishedDescription(
  value: string,
  baseDir: string,
  fetchDescription: DescriptionFetch,
  where: string,
): Promise<{ source: string; document: unknown }> {
  let text: string
  let source: string
  if (isUrl(value)) {
    source = value
    const answer = await fetchDescription(value)
    if ('error' in answer)
      throw new ProfileError(where, `profile.openapi cannot be fetched from ${value} (${answer.error})`)
    if (answer.status !== 200)
      throw new ProfileError(where, `profile.openapi cannot be fetched from ${value} (status ${answer.status})`)
    text = answer.body
  } else {
    source = resolve(baseDir, value)
    try {
      text = readFileSync(source, 'utf8')
    } catch (error) {
      throw new ProfileError(
        where,
        `profile.openapi cannot be read from ${source} (${(error as { code?: string }).code ?? 'error'})`,
      )
    }
  }
  let document: unknown
  try {
    document = parsedOnce(text)
  } catch (error) {
    throw new ProfileError(where, `profile.openapi at ${source} is neither JSON nor YAML (${yamlProblem(error)})`)
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document))
    throw new ProfileError(where, `profile.openapi at ${source} is not a JSON or YAML object`)
  return { source, document }
}
