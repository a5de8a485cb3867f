import { appendFile, mkdir, writeFile } from 'node:fs/promises'
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

/** Writes every format into dir and returns the paths; appends report.md to the CI job summary file when one is given. */
export async function writeReports(report: Report, dir: string, comparison?: BaselineComparison, jobSummaryPath?: string): Promise<string[]> {
  await mkdir(dir, { recursive: true })
  const paths: string[] = []
  for (const format of formats) {
    const path = join(dir, format.file)
    await writeFile(path, format.render(report, comparison))
    paths.push(path)
  }
  if (jobSummaryPath) await appendFile(jobSummaryPath, renderMarkdown(report, comparison))
  return paths
}
