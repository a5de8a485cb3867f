import { vi } from 'vitest'

/** Captures what the CLI writes to stdout and stderr; restore with vi.restoreAllMocks(). */
export function captured(): { out: string[]; err: string[] } {
  const out: string[] = []
  const err: string[] = []
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true))
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true))
  return { out, err }
}
