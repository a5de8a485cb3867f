import { createHash } from 'node:crypto'
import { mkdir, open } from 'node:fs/promises'
import { dirname } from 'node:path'
import { packageJson } from '../core/package-root.js'
import type { HarEntry } from './types.js'

/** The report directory's exchange log. */
export const HAR_FILE = 'exchanges.har'

/** How much of the text a HAR is written in stays in memory before it is written to the file. */
export const FLUSH_CHARS = 64 * 1024

/** Response body text a HAR keeps in full, over all its entries; past it, bodies are kept once each, and cut. */
export const HAR_BODY_BUDGET_CHARS = 4 * 1024 * 1024
/** What is left of a body past the budget that no earlier entry holds. */
export const HAR_BODY_CUT_CHARS = 2048

/**
 * Keeps a run's HAR the size of a CI artefact whatever the target answers (a 50 MB body, JSON nested 100,000 deep,
 * hundreds of times): bodies are kept whole until their total reaches the budget; after it, a body an earlier entry
 * already holds is left out and names that entry, and any other is cut. Each entry says what was done to it.
 */
class BodyBudget {
  private spent = 0
  private readonly kept = new Map<string, number>()

  apply(entry: HarEntry, index: number): HarEntry {
    const content = entry.response.content
    const text = content.text
    if (text === undefined || text.length <= HAR_BODY_CUT_CHARS) return entry
    const digest = createHash('sha256').update(text).digest('base64')
    const earlier = this.kept.get(digest)
    if (this.spent + text.length <= HAR_BODY_BUDGET_CHARS && earlier === undefined) {
      this.spent += text.length
      this.kept.set(digest, index)
      return entry
    }
    const spentNote = `the HAR keeps ${HAR_BODY_BUDGET_CHARS} characters of bodies in full over the run`
    const kept: typeof content =
      earlier !== undefined
        ? {
            ...content,
            text: '',
            comment: `${content.comment ? `${content.comment}; ` : ''}the same body as entry ${earlier + 1}, left out: ${spentNote}`,
          }
        : {
            ...content,
            text: text.slice(0, HAR_BODY_CUT_CHARS),
            comment: `${content.comment ? `${content.comment}; ` : ''}cut to its first ${HAR_BODY_CUT_CHARS} of ${text.length} characters: ${spentNote}`,
          }
    if (earlier === undefined) this.kept.set(digest, index)
    return { ...entry, response: { ...entry.response, content: kept } }
  }
}

/** Writes a HAR 1.2 file entry by entry, one entry a line, so that a long log is never held whole in memory. */
export async function writeHar(path: string, entries: Iterable<HarEntry> | AsyncIterable<HarEntry>): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const file = await open(path, 'w')
  try {
    const creator = { name: packageJson.name, version: packageJson.version }
    let pending = `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[`
    const budget = new BodyBudget()
    let index = 0
    for await (const entry of entries) {
      pending += `${index === 0 ? '\n' : ',\n'}${JSON.stringify(budget.apply(entry, index))}`
      index++
      if (pending.length >= FLUSH_CHARS) {
        await file.write(pending)
        pending = ''
      }
    }
    await file.write(`${pending}\n]}}\n`)
  } finally {
    await file.close()
  }
}
