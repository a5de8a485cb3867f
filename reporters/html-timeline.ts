import type { CheckOutcome, Report } from '../src/core/report.js'
import { connectionText } from './evidence-text.js'

/** The page's own helpers: its escaping of interpolated text, and the anchor of a check's failure. */
interface PageHelpers {
  escapeHtml: (text: string | number | boolean | undefined) => string
  anchor: (checkId: string) => string
}

/** The drawing's size in its own units (it scales to the page's width): a column of labels, then the time axis. */
const WIDTH = 1000
const LABELS = 280
const ROW = 20
const AXIS = 24
const TICKS = 5

/** The failures whose evidence says when their first sample came, in the order of that time. */
function timedFindings(report: Report): (CheckOutcome & { evidence: { sample: { at: string } } })[] {
  return report.checks
    .filter(
      (check) =>
        check.status === 'failed' && check.evidence?.sample && !Number.isNaN(Date.parse(check.evidence.sample.at)),
    )
    .map((check) => check as CheckOutcome & { evidence: { sample: { at: string } } })
    .sort((a, b) => Date.parse(a.evidence.sample.at) - Date.parse(b.evidence.sample.at))
}

/** Whether the report holds any time to draw: rounds after the checks, or a failure's first sample. */
export function hasTimeline(report: Report): boolean {
  return (report.resampling?.timeline?.length ?? 0) > 0 || timedFindings(report).length > 0
}

/** "+42 s", "+3 min 05 s": a time on the axis, from the report's start. */
function offset(ms: number): string {
  const seconds = Math.round(ms / 1000)
  return seconds < 120 ? `+${seconds} s` : `+${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`
}

/**
 * report.html's timeline, an inline SVG (nothing fetched): the run's rounds over time (round 0, the checks; the last
 * sweep or each round of a soak, its bar as tall as its share of requests, marked where its samples showed
 * violations), and one row per failure at the time of the first sample that showed it. Long soaks come merged into at
 * most TIMELINE_SPANS entries (report.json's resampling.timeline), so the drawing stays readable. Empty when the report
 * holds no time to draw.
 */
export function timelineSection(report: Report, { escapeHtml, anchor }: PageHelpers): string {
  if (!hasTimeline(report)) return ''
  const spans = report.resampling?.timeline ?? []
  const findings = timedFindings(report)
  const sampled = findings.map((check) => Date.parse(check.evidence.sample.at))
  // Recorded traffic came before the report was made: its time is that of its samples, and it has no rounds of its own.
  const recorded = report.traffic !== undefined
  const start = recorded ? Math.min(...sampled) : Date.parse(report.startedAt)
  const times = [
    ...(recorded ? [] : [start + report.durationMs]),
    ...spans.map((span) => Date.parse(span.at) + span.durationMs),
    ...sampled,
  ]
  const end = Math.max(start + 1, ...times.filter((time) => !Number.isNaN(time)))
  const x = (time: number) =>
    LABELS + ((Math.min(Math.max(time, start), end) - start) / (end - start)) * (WIDTH - LABELS - 10)
  const height = AXIS + ROW * (1 + findings.length) + 6
  const parts: string[] = []
  for (let tick = 0; tick <= TICKS; tick++) {
    const at = start + ((end - start) * tick) / TICKS
    parts.push(
      `<line class="tick" x1="${x(at).toFixed(1)}" x2="${x(at).toFixed(1)}" y1="${AXIS - 4}" y2="${height}"/>`,
      `<text class="axis" x="${x(at).toFixed(1)}" y="${AXIS - 8}" text-anchor="${tick === 0 ? 'start' : tick === TICKS ? 'end' : 'middle'}">${escapeHtml(offset(at - start))}</text>`,
    )
  }
  // Round 0, the checks: from the start to the first round after them.
  const checksEnd = spans.length > 0 ? Date.parse(spans[0]!.at) : end
  parts.push(
    `<text class="label" x="4" y="${AXIS + 14}">${recorded ? 'the recorded exchanges' : 'rounds (requests; red: violations)'}</text>`,
  )
  if (!recorded)
    parts.push(
      `<rect class="round checks" x="${x(start).toFixed(1)}" y="${AXIS + 3}" width="${Math.max(1, x(checksEnd) - x(start)).toFixed(1)}" height="${ROW - 6}"><title>round 0: the checks</title></rect>`,
    )
  const most = Math.max(1, ...spans.map((span) => span.requests))
  for (const span of spans) {
    const from = Date.parse(span.at)
    const tall = Math.max(2, ((ROW - 6) * span.requests) / most)
    const rounds = span.first === span.last ? `round ${span.first}` : `rounds ${span.first} to ${span.last}`
    parts.push(
      `<rect class="round${span.violations > 0 ? ' violated' : ''}" x="${x(from).toFixed(1)}" y="${(AXIS + ROW - 3 - tall).toFixed(1)}" width="${Math.max(1, x(from + span.durationMs) - x(from) - 0.5).toFixed(1)}" height="${tall.toFixed(1)}"><title>${escapeHtml(`${rounds}: ${span.requests} requests, ${span.violations} samples with violations, from ${span.at}`)}</title></rect>`,
    )
  }
  findings.forEach((check, index) => {
    const y = AXIS + ROW * (index + 1)
    const { sample } = check.evidence
    const where = [
      `round ${sample.round}`,
      check.evidence.sample.connection ? connectionText(check.evidence.sample.connection) : '',
      check.samples ? `${check.samples.showed} of ${check.samples.of} samples` : '',
    ].filter(Boolean)
    parts.push(
      `<text class="label" x="4" y="${y + 14}"><a href="#${anchor(check.id)}">${escapeHtml(check.id)}</a></text>`,
      `<circle class="finding ${check.level === 'MUST' ? 'must' : 'should'}" cx="${x(Date.parse(sample.at)).toFixed(1)}" cy="${y + 10}" r="5"><title>${escapeHtml(`${check.id}: first seen ${sample.at}, ${where.join(', ')}`)}</title></circle>`,
    )
  })
  const rounds = report.resampling
    ? `${report.resampling.rounds} ${report.resampling.kind === 'soak' ? 'soak rounds' : 'last sweep'}`
    : 'no rounds'
  const opening = recorded ? 'The recorded exchanges' : `Round 0 (the checks), then ${rounds}`
  return `<section id="timeline"><h2>Timeline</h2>
<p>${escapeHtml(opening)} over ${escapeHtml(offset(end - start).slice(1))}; ${findings.length} ${findings.length === 1 ? 'failure' : 'failures'} at the time of the first sample that showed each (hover for its round, connection and samples).</p>
<svg class="timeline" viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-label="${escapeHtml(`timeline of ${spans.length + 1} round entries and ${findings.length} findings`)}">
${parts.join('\n')}
</svg>
</section>`
}

/** The timeline's style, added to the page's. */
export const TIMELINE_STYLE = `
svg.timeline{max-width:100%;font-size:11px;background:#fafafa;border:1px solid #ddd}
svg.timeline .tick{stroke:#e3e3e3}
svg.timeline .axis{fill:#666}
svg.timeline .label{fill:#222}
svg.timeline .label a{fill:#0645ad}
svg.timeline .round{fill:#8ab4e8}
svg.timeline .round.checks{fill:#c9c9c9}
svg.timeline .round.violated{fill:#d9534f}
svg.timeline .finding.must{fill:#c9302c}
svg.timeline .finding.should{fill:#ec971f}
`
