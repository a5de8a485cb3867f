import { describe, expect, test } from 'vitest'
import type { Comparison } from '../../reporters/compare.js'
import { renderCompareHtml, renderCompareMarkdown } from '../../reporters/compare-render.js'

/**
 * compare.md and compare.html of a comparison made by hand, line by line: three reports, the second started first and
 * the other two at the same time (they keep their order); labels with markup and a table's bar; a row absent from a
 * report; checks counted over samples, one with the time of its first sample and one without.
 */

const TEN = '2026-11-27T10:00:00.000Z'
const NINE = '2026-11-27T09:00:00.000Z'

const comparison: Comparison = {
  tool: { name: 'ipts-conformance', version: '0.0.0' },
  columns: [
    {
      label: 'a|1',
      path: 'runs/a_1.json',
      target: 'https://a.example',
      startedAt: TEN,
      verdict: 'fail',
      failedMust: 1,
      failedShould: 0,
      resampling: { kind: 'soak', rounds: 12, requests: 480, durationMs: 600_499 },
    },
    {
      label: 'b <2>',
      path: 'runs/b.json',
      target: 'https://b.example',
      startedAt: NINE,
      verdict: 'pass',
      failedMust: 0,
      failedShould: 0,
      resampling: { kind: 'last sweep', rounds: 1, requests: 40, durationMs: 900 },
    },
    {
      label: 'c',
      path: 'runs/c.json',
      target: 'https://c.example',
      startedAt: TEN,
      verdict: 'fail',
      failedMust: 0,
      failedShould: 2,
    },
  ],
  summary: { reports: 3, rows: 4, differing: 2 },
  rows: [
    {
      kind: 'check',
      id: 'shapes/x_y',
      requirement: 'SHP-1',
      level: 'MUST',
      title: 'Markets <ok>',
      differs: true,
      outcomes: ['failed', 'passed', 'not run'],
      samples: [{ showed: 2, of: 5 }, null, null],
      firstFailed: { column: 0, startedAt: TEN, at: '2026-11-27T10:00:05.000Z' },
    },
    {
      kind: 'check',
      id: 'every-response/z',
      requirement: 'ENV-3',
      level: 'SHOULD',
      differs: true,
      outcomes: ['passed', null, 'failed'],
      samples: [null, null, { showed: 1, of: 9 }],
      firstFailed: { column: 2, startedAt: TEN },
    },
    { kind: 'requirement', id: 'SHP-1', level: 'MUST', differs: false, outcomes: ['passed', 'passed', 'passed'] },
    {
      kind: 'check',
      id: 'auth/k',
      requirement: 'AUTH-1',
      level: 'MUST',
      differs: false,
      outcomes: ['skipped', 'skipped', 'skipped'],
    },
  ],
}

describe('compare.md', () => {
  test('the verdicts side by side, the rows that differ in bold, the rows alike, then the failures over time', () => {
    expect(renderCompareMarkdown(comparison).split('\n')).toEqual([
      '# IPTS conformance: 3 reports compared',
      '',
      '| | a\\|1 | b &lt;2&gt; | c |',
      '|---|---|---|---|',
      '| verdict | FAIL | PASS | FAIL |',
      '| failed MUST / SHOULD | 1 / 0 | 0 / 0 | 0 / 2 |',
      '| file | `runs/a\\_1.json` | `runs/b.json` | `runs/c.json` |',
      '',
      '2 of 4 rows differ.',
      '',
      '## Rows that differ',
      '',
      '| row | level | a\\|1 | b &lt;2&gt; | c |',
      '|---|---|---|---|---|',
      '| check `shapes/x\\_y` (SHP-1) | MUST | **failed** | **passed** | **not run** |',
      '| check `every-response/z` (ENV-3) | SHOULD | **passed** | (absent) | **failed** |',
      '',
      '## Rows alike',
      '',
      '| row | level | a\\|1 | b &lt;2&gt; | c |',
      '|---|---|---|---|---|',
      '| requirement `SHP-1` | MUST | passed | passed | passed |',
      '| check `auth/k` (AUTH-1) | MUST | skipped | skipped | skipped |',
      '',
      '## Over time',
      '',
      'The reports in the order they started; each check that failed in any of them, the earliest failure first, with the samples that showed it of those judged.',
      '',
      '| check | first failed | b &lt;2&gt; | a\\|1 | c |',
      '|---|---|---|---|---|',
      '| reads after the checks | | last sweep: 40 requests | soak: 12 rounds, 480 requests in 600 s | (not recorded) |',
      `| \`every-response/z\` | report 3 of 3 (started ${TEN}) | (absent) | passed | failed, 1 of 9 samples |`,
      `| \`shapes/x\\_y\` | report 2 of 3 (started ${TEN}), first sample 2026-11-27T10:00:05.000Z | passed | failed, 2 of 5 samples | not run |`,
      '',
    ])
  })

  test('no row differs: said in a sentence, and no section over time when no check failed anywhere', () => {
    const alike: Comparison = {
      ...comparison,
      summary: { reports: 3, rows: 2, differing: 0 },
      rows: comparison.rows.filter((row) => !row.differs),
    }
    const markdown = renderCompareMarkdown(alike)
    expect(markdown).toContain(
      '## Rows that differ\n\nNone: every report has the same outcome on every row.\n\n## Rows alike',
    )
    expect(markdown).not.toContain('Over time')
    expect(markdown.endsWith('| check `auth/k` (AUTH-1) | MUST | skipped | skipped | skipped |\n')).toBe(true)
  })
})

