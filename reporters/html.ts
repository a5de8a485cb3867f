import { levelLabel } from '../src/contract/requirements.js'
import type { Evidence } from '../src/core/report.js'
import { comparisonLines, type BaselineComparison } from './baseline.js'
import { oneLine, profileLine, sampleLine } from './evidence-text.js'
import {
  assessedLine,
  belowMinimum,
  interruptionLine,
  provenance,
  type CheckOutcome,
  type Coverage,
  type Report,
  type RequirementResult,
} from '../src/core/report.js'
import { requirementCounts } from '../src/engine/traceability.js'
import { prettyJsonHtml } from './json-body.js'
import { hasTimeline, TIMELINE_STYLE, timelineSection } from './html-timeline.js'
import { LIFECYCLE_STYLE, lifecycles, lifecycleSection } from './html-lifecycle.js'

/** Everything interpolated into the page goes through here: the target's responses are hostile input. */
export function escapeHtml(text: string | number | boolean | undefined): string {
  return String(text ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/**
 * The head of a self-contained page: nothing may be fetched (the CSP allows only inline style, inline script and data:
 * images).
 */
export function pageHead(title: string, extraStyle: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}${extraStyle}</style>
</head>`
}

const anchor = (checkId: string) => `check-${checkId.replace(/[^a-z0-9-]/gi, '-')}`
/** A status as one word of a class attribute: "not run" is `not-run`. */
const statusWord = (status: string) => escapeHtml(status.replace(/ /g, '-'))
/** A status as the page and compare.html show it, styled by its word. */
export const badge = (status: string) => `<span class="status s-${statusWord(status)}">${escapeHtml(status)}</span>`

/**
 * report.html: one self-contained page (inline style and script, nothing fetched) with the verdict, the traceability
 * matrix and each failure's evidence.
 */
export function renderHtml(report: Report, comparison?: BaselineComparison): string {
  const failed = report.checks.filter((c) => c.status === 'failed')
  return `${pageHead(`IPTS conformance: ${report.summary.verdict === 'pass' ? 'PASS' : 'FAIL'}`, `${TIMELINE_STYLE}${LIFECYCLE_STYLE}`)}
<body>
${tableOfContents(report, comparison)}
${headerSection(report)}
${timelineSection(report, { escapeHtml, anchor })}
${comparison ? comparisonSection(comparison) : ''}
${report.errors.length > 0 ? `<section id="run-errors"><h2>Run errors</h2><ul>${report.errors.map((e) => `<li><pre>${escapeHtml(e)}</pre></li>`).join('')}</ul></section>` : ''}
<section id="failures"><h2>Failures (${failed.length})</h2>
${failed.length === 0 ? '<p>No check failed.</p>' : failed.map(failureSection).join('\n')}
</section>
${lifecycleSection(report, { escapeHtml })}
${writesSection(report.checks)}
${coverageSection(report.coverage)}
${traceabilitySection(report)}
${checksSection(report.checks)}
<script>${SCRIPT}</script>
</body>
</html>
`
}

/** Every skipped check with its reason, on the first screen: a skip is what the run could not judge, and why. */
function skippedSummary(report: Report): string {
  const skipped = report.checks.filter((c) => c.status === 'skipped')
  if (skipped.length === 0) return ''
  return `<details id="skipped" open><summary>Skipped (${skipped.length}): what the run could not judge, and why</summary><ul>${skipped.map((c) => `<li><a href="#${anchor(c.id)}"><code>${escapeHtml(c.id)}</code></a>: ${escapeHtml(c.reason)}</li>`).join('')}</ul></details>`
}

/**
 * Links to each part of the page that is there: the verdict, failures, coverage, skips, traceability and every check.
 */
function tableOfContents(report: Report, comparison: BaselineComparison | undefined): string {
  const failed = report.checks.filter((c) => c.status === 'failed').length
  const skipped = report.checks.filter((c) => c.status === 'skipped').length
  const entries: [string, string | false][] = [
    ['verdict', `Verdict: ${report.summary.verdict === 'pass' ? 'PASS' : 'FAIL'}`],
    ['skipped', skipped > 0 && `Skipped (${skipped})`],
    ['timeline', hasTimeline(report) && 'Timeline'],
    ['baseline', !!comparison && 'Compared with the baseline'],
    ['run-errors', report.errors.length > 0 && `Run errors (${report.errors.length})`],
    ['failures', `Failures (${failed})`],
    ['lifecycle', lifecycles(report).length > 0 && 'Lifecycle'],
    ['writes', report.checks.some((c) => c.writes?.length) && 'Writes sent'],
    ['coverage', `Coverage (${report.coverage.summary.percent}% assessed)`],
    ['traceability', 'Traceability'],
    ['checks', `Every check (${report.checks.length})`],
  ]
  return `<nav id="toc"><ul>${entries
    .filter(([, label]) => label !== false)
    .map(([id, label]) => `<li><a href="#${id}">${escapeHtml(label as string)}</a></li>`)
    .join('')}</ul></nav>`
}

/**
 * How much the report judged: the share assessed, each operation's responses by status, and each observable requirement
 * not assessed with why and what would assess it.
 */
function coverageSection(coverage: Coverage): string {
  const { summary } = coverage
  const operations = coverage.operations.map((op) => {
    const statuses = Object.entries(op.statuses)
      .map(([status, n]) => `<span class="seen">${escapeHtml(status)} ×${n}</span>`)
      .join(' ')
    return `<tr><td><code>${escapeHtml(op.operation)}</code></td><td>${statuses || '<span class="reason">no response</span>'}</td><td>${op.judged}</td></tr>`
  })
  const unassessed = coverage.requirements.filter((r) => r.observable && !r.assessed)
  const wanted = (r: Coverage['requirements'][number]) =>
    [
      ...(r.assessedWith?.inputs ?? []).map((flag) => `<code>${escapeHtml(flag)}</code>`),
      ...(r.assessedWith?.profileKeys ?? []).map((key) => `profile <code>${escapeHtml(key)}</code>`),
    ].join(', ')
  const rows = unassessed.map(
    (r) =>
      `<tr><td><a href="#req-${escapeHtml(r.id)}"><code>${escapeHtml(r.id)}</code></a></td><td>${r.level}</td><td>${escapeHtml(r.reason)}</td><td>${wanted(r)}</td></tr>`,
  )
  return `<section id="coverage"><h2>Coverage</h2>
<p class="assessed${belowMinimum(summary) ? ' below' : ''}">${escapeHtml(assessedLine(summary))}.</p>
<table class="operations"><thead><tr><th>operation</th><th>responses by status</th><th>judged</th></tr></thead><tbody>${operations.join('')}</tbody></table>
${unassessed.length === 0 ? '<p>Every observable requirement was assessed.</p>' : `<h3>Observable requirements not assessed (${unassessed.length})</h3><table class="unassessed">${columns([22, 8, 50, 20])}<thead><tr><th>requirement</th><th>level</th><th>why</th><th>would assess it</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`}
</section>`
}

function headerSection(report: Report): string {
  const { summary } = report
  const levels = (['MUST', 'SHOULD'] as const).map((level) => {
    const of = (status: string) => report.checks.filter((c) => c.level === level && c.status === status).length
    return `<tr><th>${level}</th><td>${of('passed')}</td><td>${of('failed')}</td><td>${of('not run')}</td><td>${of('skipped')}</td><td>${of('waived')}</td></tr>`
  })
  const requirements = Object.entries(requirementCounts(report.requirements)).map(
    ([status, n]) => `${badge(status)} ${n}`,
  )
  return `<header>
<h1>IPTS conformance <span id="verdict" class="verdict v-${summary.verdict}">${summary.verdict === 'pass' ? 'PASS' : 'FAIL'}</span></h1>
${report.interrupted ? `<p id="interrupted" class="interrupted"><b>${escapeHtml(interruptionLine(report)!)}</b></p>\n` : ''}<p class="meta">Target <b>${escapeHtml(report.target.baseUrl)}</b> · ${escapeHtml(report.tool.name)} ${escapeHtml(report.tool.version)} · started ${escapeHtml(report.startedAt)} · ${report.durationMs} ms · ${escapeHtml(report.traffic ? provenance(report) : `seed ${report.seed} · ${report.runs} runs per property`)}${report.strict ? ' · strict' : ''}</p>
<p>${summary.failedMust} MUST and ${summary.failedShould} SHOULD failures. ${summary.verdict === 'pass' ? 'No MUST check failed' : 'The run fails'}${report.strict ? ' (strict: SHOULD failures count)' : ''}; ${escapeHtml(assessedLine(report.coverage.summary))} (<a href="#coverage">coverage</a>).</p>
<table class="counts"><thead><tr><th>level</th><th>passed</th><th>failed</th><th>not run</th><th>skipped</th><th>waived</th></tr></thead><tbody>${levels.join('')}</tbody></table>
<p>Requirements: ${requirements.join(' ')}</p>
${skippedSummary(report)}
${report.target.restart ? `<p class="restart">The embedded reference server was gone when the run ended; the reproduction commands address it. <code>${escapeHtml(report.target.restart)}</code> serves one at the same address (it prints its keys and receipts for the commands' variables).</p>` : ''}
${report.profile ? `<p class="profile">Deployment profile: ${escapeHtml(report.profile.source)}; ${report.requirements.filter((r) => r.profile).length} requirements assessed against it.</p>` : '<p class="profile">No deployment profile (--profile): requirements whose facts the contract leaves "not shown" are not assessable.</p>'}
</header>`
}

function comparisonSection(comparison: BaselineComparison): string {
  const [heading, ...rest] = comparisonLines(comparison)
  return `<section id="baseline"><h2>Compared with the baseline</h2><p>${escapeHtml(heading)}</p><ul>${rest.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul></section>`
}

function failureSection(check: CheckOutcome): string {
  return `<article class="failure" id="${anchor(check.id)}">
<h3>${badge('failed')} <code>${escapeHtml(check.id)}</code> ${escapeHtml(check.title)}</h3>
<p class="meta">Requirement <a href="#req-${escapeHtml(check.requirement)}">${escapeHtml(check.requirement)}</a> · ${levelLabel(check)}${check.crashed ? ' · <strong>the check crashed</strong>: a defect of the suite, not a finding about the target' : ''}</p>
${check.evidence ? evidenceBlock(check.evidence, check.samples) : `<p class="message">${escapeHtml(check.reason)}</p>`}
</article>`
}

function evidenceBlock(evidence: Evidence, samples?: CheckOutcome['samples']): string {
  const parts = [`<p class="message">${escapeHtml(evidence.message)}</p>`]
  if (evidence.sample) parts.push(`<p class="sample">${escapeHtml(sampleLine(evidence.sample, samples))}</p>`)
  const { request, response, counterexample } = evidence
  if (request)
    parts.push(
      `<h4>Request</h4><pre class="request">${escapeHtml(`${request.method} ${request.url}\n${headerText(request.headers)}`)}</pre>`,
    )
  if (response) {
    parts.push(
      `<h4>Response: status <span class="http-status">${response.status}</span>, ${response.bodyBytes} bytes${response.truncated ? ' (cut at the size cap)' : ''}</h4>`,
      `<pre class="headers">${escapeHtml(headerText(response.headers))}</pre>`,
      bodyBlock(response.bodyExcerpt, evidence.schemaViolations?.map((v) => v.instancePath) ?? []),
    )
  }
  if (evidence.transportError)
    parts.push(
      `<h4>Transport error</h4><pre>${escapeHtml(`${evidence.transportError.code}: ${evidence.transportError.message}`)}</pre>`,
    )
  if (evidence.retries?.length)
    parts.push(`<p>Retried: ${evidence.retries.map((r) => `status ${r.status} after ${r.waitedMs} ms`).join(', ')}</p>`)
  if (evidence.schemaViolations?.length) {
    const rows = evidence.schemaViolations.map(
      (v) =>
        `<tr><td>${escapeHtml(v.schema)}</td><td><code>${escapeHtml(v.keyword)}</code></td><td><code>${escapeHtml(v.instancePath || '(root)')}</code></td><td><code>${escapeHtml(v.schemaPath)}</code></td><td>${escapeHtml(v.message)}</td></tr>`,
    )
    parts.push(
      `<h4>Schema violations</h4><table class="violations"><thead><tr><th>schema</th><th>keyword</th><th>JSON pointer</th><th>schema path</th><th>message</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    )
  }
  if (counterexample) {
    parts.push(
      `<h4>Counterexample</h4><p>seed ${counterexample.seed}, path <code>${escapeHtml(counterexample.path)}</code>, after ${counterexample.runs} runs</p><pre>${escapeHtml(JSON.stringify(counterexample.value, null, 2))}</pre>`,
    )
    if (counterexample.replay) parts.push(commandBlock('Replay', counterexample.replay))
  }
  if (evidence.profile)
    parts.push(`<h4>Deployment profile</h4><p class="profile">${escapeHtml(profileLine(evidence.profile))}</p>`)
  if (evidence.reproduce) parts.push(commandBlock('Reproduce', evidence.reproduce, variablesNote(evidence.reproduce)))
  if (evidence.others?.length)
    parts.push(
      `<details><summary>${evidence.others.length} more response(s) broke the same rule</summary><ul>${evidence.others.map((o) => `<li>${escapeHtml(oneLine(o.message))}${o.request ? ` <code>${escapeHtml(`${o.request.method} ${o.request.url}`)}</code>` : ''}</li>`).join('')}</ul></details>`,
    )
  return parts.join('\n')
}

