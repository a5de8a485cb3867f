import { levelLabel, type Level } from '../src/contract/requirements.js'
import { comparisonLines, type BaselineComparison } from './baseline.js'
import { lifecycles, stepOffset } from './html-lifecycle.js'
import { oneLine, profileLine, sampleLine } from './evidence-text.js'
import {
  assessedLine,
  interruptionLine,
  resamplingLine,
  provenance,
  type CheckStatus,
  type Coverage,
  type Report,
} from '../src/core/report.js'
import { requirementCounts } from '../src/engine/traceability.js'

const LEVELS: readonly Level[] = ['MUST', 'SHOULD']
const STATUSES: readonly CheckStatus[] = ['passed', 'failed', 'not run', 'skipped', 'waived']

/** Text from the target, made inert in Markdown: no HTML, no table breaks, no emphasis or links. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|~])/g, '\\$1')
}

/**
 * report.md: verdict, counts by level, failed checks with their requirement and reason; fit for a pull request or a CI
 * job summary.
 */
export function renderMarkdown(report: Report, comparison?: BaselineComparison): string {
  const { summary } = report
  const lines = [
    `## IPTS conformance: ${summary.verdict === 'pass' ? 'PASS' : 'FAIL'}`,
    '',
    ...(report.interrupted ? [`**${escapeMarkdown(interruptionLine(report)!)}**`, ''] : []),
    ...(report.resampling ? [escapeMarkdown(resamplingLine(report.resampling)), ''] : []),
    `${escapeMarkdown(report.target.baseUrl)} · ${report.tool.name} ${report.tool.version} · ${escapeMarkdown(provenance(report))} · ${report.startedAt} · ${report.durationMs} ms${report.strict ? ' · strict' : ''}`,
    '',
    `| level | ${STATUSES.join(' | ')} |`,
    `|---|${STATUSES.map(() => '---:').join('|')}|`,
    ...LEVELS.map(
      (level) =>
        `| ${level} | ${STATUSES.map((s) => report.checks.filter((c) => c.level === level && c.status === s).length).join(' | ')} |`,
    ),
    '',
    `Requirements: ${Object.entries(requirementCounts(report.requirements))
      .map(([status, n]) => `${n} ${status}`)
      .join(', ')}.`,
    '',
    `Coverage: ${assessedLine(report.coverage.summary)}.`,
    ...(report.target.restart
      ? [
          '',
          `The embedded reference server was gone when the run ended; the reproduction commands address it. \`${report.target.restart}\` serves one at the same address.`,
        ]
      : []),
  ]
  lines.push(...coverageLines(report.coverage))
  const profiled = report.requirements.filter((r) => r.profile)
  if (report.profile) {
    lines.push(
      '',
      `### Assessed against the deployment profile`,
      '',
      `Profile: ${escapeMarkdown(report.profile.source)}.`,
      '',
      '| requirement | status | profile value |',
      '|---|---|---|',
    )
    for (const r of profiled) lines.push(`| ${r.id} | ${r.status} | ${escapeMarkdown(profileLine(r.profile!, 120))} |`)
  }
  const failed = report.checks.filter((c) => c.status === 'failed')
  if (failed.length > 0) {
    lines.push('', '### Failed checks', '', '| check | requirement | level | reason |', '|---|---|---|---|')
    for (const check of failed)
      lines.push(
        `| \`${check.id}\` | ${check.requirement} | ${levelLabel(check)} | ${escapeMarkdown(oneLine(check.reason))}${check.evidence?.sample ? `; ${escapeMarkdown(sampleLine(check.evidence.sample, check.samples))}` : ''} |`,
      )
  }
  const notRun = report.checks.filter((c) => c.status === 'not run')
  if (notRun.length > 0)
    lines.push(
      '',
      `### Checks not run (${notRun.length})`,
      '',
      escapeMarkdown(oneLine(notRun[0]!.reason)),
      '',
      notRun.map((c) => `\`${c.id}\``).join(', '),
    )
  const inputs = report.checks.filter((c) => c.inputs)
  if (inputs.length > 0) {
    const sum = (phase: 'coverage' | 'random') => inputs.reduce((total, c) => total + c.inputs![phase], 0)
    lines.push(
      '',
      `Generated inputs: ${sum('coverage')} in the fixed coverage phase, ${sum('random')} in the random phase (seed ${report.seed}), over ${inputs.length} property checks.`,
    )
  }
  const breaches = report.traffic?.clientRuleBreaches ?? []
  if (breaches.length > 0) {
    lines.push(
      '',
      `### The recorded client broke a rule for clients (${breaches.length})`,
      '',
      "The client's fault, not the target's: the verdict does not count it.",
      '',
    )
    for (const breach of breaches) lines.push(`- ${breach.requirement}: ${escapeMarkdown(breach.message)}`)
  }
  for (const check of lifecycles(report)) {
    lines.push('', `### Lifecycle walked by \`${check.id}\` (${check.status})`, '')
    check.lifecycle.forEach((step, index) =>
      lines.push(
        `${index + 1}. ${stepOffset(step, check.lifecycle[0]!)} ${step.kind === 'rest' ? 'REST' : 'realtime'} **${escapeMarkdown(step.label)}**: ${escapeMarkdown(step.request)} → ${escapeMarkdown(step.outcome)}${step.receipt ? `, receipt ${escapeMarkdown(step.receipt)}` : ''}`,
      ),
    )
  }
  const writes = report.checks.flatMap((c) => (c.writes ?? []).map((write) => ({ check: c.id, ...write })))
  if (writes.length > 0) {
    lines.push(
      '',
      `### Writes sent (${writes.length}, --allow-writes)`,
      '',
      '| check | operation | Idempotency-Key | status | attempts | status identifier | receipt | duplicate |',
      '|---|---|---|---|---|---|---|---|',
    )
    const cell = (value: unknown) => (value === undefined ? '' : escapeMarkdown(String(value)))
    for (const w of writes)
      lines.push(
        `| \`${w.check}\` | ${cell(w.operation)} (${w.method}) | ${w.idempotencyKey === null ? 'none' : `\`${cell(w.idempotencyKey)}\``} | ${cell(w.status ?? 'no response')} | ${w.attempts} | ${cell(w.statusIdentifier)} | ${cell(w.receipt)} | ${cell(w.duplicate)} |`,
      )
  }
  const waived = report.checks.filter((c) => c.status === 'waived')
  if (waived.length > 0) {
    lines.push('', '### Waived checks', '')
    for (const check of waived)
      lines.push(`- \`${check.id}\` (${check.waiver?.outcome}): ${escapeMarkdown(oneLine(check.waiver?.reason))}`)
  }
  const crashed = report.checks.filter((c) => c.crashed)
  if (crashed.length > 0)
    lines.push(
      '',
      `Checks that crashed (a defect of the suite; their failure says nothing about the target): ${crashed.map((c) => `\`${c.id}\``).join(', ')}.`,
    )
  const retried = report.checks.filter((c) => c.retried)
  if (retried.length > 0)
    lines.push(
      '',
      `Outcomes that depended on a retry (a 429 or a 5xx): ${retried.map((c) => `\`${c.id}\` (${c.status})`).join(', ')}.`,
    )
  const uncovered = report.requirements.filter((r) => r.status === 'uncovered')
  if (uncovered.length > 0)
    lines.push('', `Observable requirements no check covers yet: ${uncovered.map((r) => `\`${r.id}\``).join(', ')}.`)
  if (comparison) {
    const [heading, ...rest] = comparisonLines(comparison)
    lines.push(
      '',
      '### Compared with the baseline',
      '',
      escapeMarkdown(heading!),
      '',
      ...rest.map((line) => `- ${escapeMarkdown(line)}`),
    )
  }
  if (report.errors.length > 0)
    lines.push('', '### Run errors', '', ...report.errors.map((e) => `- ${escapeMarkdown(oneLine(e))}`))
  lines.push(
    '',
    'Evidence and a reproduction command for each failure: `report.html` (open in a browser) and `report.json`.',
    '',
  )
  return lines.join('\n')
}

/**
 * The responses of each operation by status and how many were judged, then each observable requirement not assessed:
 * why, and what would assess it.
 */
function coverageLines(coverage: Coverage): string[] {
  const lines = ['', '### Coverage', '', '| operation | responses by status | judged |', '|---|---|---:|']
  for (const op of coverage.operations) {
    const statuses = Object.entries(op.statuses).map(([status, n]) => `${status} ×${n}`)
    lines.push(`| ${escapeMarkdown(op.operation)} | ${statuses.join(', ') || 'none'} | ${op.judged} |`)
  }
  const unassessed = coverage.requirements.filter((r) => r.observable && !r.assessed)
  if (unassessed.length === 0) return [...lines, '', 'Every observable requirement was assessed.']
  lines.push(
    '',
    `Observable requirements not assessed (${unassessed.length}):`,
    '',
    '| requirement | level | why | would assess it |',
    '|---|---|---|---|',
  )
  for (const r of unassessed) {
    const wanted = [
      ...(r.assessedWith?.inputs ?? []).map((flag) => `\`${flag}\``),
      ...(r.assessedWith?.profileKeys ?? []).map((key) => `profile \`${key}\``),
    ]
    lines.push(`| ${r.id} | ${r.level} | ${escapeMarkdown(oneLine(r.reason, 300))} | ${wanted.join(', ')} |`)
  }
  return lines
}
