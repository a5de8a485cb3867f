import { createReadStream } from 'node:fs'
import { UsageError } from '../core/errors.js'
import type { HarEntry } from './types.js'

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/**
 * What an entry must carry for its exchange to be judged; anything else of HAR 1.2 is read when present. An entry is an
 * object: the scanner hands out only the bytes of one.
 */
function entryProblem(entry: Record<string, unknown>): string | undefined {
  const { request, response } = entry
  if (
    !isObject(request) ||
    typeof request.method !== 'string' ||
    typeof request.url !== 'string' ||
    !Array.isArray(request.headers)
  )
    return 'has no request with method, url and headers'
  if (!URL.canParse(request.url))
    return `has a request url that is not absolute: ${JSON.stringify(request.url).slice(0, 80)}`
  if (
    !isObject(response) ||
    typeof response.status !== 'number' ||
    !Array.isArray(response.headers) ||
    !isObject(response.content)
  )
    return 'has no response with status, headers and content'
  return undefined
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const COMMA = 0x2c

/** Containers open around an entry of log.entries: the file's object, log, the entries array. */
const ENTRY_DEPTH = 3
/** Object keys are read only where they name the path to the entries: in the file's object and in log. */
const KEYED_DEPTH = 2

const READ_CHUNK_BYTES = 1024 * 1024

const isWhitespace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09

/**
 * Finds the elements of log.entries in a stream of JSON bytes and hands out each element's bytes, without holding the
 * file: only one entry at a time is kept (its bytes, then its parsed value). It follows strings and nesting to know
 * where it is; the JSON of each entry is checked by JSON.parse, and the rest of the file only for its nesting.
 */
class EntriesScanner {
  private readonly stack: number[] = []
  /** The latest key read in the object open at each depth (1: the file's object, 2: log). */
  private readonly keys: (string | undefined)[] = []
  private expectingKey = false
  private inString = false
  private escaped = false
  private key: Buffer[] | undefined
  private entry: Buffer[] | undefined
  private inEntries = false
  private sawEntries = false
  private started = false
  /** Entries read so far. */
  count = 0

  constructor(private readonly problem: (what: string) => UsageError) {}

  /** The entries whose last byte is in this chunk, as their bytes. */
  push(chunk: Buffer): Buffer[] {
    const done: Buffer[] = []
    let entryStart = 0
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!
      if (this.inString) {
        // Most of a HAR is string contents: jump to the next quote or backslash.
        if (!this.escaped) {
          const next = nextOf(chunk, i)
          if (next === -1) {
            this.key?.push(chunk.subarray(i))
            break
          }
          this.key?.push(chunk.subarray(i, next))
          i = next
        }
        const at = chunk[i]!
        if (this.escaped) {
          this.escaped = false
          this.key?.push(chunk.subarray(i, i + 1))
        } else if (at === BACKSLASH) {
          this.escaped = true
          this.key?.push(chunk.subarray(i, i + 1))
        } else {
          this.inString = false
          if (this.key) this.endKey()
        }
        continue
      }
      if (isWhitespace(byte)) continue
      if (!this.started) {
        if (byte !== OPEN_OBJECT) throw this.problem('not JSON')
        this.started = true
      } else if (this.stack.length === 0) throw this.problem('not JSON') // after the file's object, only whitespace
      const depth = this.stack.length
      if (this.inEntries && depth === ENTRY_DEPTH && byte !== COMMA && byte !== CLOSE_ARRAY) {
        if (byte !== OPEN_OBJECT) throw this.problem(`entry ${this.count + 1} is not an object`)
        this.entry = []
        entryStart = i
      }
      switch (byte) {
        case QUOTE:
          this.inString = true
          if (this.expectingKey && depth <= KEYED_DEPTH) this.key = []
          this.expectingKey = false
          break
        case OPEN_OBJECT:
        case OPEN_ARRAY:
          if (
            byte === OPEN_ARRAY &&
            depth === ENTRY_DEPTH - 1 &&
            this.keys[1] === 'log' &&
            this.keys[2] === 'entries'
          ) {
            this.inEntries = this.sawEntries = true
          }
          this.stack.push(byte)
          this.expectingKey = byte === OPEN_OBJECT
          // A container opened has no key yet: a key at depth 1 or 2 is one of an object there, never a stale one.
          this.keys[depth + 1] = undefined
          break
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          if (this.stack.pop() !== (byte === CLOSE_OBJECT ? OPEN_OBJECT : OPEN_ARRAY)) throw this.problem('not JSON')
          if (this.entry && depth === ENTRY_DEPTH + 1) {
            this.entry.push(chunk.subarray(entryStart, i + 1))
            done.push(Buffer.concat(this.entry))
            this.entry = undefined
            this.count++
          }
          if (this.inEntries && depth === ENTRY_DEPTH) this.inEntries = false
          break
        case COMMA:
          this.expectingKey = this.stack.at(-1) === OPEN_OBJECT
          break
      }
    }
    if (this.entry) this.entry.push(chunk.subarray(entryStart))
    return done
  }

  /** At the end of the file: whether it was whole JSON with a log.entries array. */
  end(): void {
    // A string is only ever open inside the file's object.
    if (!this.started || this.stack.length > 0) throw this.problem('not JSON')
    if (!this.sawEntries) throw this.problem('no log.entries')
  }

  private endKey(): void {
    const depth = this.stack.length
    this.keys[depth] = JSON.parse(`"${Buffer.concat(this.key!).toString('utf8')}"`) as string
    this.key = undefined
  }
}

/** The index of the next quote or backslash from `from`, or -1. */
function nextOf(chunk: Buffer, from: number): number {
  const quote = chunk.indexOf(QUOTE, from)
  const backslash = chunk.indexOf(BACKSLASH, from)
  if (quote === -1) return backslash
  if (backslash === -1) return quote
  return Math.min(quote, backslash)
}

/**
 * Reads a HAR file's entries one at a time, streaming: a file of any size is never held whole, only the entry being
 * read. Anything that is not HAR is a usage error of the flag that named it; an entry that cannot be judged ends the
 * reading with its number.
 */
export async function* readHarEntries(path: string, flag: string): AsyncGenerator<HarEntry> {
  const problem = (what: string) => new UsageError(`${flag}: ${path} is not a HAR file (${what})`)
  const scanner = new EntriesScanner(problem)
  const stream = createReadStream(path, { highWaterMark: READ_CHUNK_BYTES })
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (const bytes of scanner.push(chunk)) {
        let entry: unknown
        try {
          entry = JSON.parse(bytes.toString('utf8'))
        } catch {
          throw problem('not JSON')
        }
        const entryIssue = entryProblem(entry as Record<string, unknown>)
        if (entryIssue) throw problem(`entry ${scanner.count} ${entryIssue}`)
        yield entry as HarEntry
      }
    }
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw new UsageError(`${flag}: cannot read ${path} (${(error as { code?: string }).code ?? 'error'})`)
  } finally {
    stream.destroy()
  }
  scanner.end()
  // Judging nothing would pass: a recording that captured no request is a mistake of the recording, not a verdict.
  if (scanner.count === 0)
    throw new UsageError(`${flag}: ${path} has no entries: there is no recorded exchange to judge`)
}
