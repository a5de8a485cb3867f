import { vi } from 'vitest'

/** Captures what the process writes to stdout and stderr until restore() (vi.restoreAllMocks also ends it). */
export function captureOutput(): { out: string[]; err: string[]; restore(): void } {
  const out: string[] = []
  const err: string[] = []
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true))
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true))
  return { out, err, restore: () => vi.restoreAllMocks() }
}
