import type { Comparison, ComparisonRow } from './compare.js'
import { escapeHtml, pageHead } from './html.js'
import { escapeMarkdown } from './markdown.js'

const rowName = (row: ComparisonRow) =>
  row.kind === 'check' ? `check ${row.id} (${row.requirement})` : `requirement ${row.id}`
const verdictText = (verdict: 'pass' | 'fail') => (verdict === 'pass' ? 'PASS' : 'FAIL')

/** compare.md: the verdicts side by side, then every row, those that differ first. */
export function renderCompareMarkdown(comparison: Comparison): string {
  const { columns, rows, summary } = comparison
  const head = `| | ${columns.map((c) => escapeMarkdown(c.label)).join(' | ')} |\n|---|${columns.map(() => '---|').join('')}`
  const table = (list: readonly ComparisonRow[]) =>
    `| row | level | ${columns.map((c) => escapeMarkdown(c.label)).join(' | ')} |\n|---|---|${columns.map(() => '---|').join('')}\n` +
    list
      .map(
        (row) =>
          `| ${row.kind} \`${escapeMarkdown(row.id)}\`${row.requirement ? ` (${escapeMarkdown(row.requirement)})` : ''} | ${row.level} | ${row.outcomes.map((o) => (o === null ? '(absent)' : row.differs ? `**${o}**` : o)).join(' | ')} |`,
      )
      .join('\n')
  const differing = rows.filter((r) => r.differs)
  return [
    `# IPTS conformance: ${summary.reports} reports compared`,
    '',
    head,
    `| verdict | ${columns.map((c) => verdictText(c.verdict)).join(' | ')} |`,
    `| failed MUST / SHOULD | ${columns.map((c) => `${c.failedMust} / ${c.failedShould}`).join(' | ')} |`,
    `| file | ${columns.map((c) => `\`${escapeMarkdown(c.path)}\``).join(' | ')} |`,
    '',
    `${summary.differing} of ${summary.rows} rows differ.`,
    '',
    '## Rows that differ',
    '',
    differing.length === 0 ? 'None: every report has the same outcome on every row.' : table(differing),
    '',
    '## Rows alike',
    '',
    table(rows.filter((r) => !r.differs)),
    '',
  ].join('\n')
}

/**
 * compare.html: one self-contained page (nothing fetched), the same table as compare.md, with a filter to the rows that
 * differ.
 */
export function renderCompareHtml(comparison: Comparison): string {
  const { columns, rows, summary } = comparison
  const cell = (outcome: string | null) =>
    outcome === null
      ? '<td class="absent">(absent)</td>'
      : `<td><span class="status s-${escapeHtml(outcome.replace(/ /g, '-'))}">${escapeHtml(outcome)}</span></td>`
  const row = (r: ComparisonRow) =>
    `<tr class="${r.differs ? 'differs' : 'alike'}" data-row="${escapeHtml(`${r.kind}:${r.id}`)}"><th scope="row">${escapeHtml(rowName(r))}${r.title ? `<div class="note">${escapeHtml(r.title)}</div>` : ''}</th><td>${escapeHtml(r.level)}</td>${r.outcomes.map(cell).join('')}</tr>`
  return `${pageHead(`IPTS conformance: ${summary.reports} reports compared`, COMPARE_STYLE)}
<body>
<header>
<h1>IPTS conformance: ${summary.reports} reports compared</h1>
<p id="differing">${summary.differing} of ${summary.rows} rows differ.</p>
</header>
<section>
<label><input type="checkbox" id="only-differing"> only rows that differ</label>
<table class="compare">
<thead>
<tr><th>row</th><th>level</th>${columns.map((c) => `<th scope="col" class="column">${escapeHtml(c.label)}</th>`).join('')}</tr>
<tr class="verdicts"><th>verdict</th><td></td>${columns.map((c) => `<td><span class="verdict v-${c.verdict}">${verdictText(c.verdict)}</span> ${c.failedMust} MUST, ${c.failedShould} SHOULD failed</td>`).join('')}</tr>
</thead>
<tbody>
${rows.map(row).join('\n')}
</tbody>
</table>
</section>
<script>${COMPARE_SCRIPT}</script>
</body>
</html>
`
}

const COMPARE_STYLE = `
table.compare th.column{min-width:10em}tr.differs th{border-left:4px solid #cf222e}td.absent{color:#57606a;font-style:italic}
`

/** No data in here: the script only wires the filter. */
const COMPARE_SCRIPT = `
document.getElementById('only-differing').addEventListener('change', (event) => {
  for (const row of document.querySelectorAll('table.compare tbody tr.alike')) row.classList.toggle('hidden', event.target.checked)
})
`
