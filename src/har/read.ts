import { readFile } from 'node:fs/promises'
import { UsageError } from '../core/errors.js'
import type { Har, HarEntry } from './types.js'

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** What an entry must carry for its exchange to be judged; anything else of HAR 1.2 is read when present. */
function entryProblem(entry: unknown): string | undefined {
  if (!isObject(entry)) return 'is not an object'
  const { request, response } = entry
  if (!isObject(request) || typeof request.method !== 'string' || typeof request.url !== 'string' || !Array.isArray(request.headers)) return 'has no request with method, url and headers'
  if (!URL.canParse(request.url)) return `has a request url that is not absolute: ${JSON.stringify(request.url).slice(0, 80)}`
  if (!isObject(response) || typeof response.status !== 'number' || !Array.isArray(response.headers) || !isObject(response.content)) return 'has no response with status, headers and content'
  return undefined
}

/** Reads a HAR file; anything that is not HAR is a usage error of the flag that named it. */
export async function readHar(path: string, flag: string): Promise<HarEntry[]> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${path} (${(error as { code?: string }).code ?? 'error'})`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new UsageError(`${flag}: ${path} is not a HAR file (not JSON)`)
  }
  const entries = isObject(parsed) && isObject(parsed.log) ? parsed.log.entries : undefined
  if (!Array.isArray(entries)) throw new UsageError(`${flag}: ${path} is not a HAR file (no log.entries)`)
  // Judging nothing would pass: a recording that captured no request is a mistake of the recording, not a verdict.
  if (entries.length === 0) throw new UsageError(`${flag}: ${path} has no entries: there is no recorded exchange to judge`)
  entries.forEach((entry, i) => {
    const problem = entryProblem(entry)
    if (problem) throw new UsageError(`${flag}: ${path} is not a HAR file (entry ${i + 1} ${problem})`)
  })
  return (parsed as Har).log.entries
}
