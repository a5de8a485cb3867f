import { readFileSync } from 'node:fs'
import type { OperationId } from '../contract/operations.js'
import { specPath } from '../core/package-root.js'

/** Generated from the reference server's faults and allowances (npm run corpus); data here, so no run executes them. */
export const COMPATIBILITY_CORPUS_FILE = 'compatibility-corpus.json'

/**
 * A success body of an operation, and where it comes from: the reference itself, or one of its allowances or faults.
 */
export interface CorpusBody {
  operation: OperationId
  from: string
  body: unknown
}

/**
 * Bodies the contract accepts, and bodies it forbids: a published description compatible with the contract agrees on
 * each.
 */
export interface CompatibilityCorpus {
  accepted: CorpusBody[]
  forbidden: CorpusBody[]
}

let corpus: CompatibilityCorpus | undefined

/** The corpus of specs/compatibility-corpus.json, read once a process. */
export function compatibilityCorpus(): CompatibilityCorpus {
  corpus ??= JSON.parse(readFileSync(specPath(COMPATIBILITY_CORPUS_FILE), 'utf8')) as CompatibilityCorpus
  return corpus
}
