import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { UsageError } from '../src/core/errors.js'
import { join } from 'node:path'
import type { BaselineComparison } from './baseline.js'
import { renderHtml } from './html.js'
import { renderJson } from './json.js'
import { renderJunit } from './junit.js'
import { renderMarkdown } from './markdown.js'
import type { Report } from '../src/core/report.js'

/** Every file of the report directory, and how each is rendered. */
const formats: readonly { file: string; render(report: Report, comparison?: BaselineComparison): string }[] = [
  { file: 'report.json', render: renderJson },
  { file: 'report.md', render: renderMarkdown },
  { file: 'junit.xml', render: renderJunit },
  { file: 'report.html', render: renderHtml },
]

/**
 * Writes every format into dir and returns the paths; appends report.md to the CI job summary file when one is given.
 * All or nothing: each file is written under a temporary name and renamed once all are, so that a folder that turns
 * out unwritable (or full) leaves no partial report behind, and the failure is one line naming the folder.
 */
export async function writeReports(
  report: Report,
  dir: string,
  comparison?: BaselineComparison,
  jobSummaryPath?: string,
): Promise<string[]> {
  return writeReportsNow(report, dir, comparison, jobSummaryPath)
}

/**
 * writeReports, synchronously: what a signal handler can still do before the process ends (`npx vitest run` exits a
 * millisecond after SIGINT).
 */
export function writeReportsNow(
  report: Report,
  dir: string,
  comparison?: BaselineComparison,
  jobSummaryPath?: string,
): string[] {
  const rendered = formats.map((format) => ({ path: join(dir, format.file), text: format.render(report, comparison) }))
  const temporary = (path: string) => `${path}.${process.pid}.tmp`
  const placed: string[] = []
  try {
    mkdirSync(dir, { recursive: true })
    for (const { path, text } of rendered) writeFileSync(temporary(path), text)
    for (const { path } of rendered) {
      renameSync(temporary(path), path)
      placed.push(path)
    }
  } catch (error) {
    for (const path of [...rendered.map(({ path }) => temporary(path)), ...placed]) removeIfAny(path)
    throw new UsageError(
      `cannot write the reports to ${dir} (${(error as { code?: string }).code ?? String(error)}); no report was written`,
    )
  }
  if (jobSummaryPath) appendFileSync(jobSummaryPath, renderMarkdown(report, comparison))
  return rendered.map(({ path }) => path)
}

function removeIfAny(path: string): void {
  try {
    rmSync(path)
  } catch {
    // Not there (it was not written), or left as it is: the error that follows names the folder.
  }
}
