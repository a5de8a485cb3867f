import { appendFileSync, closeSync, openSync, readdirSync, readSync } from 'node:fs'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import type { Exchange } from '../http/exchange.js'
import type { Secret } from '../http/secrets.js'
import { harEntries } from './from-exchange.js'
import type { HarEntry } from './types.js'

/**
 * The run's exchanges cross from the suite workers to the runner through a directory: each worker appends its checks'
 * entries (already redacted) to a file of its own, one entry a line, and the runner gathers them into the HAR.
 */
export function logExchanges(
  dir: string,
  exchanges: readonly Exchange[],
  checkId: string,
  secrets: readonly Secret[],
  raw = false,
): void {
  // Synchronous: one check's lines are written whole before another check of the same worker appends. One exchange's
  // entries at a time: a property check's hundreds of large bodies are never all copied into one string.
  const file = join(dir, `worker-${process.pid}-${threadId}.jsonl`)
  for (const exchange of exchanges)
    appendFileSync(
      file,
      harEntries(exchange, [checkId], secrets, raw)
        .map((entry) => `${JSON.stringify(entry)}\n`)
        .join(''),
    )
}

/** Where one logged entry lies, and when it was sent: what the HAR's order needs, without the entry itself. */
interface LoggedEntry {
  startedDateTime: string
  file: string
  offset: number
  length: number
}

const CHUNK_BYTES = 1024 * 1024
/**
 * harEntries writes startedDateTime first: its value is read from the start of the line, without parsing a body that
 * may be megabytes.
 */
const STARTED_AT = /^\{"startedDateTime":"([^"\\]*)"/

/**
 * Every entry the workers logged, oldest first (HAR's preferred order), read one at a time: a log of hundreds of large
 * bodies is never held whole, only each entry's time and place in its file.
 */
export function* gatherExchangeLog(dir: string): Generator<HarEntry> {
  const logged: LoggedEntry[] = []
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.jsonl'))) {
    const file = join(dir, name)
    for (const { offset, length } of lineSpans(file))
      logged.push({ startedDateTime: startedAt(file, offset, length), file, offset, length })
  }
  logged.sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime))
  for (const { file, offset, length } of logged)
    yield JSON.parse(readSpan(file, offset, length).toString('utf8')) as HarEntry
}

/** The byte spans of a file's non-empty lines, read a chunk at a time. */
function lineSpans(file: string): { offset: number; length: number }[] {
  const spans: { offset: number; length: number }[] = []
  const fd = openSync(file, 'r')
  try {
    const chunk = Buffer.alloc(CHUNK_BYTES)
    let lineStart = 0
    for (
      let position = 0, read = readSync(fd, chunk, 0, CHUNK_BYTES, 0);
      read > 0;
      position += read, read = readSync(fd, chunk, 0, CHUNK_BYTES, position)
    ) {
      // The bytes read this time: past them the buffer holds the chunk before.
      const filled = chunk.subarray(0, read)
      for (let at = filled.indexOf(0x0a); at !== -1; at = filled.indexOf(0x0a, at + 1)) {
        const end = position + at
        if (end > lineStart) spans.push({ offset: lineStart, length: end - lineStart })
        lineStart = end + 1
      }
    }
  } finally {
    closeSync(fd)
  }
  return spans
}

function readSpan(file: string, offset: number, length: number): Buffer {
  const fd = openSync(file, 'r')
  try {
    const bytes = Buffer.alloc(length)
    readSync(fd, bytes, 0, length, offset)
    return bytes
  } finally {
    closeSync(fd)
  }
}

function startedAt(file: string, offset: number, length: number): string {
  const head = STARTED_AT.exec(readSpan(file, offset, Math.min(length, 200)).toString('utf8'))
  return head ? head[1]! : (JSON.parse(readSpan(file, offset, length).toString('utf8')) as HarEntry).startedDateTime
}
