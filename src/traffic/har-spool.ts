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
import { redactDeep, type Secret } from '../http/secrets.js'
import type { LearnedSecrets } from './learned-secrets.js'

const CIPHER = 'aes-256-ctr'

/**
 * How many exchanges later the exchanges spooled before secrets were forgotten are redacted: a secret learned from one
 * of them (a receipt answered before a request sends it) is redacted in those before it too.
 */
export const LOOK_AHEAD_EXCHANGES = 64

/** A file of JSON lines, encrypted with a key and IV that live only in this process. */
class EncryptedLines {
  private draining: Promise<void> | undefined
  private readonly iv = randomBytes(16)
  private readonly out: Writable
  private readonly file: WriteStream

  constructor(
    readonly path: string,
    private readonly key: Buffer,
  ) {
    this.file = createWriteStream(path, { mode: 0o600 })
    const cipher = createCipheriv(CIPHER, key, this.iv)
    cipher.pipe(this.file)
    this.out = cipher
  }

  /** Writes a line; false when the stream holds more than its bound not yet on disk. */
  write(value: unknown): boolean {
    return this.out.write(`${JSON.stringify(value)}\n`)
  }

  /**
   * While more than the stream's bound is not yet on disk, a promise that resolves once it has drained; otherwise
   * undefined.
   */
  backlog(): Promise<void> | undefined {
    if (!this.out.writableNeedDrain) return undefined
    // One wait for every response held back, not a listener each.
    this.draining ??= once(this.out, 'drain').then(() => {
      this.draining = undefined
    })
    return this.draining
  }

  /**
   * Ends the file once what it holds back has drained (an ending stream emits no 'drain', and a response may wait on
   * one).
   */
  async close(): Promise<void> {
    await this.backlog()
    this.out.end()
    if (!this.file.closed) await once(this.file, 'close')
  }

  /**
   * The lines, decrypted; the reader starts when the first is asked for (lines read before anyone iterates would be
   * lost).
   */
  async *lines(): AsyncGenerator<unknown> {
    const input = createDecipheriv(CIPHER, this.key, this.iv)
    // A file that cannot be read ends the lines with its error (a pipe alone would leave them waiting for ever).
    createReadStream(this.path)
      .on('error', (error) => input.destroy(error))
      .pipe(input)
    // Every line written holds a value: none is empty.
    for await (const line of createInterface({ input, crlfDelay: Infinity })) yield JSON.parse(line)
  }
}

/**
 * The HAR of a long stream of exchanges, spooled to temporary files one exchange a line as they come, so that memory
 * does
 * not grow with their number. The files are encrypted with a key that lives only in this process: an entry may hold a
 * secret not learned yet when it comes (a receipt answered before any request sends it), and a proxy killed before it
 * writes its reports leaves no secret readable on disk. Each exchange becomes HAR entries redacted once, not on the
 * forwarding path: when the HAR is written, with every secret remembered then; or, for a spool given the learned
 * secrets (the proxy's, which forget all but the most recent), when they are about to forget some: the exchanges
 * spooled so far are set aside and the spool goes on in a new file; LOOK_AHEAD_EXCHANGES exchanges later, those set
 * aside are redacted into a file of HAR entries with every secret known when they were set aside and every one
 * learned since. So the HAR never needs a secret that was forgotten.
 */
export class HarSpool {
  private segments = 0
  /** The redaction of earlier segments into `redacted`, one after the other; the first error is kept for writeTo. */
  private redacting: Promise<void> = Promise.resolve()
  private failed: unknown
  /** Segments handed to `redacting` and not yet redacted. */
  private queued = 0
  /** The HAR entries redacted so far, once there are any. */
  private redacted: EncryptedLines | undefined
  /**
   * The exchanges spooled before secrets were forgotten, with every secret known then, until LOOK_AHEAD_EXCHANGES more
   * have come.
   */
  private waiting: { segment: EncryptedLines; known: readonly Secret[]; exchangesToCome: number } | undefined

  private constructor(
    private readonly dir: string,
    private readonly key: Buffer,
    private raw: EncryptedLines,
    private readonly learned: LearnedSecrets | undefined,
  ) {}

  /**
   * learned: the secrets the spool is redacted with before they are forgotten (the proxy's); without, only at the end.
   */
  static async create(learned?: LearnedSecrets): Promise<HarSpool> {
    const dir = await mkdtemp(join(tmpdir(), 'ipts-har-spool-'))
    const key = randomBytes(32)
    const spool = new HarSpool(dir, key, new EncryptedLines(join(dir, 'exchanges-0.jsonl.enc'), key), learned)
    learned?.beforeForgetting((known) => spool.setAside(known))
    return spool
  }

  add(exchange: Exchange): void {
    this.raw.write(exchange)
    if (this.waiting && --this.waiting.exchangesToCome === 0) this.redactWaiting()
  }

  /**
   * While the spool holds more than its stream's bound not yet on disk, or more than one segment not yet redacted, a
   * promise that resolves once it has caught up; otherwise undefined. The proxy waits on it before it ends a response,
   * so that traffic faster than the disk is slowed
   * down instead of piling up in memory.
   */
  backlog(): Promise<void> | undefined {
    // Redaction runs behind the traffic; when it falls a whole segment behind, the traffic waits for it.
    return this.queued > 1 ? this.redacting : this.raw.backlog()
  }

  /**
   * The exchanges spooled so far are set aside, to be redacted with these secrets and those learned in the next
   * exchanges; the spool goes on in a new file.
   */
  private setAside(known: readonly Secret[]): void {
    if (this.waiting) this.redactWaiting()
    this.waiting = { segment: this.raw, known, exchangesToCome: LOOK_AHEAD_EXCHANGES }
    this.raw = new EncryptedLines(join(this.dir, `exchanges-${++this.segments}.jsonl.enc`), this.key)
  }

  /**
   * The exchanges set aside, redacted into HAR entries (in the background) with the secrets known when they were set
   * aside and those known now.
   */
  private redactWaiting(): void {
    const { segment, known } = this.waiting!
    this.waiting = undefined
    const now = new Set(known.map(({ value }) => value))
    const secrets = [...known, ...(this.learned?.list() ?? []).filter(({ value }) => !now.has(value))]
    const redacted = (this.redacted ??= new EncryptedLines(join(this.dir, 'entries.jsonl.enc'), this.key))
    this.queued++
    this.redacting = this.redacting
      .then(async () => {
        await segment.close()
        for await (const exchange of segment.lines()) {
          for (const entry of harEntries(exchange as Exchange, [], secrets)) {
            redacted.write(entry)
            await redacted.backlog()
          }
        }
        await rm(segment.path)
      })
      .catch((error: unknown) => {
        this.failed ??= error
      })
      .finally(() => this.queued--)
  }

  /**
   * Writes the HAR: the entries redacted before, redacted again with these secrets, then the exchanges spooled since.
   */
  async writeTo(path: string, secrets: readonly Secret[]): Promise<void> {
    try {
      if (this.waiting) this.redactWaiting()
      await this.redacting
      if (this.failed !== undefined) throw this.failed
      await Promise.all([this.raw.close(), this.redacted?.close()])
      const { raw, redacted } = this
      async function* entries(): AsyncGenerator<HarEntry> {
        if (redacted) for await (const entry of redacted.lines()) yield redactDeep(entry as HarEntry, secrets)
        for await (const exchange of raw.lines()) yield* harEntries(exchange as Exchange, [], secrets)
      }
      await writeHar(path, entries())
    } finally {
      await rm(this.dir, { recursive: true, force: true })
    }
  }
}