/**
 * A response body: pretty-printed JSON with the value at each violation's pointer marked, or the excerpt as it is when
 * it is no whole JSON value.
 */
function bodyBlock(excerpt: string, pointers: readonly string[]): string {
  const pretty = prettyJsonHtml(excerpt, pointers, escapeHtml)
  if (pretty === undefined) return `<pre class="body">${escapeHtml(excerpt)}</pre>`
  const note =
    pointers.length > 0
      ? '<p class="note">Pretty-printed; the value at each violation\'s JSON pointer is marked.</p>'
      : ''
  return `${note}<pre class="body json">${pretty}</pre>`
}

/** The shell variables a command stands in for secrets with, which the reader sets before pasting it. */
function variablesNote(command: string): string | undefined {
  const names = [...new Set([...command.matchAll(/\$\{(IPTS_[A-Z0-9_]+)\}/g)].map(([, name]) => name!))]
  return names.length > 0 ? `Set ${names.join(' and ')} in your shell first.` : undefined
}

function commandBlock(label: string, command: string, note?: string): string {
  return `<h4>${label}</h4>${note ? `<p class="note">${escapeHtml(note)}</p>` : ''}<div class="command"><pre class="reproduce">${escapeHtml(command)}</pre><button type="button" class="copy">Copy</button></div>`
}

