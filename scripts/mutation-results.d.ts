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
export interface PartResult {
  run: unknown
  files: Record<string, { lines: Record<string, string>; mutants: ResultMutant[] }>
}
export function resultOf(report: StrykerReport, run: unknown): PartResult
export function resultText(result: PartResult): string
export function writeResult(path: string, report: StrykerReport, run: unknown): void
export function readResult(path: string): PartResult | undefined
export function rowsOf(
  results: PartResult[],
  sourceOf: (file: string) => string | undefined,
): { rows: { file: string; lines: string[]; mutants: StrykerMutant[] }[]; stale: number }
export function sourceIn(root: string): (file: string) => string | undefined
