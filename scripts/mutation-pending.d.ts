// The types of what scripts/mutation-pending.js gives its self-test.
import type { PartResult } from './mutation-results.js'

export interface MutantToday {
  file: string
  at: string
  end: string
  mutator: string
  to: string
  ignored: boolean
}
export function filesOf(mutate: readonly string[], files: readonly string[]): string[]
export function mutantsToday(
  root: string,
  config: { plugins?: string[]; ignorers?: string[] },
  files: readonly string[],
): Promise<MutantToday[]>
export function pendingOf(
  today: readonly MutantToday[],
  result: PartResult | undefined,
  sourceOf: (file: string) => string | undefined,
  options?: { survivors?: boolean },
): MutantToday[]
export function rangesOf(pending: readonly MutantToday[]): string[]
