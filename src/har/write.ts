import { mkdir, open } from 'node:fs/promises'
import { dirname } from 'node:path'
import { packageJson } from '../core/package-root.js'
import type { HarEntry } from './types.js'

/** The report directory's exchange log. */
export const HAR_FILE = 'exchanges.har'

const FLUSH_CHARS = 64 * 1024

/** Writes a HAR 1.2 file entry by entry, one entry a line, so that a long log is never held whole in memory. */
export async function writeHar(path: string, entries: Iterable<HarEntry> | AsyncIterable<HarEntry>): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const file = await open(path, 'w')
  try {
    const creator = { name: packageJson.name, version: packageJson.version }
    let pending = `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[`
    let first = true
    for await (const entry of entries) {
      pending += `${first ? '\n' : ',\n'}${JSON.stringify(entry)}`
      first = false
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
