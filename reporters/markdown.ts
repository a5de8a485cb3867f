import type { Level } from '../src/contract/requirements.js'
import { comparisonLines, type BaselineComparison } from './baseline.js'
import { oneLine } from './evidence-text.js'
import type { CheckStatus, Report } from './report.js'
import { requirementCounts } from './traceability.js'

const LEVELS: readonly Level[] = ['MUST', 'SHOULD']
const STATUSES: readonly CheckStatus[] = ['passed', 'failed', 'skipped', 'waived']

/** Text from the target, made inert in Markdown: no HTML, no table breaks, no emphasis or links. */
export function escapeMarkdown(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/([\\`*_[\]|~])/g, '\\$1')
}

/** report.md: verdict, counts by level, failed checks with their requirement and reason; fit for a pull request or a CI job summary. */
export function renderMarkdown(report: Report, comparison?: BaselineComparison): string {
  const { summary } = report
  const lines = [
    `## IPTS conformance: ${summary.verdict === 'pass' ? 'PASS' : 'FAIL'}`,
    '',
    `${escapeMarkdown(report.target.baseUrl)} · ${report.tool.name} ${report.tool.version} · seed ${report.seed} · ${report.startedAt} · ${report.durationMs} ms${report.strict ? ' · strict' : ''}`,
    '',
    `| level | ${STATUSES.join(' | ')} |`,
    `|---|${STATUSES.map(() => '---:').join('|')}|`,
    ...LEVELS.map((level) => `| ${level} | ${STATUSES.map((s) => report.checks.filter((c) => c.level === level && c.status === s).length).join(' | ')} |`),
    '',
    `Requirements: ${Object.entries(requirementCounts(report.requirements)).map(([status, n]) => `${n} ${status}`).join(', ')}.`,
  ]
  const failed = report.checks.filter((c) => c.status === 'failed')
  if (failed.length > 0) {
    lines.push('', '### Failed checks', '', '| check | requirement | level | reason |', '|---|---|---|---|')
    for (const check of failed) lines.push(`| \`${check.id}\` | ${check.requirement} | ${check.level} | ${escapeMarkdown(oneLine(check.reason))} |`)
  }
  const waived = report.checks.filter((c) => c.status === 'waived')
  if (waived.length > 0) {
    lines.push('', '### Waived checks', '')
    for (const check of waived) lines.push(`- \`${check.id}\` (${check.waiver?.outcome}): ${escapeMarkdown(oneLine(check.waiver?.reason))}`)
  }
  const crashed = report.checks.filter((c) => c.crashed)
  if (crashed.length > 0) lines.push('', `Checks that crashed (a defect of the suite; their failure says nothing about the target): ${crashed.map((c) => `\`${c.id}\``).join(', ')}.`)
  const retried = report.checks.filter((c) => c.retried)
  if (retried.length > 0) lines.push('', `Outcomes that depended on a retry (429, 502 or 503): ${retried.map((c) => `\`${c.id}\` (${c.status})`).join(', ')}.`)
  const uncovered = report.requirements.filter((r) => r.status === 'uncovered')
  if (uncovered.length > 0) lines.push('', `Observable requirements no check covers yet: ${uncovered.map((r) => `\`${r.id}\``).join(', ')}.`)
  if (comparison) {
    const [heading, ...rest] = comparisonLines(comparison)
    lines.push('', '### Compared with the baseline', '', escapeMarkdown(heading!), '', ...rest.map((line) => `- ${escapeMarkdown(line)}`))
  }
  if (report.errors.length > 0) lines.push('', '### Run errors', '', ...report.errors.map((e) => `- ${escapeMarkdown(oneLine(e))}`))
  lines.push('', 'Evidence and a reproduction command for each failure: `report.html` (open in a browser) and `report.json`.', '')
  return lines.join('\n')
}
