import { createReadStream, createWriteStream, type WriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { once } from 'node:events'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { harEntries } from '../har/from-exchange.js'
import type { HarEntry } from '../har/types.js'
import { writeHar } from '../har/write.js'
import type { Exchange } from '../http/exchange.js'
import { redactDeep, type Secret } from '../http/secrets.js'

/**
 * The HAR of a long stream of exchanges, spooled to a temporary file one entry a line as they come, so that memory does
 * not grow with their number. Entries are redacted with the secrets known when they come and again, with every secret
 * learned by then, when the HAR is written.
 */
export class HarSpool {
  private constructor(private readonly dir: string, private readonly out: WriteStream) {}

  static async create(): Promise<HarSpool> {
    const dir = await mkdtemp(join(tmpdir(), 'ipts-har-spool-'))
    return new HarSpool(dir, createWriteStream(join(dir, 'entries.jsonl'), { mode: 0o600 }))
  }

  add(exchange: Exchange, secrets: readonly Secret[]): void {
    for (const entry of harEntries(exchange, [], secrets)) this.out.write(`${JSON.stringify(entry)}\n`)
  }

  async writeTo(path: string, secrets: readonly Secret[]): Promise<void> {
    this.out.end()
    await once(this.out, 'close')
    const spooled = join(this.dir, 'entries.jsonl')
    // The reader starts when the writer asks for the first entry: lines read before anyone iterates would be lost.
    async function* entries(): AsyncGenerator<HarEntry> {
      for await (const line of createInterface({ input: createReadStream(spooled, 'utf8'), crlfDelay: Infinity })) if (line) yield redactDeep(JSON.parse(line) as HarEntry, secrets)
    }
    try {
      await writeHar(path, entries())
    } finally {
      await rm(this.dir, { recursive: true, force: true })
    }
  }
}