describe('compare.html', () => {
  const html = renderCompareHtml(comparison)
  const body = html.slice(html.indexOf('<body>'))

  test('a page titled with the count, the rows that differ counted, a filter, and its script', () => {
    expect(html).toMatch(/^<!doctype html>\n/)
    expect(html).toContain('<title>IPTS conformance: 3 reports compared</title>')
    expect(html).toContain('table.compare th.column{min-width:10em}tr.differs th{border-left:4px solid #cf222e}')
    expect(body).toContain(
      '<header>\n<h1>IPTS conformance: 3 reports compared</h1>\n<p id="differing">2 of 4 rows differ.</p>\n</header>',
    )
    expect(body).toContain('<label><input type="checkbox" id="only-differing"> only rows that differ</label>')
    expect(body).toContain(
      "document.getElementById('only-differing').addEventListener('change', (event) => {\n  for (const row of document.querySelectorAll('table.compare tbody tr.alike')) row.classList.toggle('hidden', event.target.checked)\n})",
    )
    expect(html.endsWith('</script>\n</body>\n</html>\n')).toBe(true)
  })

  test('the heads: a column per report, its verdict and its failures by level', () => {
    expect(body).toContain(
      '<tr><th>row</th><th>level</th><th scope="col" class="column">a|1</th><th scope="col" class="column">b &lt;2&gt;</th><th scope="col" class="column">c</th></tr>',
    )
    expect(body).toContain(
      '<tr class="verdicts"><th>verdict</th><td></td><td><span class="verdict v-fail">FAIL</span> 1 MUST, 0 SHOULD failed</td><td><span class="verdict v-pass">PASS</span> 0 MUST, 0 SHOULD failed</td><td><span class="verdict v-fail">FAIL</span> 0 MUST, 2 SHOULD failed</td></tr>',
    )
  })

  test('a row per check and requirement, marked as differing or alike, its title, each outcome styled, an absent one', () => {
    const rows = body.slice(body.indexOf('<tbody>\n') + 8, body.indexOf('\n</tbody>')).split('\n')
    expect(rows).toEqual([
      '<tr class="differs" data-row="check:shapes/x_y"><th scope="row">check shapes/x_y (SHP-1)<div class="note">Markets &lt;ok&gt;</div></th><td>MUST</td><td><span class="status s-failed">failed</span></td><td><span class="status s-passed">passed</span></td><td><span class="status s-not-run">not run</span></td></tr>',
      '<tr class="differs" data-row="check:every-response/z"><th scope="row">check every-response/z (ENV-3)</th><td>SHOULD</td><td><span class="status s-passed">passed</span></td><td class="absent">(absent)</td><td><span class="status s-failed">failed</span></td></tr>',
      '<tr class="alike" data-row="requirement:SHP-1"><th scope="row">requirement SHP-1</th><td>MUST</td><td><span class="status s-passed">passed</span></td><td><span class="status s-passed">passed</span></td><td><span class="status s-passed">passed</span></td></tr>',
      '<tr class="alike" data-row="check:auth/k"><th scope="row">check auth/k (AUTH-1)</th><td>MUST</td><td><span class="status s-skipped">skipped</span></td><td><span class="status s-skipped">skipped</span></td><td><span class="status s-skipped">skipped</span></td></tr>',
    ])
  })

  test('the failures over time, the reports in the order they started, the earliest failure first', () => {
    const section = body.slice(body.indexOf('<section id="over-time">'), body.indexOf('<script>'))
    expect(section.split('\n')).toEqual([
      '<section id="over-time"><h2>Over time</h2>',
      '<p>The reports in the order they started; each check that failed in any of them, the earliest failure first, with the samples that showed it of those judged.</p>',
      '<table class="over-time">',
      '<thead><tr><th>check</th><th>first failed</th><th scope="col">b &lt;2&gt;</th><th scope="col">a|1</th><th scope="col">c</th></tr>',
      '<tr class="reads"><th>reads after the checks</th><td></td><td>last sweep: 40 requests</td><td>soak: 12 rounds, 480 requests in 600 s</td><td>(not recorded)</td></tr></thead>',
      '<tbody>',
      `<tr data-row="check:every-response/z"><th scope="row"><code>every-response/z</code></th><td>report 3 of 3 (started ${TEN})</td><td>(absent)</td><td>passed</td><td>failed, 1 of 9 samples</td></tr>`,
      `<tr data-row="check:shapes/x_y"><th scope="row"><code>shapes/x_y</code></th><td>report 2 of 3 (started ${TEN}), first sample 2026-11-27T10:00:05.000Z</td><td>passed</td><td>failed, 2 of 5 samples</td><td>not run</td></tr>`,
      '</tbody>',
      '</table>',
      '</section>',
      '',
    ])
  })

  test('no section over time when no check failed anywhere', () => {
    const alike = renderCompareHtml({ ...comparison, rows: comparison.rows.filter((row) => !row.firstFailed) })
    expect(alike).not.toContain('over-time')
    expect(alike).toContain('</table>\n</section>\n\n<script>')
  })
})
