import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { vi } from 'vitest'
import { main } from '../../src/cli/main.js'
import type { Report } from '../../src/core/report.js'

/** Captures what the process writes to stdout and stderr until restore() (vi.restoreAllMocks also ends it). */
export function captureOutput(): { out: string[]; err: string[]; restore(): void } {
  const out: string[] = []
  const err: string[] = []
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true))
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true))
  return { out, err, restore: () => vi.restoreAllMocks() }
}

/**
 * The CLI in this process, its output captured and its reports written to a new temporary folder: the exit code, what
 * it wrote, and report.json when it wrote one.
 */
export async function cliRun(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string; err: string; report?: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'ipts-cli-run-'))
  const { out, err, restore } = captureOutput()
  let code: number
  try {
    code = await main([...args, '--report-dir', dir], env)
  } finally {
    restore()
  }
  const path = join(dir, 'report.json')
  const report = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Report) : undefined
  return { code, out: out.join(''), err: err.join(''), report }
}