/** Column widths in percent, for tables laid out fixed so that long identifiers wrap inside their column. */
function columns(widths: readonly number[]): string {
  return `<colgroup>${widths.map((w) => `<col style="width:${w}%">`).join('')}</colgroup>`
}

function headerText(headers: Record<string, string | string[]>): string {
  return Object.entries(headers)
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => `${name}: ${v}`))
    .join('\n')
}

/** The contract's own words under a rule, so that a reader can judge the rule against them. */
function quoteBlock(quote: readonly string[]): string {
  return `<blockquote class="quote">${quote.map((sentence) => `<p>${escapeHtml(sentence)}</p>`).join('')}</blockquote>`
}

function traceabilitySection(report: Report): string {
  const statusOf = new Map(report.checks.map((c) => [c.id, c.status]))
  const row = (r: RequirementResult) => {
    const checks = r.checks
      .map(
        (id) =>
          `<li><a href="#${anchor(id)}"><code>${escapeHtml(id)}</code></a> ${badge(statusOf.get(id) ?? 'not run')}</li>`,
      )
      .join('')
    return `<tr id="req-${escapeHtml(r.id)}" class="r-${statusWord(r.status)}"><td><code>${escapeHtml(r.id)}</code></td><td>${levelLabel(r)}</td><td>${escapeHtml(r.section)}</td><td>${escapeHtml(r.rule)}${quoteBlock(r.quote)}</td><td>${checks ? `<ul>${checks}</ul>` : '—'}</td><td>${badge(r.status)}${r.profile ? `<div class="profile">${escapeHtml(profileLine(r.profile, 120))}</div>` : ''}${r.reason ? `<div class="reason">${escapeHtml(r.reason)}</div>` : ''}</td></tr>`
  }
  return `<section id="traceability"><h2>Traceability: requirement → checks → outcome</h2>
<p><label><input type="checkbox" id="only-open"> show only failed, uncovered and skipped requirements</label></p>
<table class="matrix">${columns([16, 8, 11, 29, 18, 18])}<thead><tr><th>requirement</th><th>level</th><th>section</th><th>rule</th><th>checks</th><th>outcome</th></tr></thead>
<tbody>${report.requirements.map(row).join('\n')}</tbody></table></section>`
}

