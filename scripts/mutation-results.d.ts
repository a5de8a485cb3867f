// The types of scripts/mutation-results.js, for its self-test.
interface StrykerMutant {
  location: { start: { line: number; column: number }; end: { line: number; column: number } }
  mutatorName: string
  replacement?: string
  status: string
  statusReason?: string
}
interface StrykerReport {
  files: Record<string, { source: string; mutants: StrykerMutant[] }>
}
interface ResultMutant {
  at: string
  end: string
  mutator: string
  to: string
  status: string
  why?: string
}
/** When a part ran and how long it took; since: its runs over what changed after its whole one. */
export interface RunRecord {
  when?: string
  seconds?: number
  concurrency?: number
  cores?: number
  conditions?: string
  since?: (RunRecord & { mutants: number })[]
}
export interface PartResult {
  run: RunRecord
  files: Record<string, { lines: Record<string, string>; mutants: ResultMutant[] }>
}
export function keyOf(mutant: { at: string; end: string; mutator: string; to: string }): string
export function resultOf(report: StrykerReport, run: RunRecord): PartResult
export function resultText(result: PartResult): string
export function readResult(path: string): PartResult | undefined
export function rowsOf(
  results: PartResult[],
  sourceOf: (file: string) => string | undefined,
): { rows: { file: string; lines: string[]; mutants: StrykerMutant[] }[]; stale: number }
export function sourceIn(root: string): (file: string) => string | undefined
export function mergeResult(
  result: PartResult,
  report: StrykerReport,
  ranges: readonly string[],
  run: RunRecord,
  sourceOf: (file: string) => string | undefined,
): PartResult
