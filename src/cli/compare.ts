import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { compareReports, readComparedReport, type Comparison } from '../../reporters/compare.js'
import { renderCompareHtml, renderCompareMarkdown } from '../../reporters/compare-render.js'
import { UsageError } from '../core/errors.js'
import { flagsHelp, parseFlags, validateFlag, type Flag } from './flags.js'

const compareFlags: readonly Flag[] = [
  {
    name: 'report-dir',
    env: 'IPTS_REPORT_DIR',
    kind: 'folder',
    default: './conformance-report',
    help: 'where compare.json, compare.md and compare.html are written',
  },
]

const formats: readonly { file: string; render(comparison: Comparison): string }[] = [
  { file: 'compare.json', render: (comparison) => `${JSON.stringify(comparison, null, 2)}\n` },
  { file: 'compare.md', render: renderCompareMarkdown },
  { file: 'compare.html', render: renderCompareHtml },
]

export interface CompareCliOptions {
  reports: string[]
  reportDir: string
}

export function compareHelp(): string {
  return [
    'Usage: ipts-conformance compare REPORT.json REPORT.json… [flags]',
    '',
    'Lines up several runs (deployments, or one deployment over time): requirements and checks as rows, one column per',
    'report (its target and time), rows that differ first. Writes compare.json, compare.md and compare.html; exits 0.',
    '',
    ...flagsHelp(compareFlags),
  ].join('\n')
}

export function parseCompareArgs(argv: readonly string[], env: NodeJS.ProcessEnv): CompareCliOptions {
  const { values, positionals } = parseFlags(argv, compareFlags)
  if (positionals.length < 2)
    throw new UsageError(`compare needs at least two report.json files, got ${positionals.length}`)
  const flag = compareFlags[0]!
  return {
    reports: positionals,
    reportDir: validateFlag(flag, values['report-dir'] ?? (env.IPTS_REPORT_DIR || undefined) ?? flag.default) as string,
  }
}

/** `ipts-conformance compare`: writes the comparison files and prints how many rows differ and where the files are. */
export async function compare(options: CompareCliOptions): Promise<number> {
  const inputs = await Promise.all(
    options.reports.map(async (path) => ({ path, report: await readComparedReport(path) })),
  )
  const comparison = compareReports(inputs)
  await mkdir(options.reportDir, { recursive: true })
  const lines = [
    `${comparison.summary.differing} of ${comparison.summary.rows} rows differ across ${comparison.summary.reports} reports`,
  ]
  for (const format of formats) {
    const path = join(options.reportDir, format.file)
    await writeFile(path, format.render(comparison))
    lines.push(`compare: ${path}`)
  }
  process.stdout.write(`${lines.join('\n')}\n`)
  return 0
}
