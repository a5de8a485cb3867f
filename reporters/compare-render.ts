import type { Comparison, ComparisonColumn, ComparisonRow } from './compare.js'
import { badge, escapeHtml, pageHead } from './html.js'
import { escapeMarkdown } from './markdown.js'

const rowName = (row: ComparisonRow) =>
  row.kind === 'check' ? `check ${row.id} (${row.requirement})` : `requirement ${row.id}`
const verdictText = (verdict: 'pass' | 'fail') => (verdict === 'pass' ? 'PASS' : 'FAIL')

/**
 * The reports over time, for a user watching a deployment through several (soak) runs: the columns in the order of
 * their start, what each read after its checks, and each check that failed in any of them, the earliest failure
 * first; undefined when no check failed anywhere.
 */
function overTime(
  comparison: Comparison,
): { order: number[]; reads: string[]; rows: { row: ComparisonRow; first: string; cells: string[] }[] } | undefined {
  const failing = comparison.rows.filter((row) => row.firstFailed)
  if (failing.length === 0) return undefined
  const { columns } = comparison
  const order = columns
    .map((column, index) => ({ index, at: Date.parse(column.startedAt) }))
    // Stable: reports that started at the same time keep their columns' order.
    .sort((a, b) => a.at - b.at)
    .map(({ index }) => index)
  const rows = failing
    .sort(
      (a, b) =>
        Date.parse(a.firstFailed!.at ?? a.firstFailed!.startedAt) -
        Date.parse(b.firstFailed!.at ?? b.firstFailed!.startedAt),
    )
    .map((row) => {
      const { column, startedAt, at } = row.firstFailed!
      return {
        row,
        first: `report ${order.indexOf(column) + 1} of ${columns.length} (started ${startedAt})${at ? `, first sample ${at}` : ''}`,
        cells: order.map((index) => {
          const outcome = row.outcomes[index]
          const counted = row.samples?.[index]
          return outcome === null
            ? '(absent)'
            : `${outcome}${counted ? `, ${counted.showed} of ${counted.of} samples` : ''}`
        }),
      }
    })
  return { order, reads: order.map((index) => readsText(columns[index]!)), rows }
}

/** What a report read after its checks: "soak: 12 rounds, 480 requests in 600 s", "last sweep: 40 requests". */
function readsText({ resampling }: ComparisonColumn): string {
  if (!resampling) return '(not recorded)'
  return resampling.kind === 'soak'
    ? `soak: ${resampling.rounds} rounds, ${resampling.requests} requests in ${Math.round(resampling.durationMs / 1000)} s`
    : `last sweep: ${resampling.requests} requests`
}

/** compare.md: the verdicts side by side, then every row, those that differ first, then the failures over time. */
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
    ...overTimeMarkdown(comparison),
  ].join('\n')
}

function overTimeMarkdown(comparison: Comparison): string[] {
  const time = overTime(comparison)
  if (!time) return []
  const labels = time.order.map((index) => escapeMarkdown(comparison.columns[index]!.label))
  return [
    '## Over time',
    '',
    'The reports in the order they started; each check that failed in any of them, the earliest failure first, with the samples that showed it of those judged.',
    '',
    `| check | first failed | ${labels.join(' | ')} |`,
    `|---|---|${labels.map(() => '---|').join('')}`,
    `| reads after the checks | | ${time.reads.join(' | ')} |`,
    ...time.rows.map(
      ({ row, first, cells }) => `| \`${escapeMarkdown(row.id)}\` | ${escapeMarkdown(first)} | ${cells.join(' | ')} |`,
    ),
    '',
  ]
}

function overTimeHtml(comparison: Comparison): string {
  const time = overTime(comparison)
  if (!time) return ''
  return `<section id="over-time"><h2>Over time</h2>
<p>The reports in the order they started; each check that failed in any of them, the earliest failure first, with the samples that showed it of those judged.</p>
<table class="over-time">
<thead><tr><th>check</th><th>first failed</th>${time.order.map((index) => `<th scope="col">${escapeHtml(comparison.columns[index]!.label)}</th>`).join('')}</tr>
<tr class="reads"><th>reads after the checks</th><td></td>${time.reads.map((reads) => `<td>${escapeHtml(reads)}</td>`).join('')}</tr></thead>
<tbody>
${time.rows.map(({ row, first, cells }) => `<tr data-row="${escapeHtml(`${row.kind}:${row.id}`)}"><th scope="row"><code>${escapeHtml(row.id)}</code></th><td>${escapeHtml(first)}</td>${cells.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('\n')}
</tbody>
</table>
</section>`
}

/**
 * compare.html: one self-contained page (nothing fetched), the same table as compare.md, with a filter to the rows that
 * differ.
 */
export function renderCompareHtml(comparison: Comparison): string {
  const { columns, rows, summary } = comparison
  const cell = (outcome: string | null) =>
    outcome === null ? '<td class="absent">(absent)</td>' : `<td>${badge(outcome)}</td>`
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
${overTimeHtml(comparison)}
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
