import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { chromium } from 'playwright-core'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { captureOutput } from '../support/output.js'
import { main } from '../../src/cli/main.js'
import { specPath } from '../../src/core/package-root.js'
import type { Comparison } from '../../reporters/compare.js'
import type { Report } from '../../src/core/report.js'
import { renderJson } from '../../reporters/json.js'
import { referenceReport } from '../support/reports.js'
import { CHROMIUM, LAUNCH_ARGS } from '../support/browser.js'

const skipBrowser = !existsSync(CHROMIUM) && !process.env.CI

afterEach(() => {
  vi.restoreAllMocks()
})

let dir: string
let plainPath: string
let faultyPath: string
let faulty: Report
let echoed: Report
let echoedPath: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ipts-compare-'))
  const [plain, withFault, withEchoedIds] = await Promise.all([
    referenceReport(),
    referenceReport('market-paused-as-string'),
    // An every-response rule fails: it counts the samples that showed it.
    referenceReport('request-id-echoed-unvalidated'),
  ])
  faulty = withFault
  echoed = withEchoedIds
  echoedPath = reportFile(echoed, 'echoed')
  plainPath = reportFile(plain, 'plain')
  faultyPath = reportFile(withFault, 'faulty')
})

/**
 * The report.json a run writes, as compare reads it: renderJson alone, not every writer (writeReports), since what a
 * hook renders is reached by no test of its own, and each of its mutants would run every test of the file.
 */
function reportFile(report: Report, name: string): string {
  const path = join(dir, `${name}.json`)
  writeFileSync(path, renderJson(report))
  return path
}

