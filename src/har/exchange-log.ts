import { appendFileSync, readdirSync, readFileSync } from 'node:fs'
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
export function logExchanges(dir: string, exchanges: readonly Exchange[], checkId: string, secrets: readonly Secret[], raw = false): void {
  const lines = exchanges.flatMap((exchange) => harEntries(exchange, [checkId], secrets, raw)).map((entry) => `${JSON.stringify(entry)}\n`)
  // Synchronous: one check's lines are written whole before another check of the same worker appends.
  if (lines.length > 0) appendFileSync(join(dir, `worker-${process.pid}-${threadId}.jsonl`), lines.join(''))
}

/** Every entry the workers logged, oldest first (HAR's preferred order). */
export function gatherExchangeLog(dir: string): HarEntry[] {
  const entries = readdirSync(dir)
    .filter((file) => file.endsWith('.jsonl'))
    .flatMap((file) => readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as HarEntry))
  return entries.sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime))
}