/** Every write the run sent (--allow-writes), in the order of the checks that sent them; nothing when it sent none. */
function writesSection(checks: readonly CheckOutcome[]): string {
  const writes = checks.flatMap((c) => (c.writes ?? []).map((write) => ({ check: c.id, ...write })))
  if (writes.length === 0) return ''
  // A member of a write is a value or absent: a key not sent and no response are named, never null.
  const cell = (value: unknown) => `<td>${value === undefined ? '' : `<code>${escapeHtml(String(value))}</code>`}</td>`
  const row = (w: (typeof writes)[number]) =>
    `<tr>${[w.check, `${w.operation} (${w.method})`, w.idempotencyKey ?? 'none', w.status ?? 'no response', w.attempts, w.statusIdentifier, w.receipt, w.duplicate].map(cell).join('')}</tr>`
  return `<section id="writes"><h2>Writes sent (${writes.length})</h2><table><thead><tr><th>check</th><th>operation</th><th>Idempotency-Key</th><th>status</th><th>attempts</th><th>status identifier</th><th>receipt</th><th>duplicate</th></tr></thead><tbody>${writes.map(row).join('\n')}</tbody></table></section>`
}

function checksSection(checks: readonly CheckOutcome[]): string {
  const row = (c: CheckOutcome) => {
    const reason = c.status === 'waived' ? `waived (${c.waiver?.outcome}): ${c.waiver?.reason}` : c.reason
    return `<tr${c.status === 'failed' ? '' : ` id="${anchor(c.id)}"`}><td><code>${escapeHtml(c.id)}</code></td><td>${escapeHtml(c.title)}</td><td><a href="#req-${escapeHtml(c.requirement)}">${escapeHtml(c.requirement)}</a></td><td>${levelLabel(c)}</td><td>${badge(c.status)}</td><td>${c.retried ? '<em>after a retry:</em> ' : ''}${escapeHtml(oneLine(reason, 300))}${c.inputs ? `<div class="inputs">${c.inputs.coverage} coverage and ${c.inputs.random} random inputs</div>` : ''}</td></tr>`
  }
  return `<section id="checks"><h2>Every check (${checks.length})</h2><table class="checks">${columns([22, 28, 16, 7, 8, 19])}<thead><tr><th>check</th><th>title</th><th>requirement</th><th>level</th><th>status</th><th>reason</th></tr></thead><tbody>${checks.map(row).join('\n')}</tbody></table></section>`
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1200px;padding:1.5em;color:#1b1f24;background:#fff}
h1{font-size:1.6em;margin:0 0 .3em}h2{margin-top:1.8em;border-bottom:1px solid #d0d7de;padding-bottom:.2em}h3{font-size:1.05em;margin:.2em 0}h4{margin:.9em 0 .3em;font-size:.95em}
.verdict{display:inline-block;padding:.05em .5em;border-radius:.3em;color:#fff}.v-pass{background:#1a7f37}.v-fail{background:#cf222e}.interrupted{border-left:.3em solid #bf8700;padding-left:.5em}
.meta{color:#57606a}table{border-collapse:collapse;width:100%;margin:.5em 0}th,td{border:1px solid #d0d7de;padding:.3em .5em;text-align:left;vertical-align:top;overflow-wrap:break-word}
th{background:#f6f8fa}table.counts{width:auto}table.counts td{text-align:right;min-width:4em}
.status{display:inline-block;padding:0 .4em;border-radius:.3em;font-size:.85em;white-space:nowrap;background:#eaeef2}
.s-passed{background:#dafbe1;color:#116329}.s-failed{background:#ffebe9;color:#a40e26}.s-skipped,.s-not-run{background:#fff8c5;color:#633c01}
.s-waived{background:#ddf4ff;color:#0550ae}.s-uncovered{background:#ffd8b5;color:#762c00}.s-not-assessable{background:#eaeef2;color:#57606a}
pre{background:#f6f8fa;border:1px solid #d0d7de;padding:.5em;overflow:auto;max-height:24em;white-space:pre-wrap;word-break:break-all;margin:.2em 0}
.failure{border:1px solid #ff818266;border-left:4px solid #cf222e;border-radius:.3em;padding:.6em 1em;margin:1em 0}
.message{font-weight:600}.command{position:relative}.command pre{padding-right:5.5em}.copy{position:absolute;top:.3em;right:.3em}.reason,.note{color:#57606a;font-size:.9em}
*{box-sizing:border-box}section{overflow-x:auto}table.matrix,table.checks{table-layout:fixed}
.matrix ul{margin:0;padding-left:1em}.quote{margin:.3em 0 0;padding-left:.6em;border-left:3px solid #d0d7de;color:#57606a;font-size:.9em}.quote p{margin:0}.hidden{display:none}code{font-size:.92em}
#toc ul{list-style:none;margin:0 0 1em;padding:0;display:flex;flex-wrap:wrap;gap:.3em 1.2em}mark.pointer{background:#fff8c5;outline:2px solid #d4a72c;border-radius:.2em}
.assessed{font-weight:600}.assessed.below{color:#a40e26}.seen{display:inline-block;margin-right:.6em;white-space:nowrap}table.operations{width:auto}table.unassessed{table-layout:fixed}
`

/**
 * No data in here: the script only wires the copy buttons and the matrix filter, and scrolls each long body to its
 * marked value.
 */
const SCRIPT = `
for (const body of document.querySelectorAll('pre.body')) {
  const mark = body.querySelector('mark.pointer')
  if (mark) body.scrollTop += mark.getBoundingClientRect().top - body.getBoundingClientRect().top - body.clientHeight / 3
}
for (const button of document.querySelectorAll('button.copy')) {
  button.addEventListener('click', () => {
    const text = button.previousElementSibling.textContent
    navigator.clipboard.writeText(text).then(() => { button.textContent = 'Copied' }, () => { button.textContent = 'Select and copy' })
  })
}
document.getElementById('only-open').addEventListener('change', (event) => {
  for (const row of document.querySelectorAll('.matrix tbody tr')) {
    const open = row.classList.contains('r-failed') || row.classList.contains('r-uncovered') || row.classList.contains('r-skipped')
    row.classList.toggle('hidden', event.target.checked && !open)
  }
})
`