describe('ipts-conformance compare', () => {
  test('writes compare.json (valid against its schema), compare.md and compare.html, the rows that differ first, each column labelled with what its run switched on, and exits 0', async () => {
    const out = join(dir, 'out')
    const { out: lines } = captureOutput()
    expect(await main(['compare', plainPath, faultyPath, '--report-dir', out], {})).toBe(0)
    vi.restoreAllMocks()
    expect(lines.join('')).toContain('compare.html')
    const comparison = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as Comparison
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(
      JSON.parse(readFileSync(specPath('compare.schema.json'), 'utf8')),
    )
    expect(validate(comparison), JSON.stringify(validate.errors)).toBe(true)
    expect(comparison.columns.map((c) => [c.path, c.verdict])).toEqual([
      [plainPath, 'pass'],
      [faultyPath, 'fail'],
    ])
    expect(comparison.columns[1]!.label, 'the fault run is labelled with the fault it switched on').toMatch(
      /\(fault market-paused-as-string\) @ /,
    )
    expect(comparison.columns[0]!.label, 'the clean run is labelled without one').not.toMatch(/fault|allowance/)
    const differing = comparison.rows.filter((r) => r.differs)
    expect(comparison.rows.slice(0, differing.length), 'rows that differ come first').toEqual(differing)
    expect(differing.map((r) => `${r.kind} ${r.id}: ${r.outcomes.join(' → ')}`)).toEqual(
      expect.arrayContaining([
        'check shapes/market-members: passed → failed',
        `requirement ${faulty.checks.find((c) => c.id === 'shapes/market-members')!.requirement}: passed → failed`,
      ]),
    )
    expect(comparison.summary.differing).toBe(differing.length)
    const markdown = readFileSync(join(out, 'compare.md'), 'utf8')
    expect(
      markdown.indexOf('shapes/market-members'),
      'the differing check is listed before the rows alike',
    ).toBeLessThan(markdown.indexOf('## Rows alike'))
  })

  test('lines reports up over time: per check, the report in which it first failed and when, and the samples that showed it in each', async () => {
    // The same deployment watched again an hour later, the reports named out of their order on the command line.
    const later = join(dir, 'echoed-later.json')
    const hourLater = new Date(Date.parse(echoed.startedAt) + 3_600_000).toISOString()
    writeFileSync(later, JSON.stringify({ ...echoed, startedAt: hourLater }))
    // A folder in a folder not there yet: made with its parents.
    const out = join(dir, 'over-time', 'hourly')
    captureOutput()
    expect(await main(['compare', later, plainPath, echoedPath, '--report-dir', out], {})).toBe(0)
    vi.restoreAllMocks()
    const comparison = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as Comparison
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(
      JSON.parse(readFileSync(specPath('compare.schema.json'), 'utf8')),
    )
    expect(validate(comparison), JSON.stringify(validate.errors)).toBe(true)
    expect(comparison.columns.map((c) => c.resampling?.kind)).toEqual(['last sweep', 'last sweep', 'last sweep'])
    const failing = echoed.checks.find((c) => c.id === 'every-response/request-id-format')!
    expect(failing.status, 'the fault fails the rule').toBe('failed')
    const row = comparison.rows.find((r) => r.kind === 'check' && r.id === failing.id)!
    expect(row.firstFailed, 'the earlier of the two reports it failed in, with the time of its first sample').toEqual({
      column: 2,
      startedAt: echoed.startedAt,
      at: failing.evidence!.sample!.at,
    })
    expect(row.samples).toEqual([failing.samples, null, failing.samples])
    expect(
      comparison.rows.find((r) => r.kind === 'check' && r.outcomes.every((o) => o === 'passed'))?.firstFailed,
    ).toBe(undefined)
    const markdown = readFileSync(join(out, 'compare.md'), 'utf8')
    const overTime = markdown.slice(markdown.indexOf('## Over time'))
    expect(overTime, 'a section of its own').not.toBe(markdown)
    const line = overTime.split('\n').find((l) => l.startsWith(`| \`${failing.id}\``))!
    const cell = `failed, ${failing.samples!.showed} of ${failing.samples!.of} samples`
    // The reports in the order they started: the hour-later one last.
    expect(line.split(' | ').slice(-1)[0]).toBe(`${cell} |`)
    expect(line.split(cell).length - 1, 'failed in two reports').toBe(2)
    expect(line).toContain(`first sample ${failing.evidence!.sample!.at}`)
    const html = readFileSync(join(out, 'compare.html'), 'utf8')
    expect(html).toContain('<section id="over-time">')
    expect(html).toContain(cell)
  })

  test.skipIf(skipBrowser)(
    'compare.html in headless Chromium: a column per report, the differing rows first, the filter hides the others, nothing fetched',
    async () => {
      const out = join(dir, 'html')
      captureOutput()
      await main(['compare', plainPath, faultyPath, '--report-dir', out], {})
      vi.restoreAllMocks()
      const comparison = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as Comparison
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS })
      try {
        const page = await browser.newPage()
        const requests: string[] = []
        page.on('request', (request) => requests.push(request.url()))
        await page.goto(pathToFileURL(join(out, 'compare.html')).href, { waitUntil: 'load' })
        expect(await page.locator('th.column').allInnerTexts()).toEqual(comparison.columns.map((c) => c.label))
        const rows = page.locator('table.compare tbody tr')
        expect(await rows.count(), 'one row per requirement and check').toBe(comparison.rows.length)
        expect(await rows.first().getAttribute('class')).toBe('differs')
        const marketRow = page.locator('tr[data-row="check:shapes/market-members"] td .status')
        expect(await marketRow.allInnerTexts()).toEqual(['passed', 'failed'])
        await page.locator('#only-differing').check()
        expect(
          await page.locator('table.compare tbody tr:visible').count(),
          'only the differing rows stay visible',
        ).toBe(comparison.summary.differing)
        expect(
          requests.filter((url) => !url.startsWith('file:')),
          'requests beyond the file itself',
        ).toEqual([])
      } finally {
        await browser.close()
      }
    },
  )

  test.each([
    ['a file that is not JSON', 'not json', /is not JSON/],
    ['a JSON file that is not a report', '{"checks": []}', /is not a report\.json of this tool/],
  ])('%s is a usage error: one line, exit 2', async (_, content, pattern) => {
    const bad = join(dir, `bad-${Math.random()}.json`)
    writeFileSync(bad, content)
    const { out, err } = captureOutput()
    const code = await main(['compare', plainPath, bad], {})
    vi.restoreAllMocks()
    expect(code).toBe(2)
    expect(out.join('')).toBe('')
    expect(err.join('').trimEnd().split('\n')).toHaveLength(1)
    expect(err.join('')).toMatch(pattern)
  })

  test('fewer than two reports is a usage error', async () => {
    const { err } = captureOutput()
    expect(await main(['compare', plainPath], {})).toBe(2)
    vi.restoreAllMocks()
    expect(err.join('')).toMatch(/at least two report\.json files/)
  })
})
