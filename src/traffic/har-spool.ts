import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { once } from 'node:events'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Writable } from 'node:stream'
import { harEntries } from '../har/from-exchange.js'
import type { HarEntry } from '../har/types.js'
import { writeHar } from '../har/write.js'
import type { Exchange } from '../http/exchange.js'
import type { Secret } from '../http/secrets.js'

const CIPHER = 'aes-256-ctr'

/**
 * The HAR of a long stream of exchanges, spooled to a temporary file one exchange a line as they come, so that memory
 * does not grow with their number. The file is encrypted with a key that lives only in this process: an entry may hold
 * a secret not learned yet when it comes (a receipt answered before any request sends it), and a proxy killed before it
 * writes its reports leaves no secret readable on disk. Each exchange becomes HAR entries, redacted once with every
 * secret learned by the end, when the HAR is written, and not on the forwarding path.
 */
export class HarSpool {
  private draining: Promise<void> | undefined

  private constructor(
    private readonly dir: string,
    private readonly key: Buffer,
    private readonly iv: Buffer,
    private readonly out: Writable,
    private readonly file: WriteStream,
  ) {}

  static async create(): Promise<HarSpool> {
    const dir = await mkdtemp(join(tmpdir(), 'ipts-har-spool-'))
    const key = randomBytes(32)
    const iv = randomBytes(16)
    const file = createWriteStream(join(dir, 'entries.jsonl.enc'), { mode: 0o600 })
    const cipher = createCipheriv(CIPHER, key, iv)
    cipher.pipe(file)
    return new HarSpool(dir, key, iv, cipher, file)
  }

  add(exchange: Exchange): void {
    this.out.write(`${JSON.stringify(exchange)}\n`)
  }

  /**
   * While the spool holds more than its stream's bound not yet on disk, a promise that resolves once it has drained;
   * otherwise undefined. The proxy waits on it before it ends a response, so that traffic faster than the disk is
   * slowed down instead of piling up in memory.
   */
  backlog(): Promise<void> | undefined {
    if (!this.out.writableNeedDrain) return undefined
    // One wait for every response held back, not a listener each.
    this.draining ??= once(this.out, 'drain').then(() => {
      this.draining = undefined
    })
    return this.draining
  }

  async writeTo(path: string, secrets: readonly Secret[]): Promise<void> {
    this.out.end()
    await once(this.file, 'close')
    const spooled = createReadStream(join(this.dir, 'entries.jsonl.enc')).pipe(
      createDecipheriv(CIPHER, this.key, this.iv),
    )
    // The reader starts when the writer asks for the first entry: lines read before anyone iterates would be lost.
    async function* entries(): AsyncGenerator<HarEntry> {
      for await (const line of createInterface({ input: spooled, crlfDelay: Infinity }))
        if (line) yield* harEntries(JSON.parse(line) as Exchange, [], secrets)
    }
    try {
      await writeHar(path, entries())
    } finally {
      await rm(this.dir, { recursive: true, force: true })
    }
  }
}
