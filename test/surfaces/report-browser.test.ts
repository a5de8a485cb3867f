import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { packageRoot } from '../../src/core/package-root.js'
import { valueAt } from '../../src/core/json-pointer.js'
import {
  addRoundSpan,
  assessedLine,
  TIMELINE_SPANS,
  type CheckOutcome,
  type Report,
  type RoundSpan,
} from '../../src/core/report.js'
import { writeReports } from '../../reporters/write.js'
import { CHROMIUM, chromiumSkipReason, LAUNCH_ARGS } from '../support/browser.js'
import { checkAnchor, provokedReport, withEveryPart, withHostileEvidence } from '../support/reports.js'

/** Kept after the run: CI keeps it as an artefact, with the screenshot. */
const REPORT_DIR = join(packageRoot, '.tmp', 'report-html')
const skipReason = chromiumSkipReason

interface Opened {
  page: Page
  /** Every URL the page asked for, the report's own file included. */
  requests: string[]
}

describe.skipIf(skipReason)(`report.html in headless Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let browser: Browser
  let report: Report

  beforeAll(async () => {
    expect(
      existsSync(CHROMIUM),
      `${CHROMIUM} is missing, and the browser tests are required here (IPTS_REQUIRE_BROWSER or CI is set)`,
    ).toBe(true)
    browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS })
    report = (await provokedReport()).report
    // A whole run with nearly every fault: longer than the default hook bound on a loaded machine.
  }, 300_000)

  afterAll(async () => {
    await browser?.close()
  })

  async function open(path: string): Promise<Opened> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const requests: string[] = []
    page.on('request', (request) => requests.push(request.url()))
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' })
    return { page, requests }
  }

  test('shows the verdict, a failed check with its evidence and reproduction command, and the traceability matrix', async () => {
    const [, , , htmlPath] = await writeReports(report, REPORT_DIR)
    const { page, requests } = await open(htmlPath!)
    await expect.poll(() => page.locator('#verdict').isVisible(), { message: 'the verdict is visible' }).toBe(true)
    expect(await page.locator('#verdict').textContent()).toBe('FAIL')
    const firstFailure = report.checks.find((c) => c.status === 'failed' && c.evidence?.reproduce)!
    const article = page.locator('article.failure').filter({ hasText: firstFailure.id }).first()
    expect(await article.isVisible(), `the failure of ${firstFailure.id} is visible`).toBe(true)
    expect(await article.locator('.message').innerText()).toBe(firstFailure.evidence!.message)
    expect(await article.locator('pre.reproduce').innerText()).toBe(firstFailure.evidence!.reproduce)
    if (firstFailure.evidence!.response)
      expect(await article.locator('.http-status').innerText()).toBe(String(firstFailure.evidence!.response.status))
    expect(await page.locator('.matrix tbody tr').count(), 'one matrix row per requirement').toBe(
      report.requirements.length,
    )
    await page.screenshot({ path: join(REPORT_DIR, 'report.png') })
    expect(
      requests.filter((url) => !url.startsWith('file:')),
      'requests beyond the file itself',
    ).toEqual([])
    await page.close()
  })

  test("draws a timeline of the rounds and each failure at its first sample, as readable for a long soak's rounds", async () => {
    const drawn = async (shown: Report, folder: string) => {
      const [, , , htmlPath] = await writeReports(shown, join(REPORT_DIR, folder))
      const { page, requests } = await open(htmlPath!)
      expect(
        requests.filter((url) => !url.startsWith('file:')),
        'requests beyond the file itself',
      ).toEqual([])
      expect(await page.locator('#toc a[href="#timeline"]').count(), 'the table of contents leads to it').toBe(1)
      const svg = page.locator('#timeline svg.timeline')
      expect(await svg.isVisible(), 'the timeline is drawn').toBe(true)
      const figures = {
        rounds: await svg.locator('rect.round').count(),
        findings: await svg.locator('circle.finding').evaluateAll((marks) => marks.map((mark) => mark.textContent)),
        height: (await svg.boundingBox())!.height,
      }
      await page.close()
      return figures
    }
    const timed = report.checks.filter((c) => c.status === 'failed' && c.evidence?.sample)
    const sweep = await drawn(report, 'timeline')
    expect(report.resampling?.timeline, 'a default run: one last sweep').toHaveLength(1)
    expect(sweep.rounds, 'round 0 and the last sweep').toBe(2)
    expect(sweep.findings, 'a mark per failure, named by its check').toHaveLength(timed.length)
    for (const check of timed)
      expect(
        sweep.findings.some((title) => title?.startsWith(`${check.id}: first seen ${check.evidence!.sample!.at}`)),
        check.id,
      ).toBe(true)
    // A soak of 5000 rounds: its timeline holds at most TIMELINE_SPANS entries, and the drawing is no taller.
    const timeline: RoundSpan[] = []
    const start = Date.parse(report.startedAt)
    for (let round = 1; round <= 5000; round++)
      addRoundSpan(timeline, {
        first: round,
        last: round,
        at: new Date(start + round * 1000).toISOString(),
        durationMs: 900,
        requests: 40,
        violations: round % 100 === 0 ? 1 : 0,
      })
    const soak = await drawn(
      { ...report, durationMs: 5_001_000, resampling: { ...report.resampling!, kind: 'soak', rounds: 5000, timeline } },
      'timeline-soak',
    )
    expect(timeline.length).toBeLessThanOrEqual(TIMELINE_SPANS)
    expect(soak.rounds, 'round 0 and each entry of the timeline').toBe(timeline.length + 1)
    expect(
      timeline.reduce((sum, span) => sum + span.requests, 0),
      'every round counted',
    ).toBe(5000 * 40)
    expect(soak.height).toBe(sweep.height)
  })

  test('holds its text in paragraphs, cells, items and headings: none bare between the blocks of the page', async () => {
    for (const [name, shown] of [
      ['provoked', report],
      ['every-part', withEveryPart(report)],
    ] as const) {
      const [, , , htmlPath] = await writeReports(shown, join(REPORT_DIR, name))
      const { page } = await open(htmlPath!)
      const stray = await page.evaluate(() =>
        [...document.querySelectorAll('body, nav, header, section, article, details, ul, table, thead, tbody, tr, svg')]
          .flatMap((block) => [...block.childNodes].map((node) => ({ block: block.tagName, node })))
          .filter(({ node }) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== '')
          .map(({ block, node }) => `${block}: ${node.textContent!.trim().slice(0, 80)}`),
      )
      expect(stray, `${name}: text outside any element that holds text`).toEqual([])
      await page.close()
    }
  })

  test('leads from a table of contents to the verdict, failures, coverage, skips and traceability', async () => {
    const [, , , htmlPath] = await writeReports(report, join(REPORT_DIR, 'toc'))
    const { page, requests } = await open(htmlPath!)
    const hrefs = await page.locator('#toc a').evaluateAll((links) => links.map((link) => link.getAttribute('href')))
    expect(hrefs).toEqual(expect.arrayContaining(['#verdict', '#failures', '#coverage', '#skipped', '#traceability']))
    for (const href of hrefs) expect(await page.locator(href!).count(), `one ${href} on the page`).toBe(1)
    await page.locator('#toc a[href="#coverage"]').click()
    await expect
      .poll(async () => Math.abs((await page.locator('#coverage').boundingBox())!.y), {
        message: 'the coverage section is scrolled to the top',
      })
      .toBeLessThan(1)
    expect(await page.locator('#coverage .assessed').innerText()).toBe(`${assessedLine(report.coverage.summary)}.`)
    expect(await page.locator('#coverage table.operations tbody tr').count(), 'a row per operation').toBe(
      report.coverage.operations.length,
    )
    const unassessed = report.coverage.requirements.filter((r) => r.observable && !r.assessed)
    expect(
      await page.locator('#coverage table.unassessed tbody tr').count(),
      'a row per observable requirement not assessed',
    ).toBe(unassessed.length)
    expect(
      requests.filter((url) => !url.startsWith('file:')),
      'requests beyond the file itself',
    ).toEqual([])
    await page.close()
  })

  test("pretty-prints a failure's JSON body and marks the value at the failing JSON pointer", async () => {
    const marked = (check: CheckOutcome) => {
      const body = check.evidence?.response?.bodyExcerpt
      let parsed: unknown
      try {
        parsed = JSON.parse(body ?? '')
      } catch {
        return undefined
      }
      const pointer = check
        .evidence!.schemaViolations?.map((v) => v.instancePath)
        .find((p) => p !== '' && valueAt(parsed, p) !== undefined && typeof valueAt(parsed, p) !== 'object')
      return pointer === undefined ? undefined : { pointer, value: valueAt(parsed, pointer) }
    }
    const failure = report.checks.find((c) => c.status === 'failed' && marked(c))
    expect(failure, 'the provoked run has a schema violation at a value of a whole JSON body').toBeDefined()
    const { pointer, value } = marked(failure!)!
    const [, , , htmlPath] = await writeReports(report, join(REPORT_DIR, 'pointer'))
    const { page } = await open(htmlPath!)
    const article = page.locator(`article.failure#${checkAnchor(failure!.id)}`)
    const mark = article.locator(`pre.body mark.pointer[title="${pointer}"]`).first()
    expect(await mark.isVisible(), `the value at ${pointer} is marked`).toBe(true)
    expect(JSON.parse(await mark.innerText())).toEqual(value)
    const [markBox, bodyBox] = [await mark.boundingBox(), await article.locator('pre.body').boundingBox()]
    expect(
      markBox!.y >= bodyBox!.y && markBox!.y + markBox!.height <= bodyBox!.y + bodyBox!.height,
      'a long body is scrolled to its marked value',
    ).toBe(true)
    const bodyText = await article.locator('pre.body').innerText()
    expect(JSON.parse(bodyText), 'the pretty-printed body is the same JSON').toEqual(
      JSON.parse(failure!.evidence!.response!.bodyExcerpt),
    )
    expect(bodyText).toContain('\n  "')
    await page.close()
  })

  test("its script scrolls a long body to its marked value, copies a command, and filters the matrix to what's open", async () => {
    const long = structuredClone(report)
    const failure = long.checks.find((c) => c.status === 'failed' && c.evidence?.response && c.evidence.reproduce)!
    const filler = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`member${i}`, i]))
    failure.evidence!.response!.bodyExcerpt = JSON.stringify({ ...filler, last: 'marked' })
    failure.evidence!.schemaViolations = [
      { schema: 'Error', keyword: 'type', instancePath: '/last', schemaPath: '#/type', params: {}, message: 'x' },
    ]
    const [, , , htmlPath] = await writeReports(long, join(REPORT_DIR, 'script'))
    const { page } = await open(htmlPath!)
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
    const article = page.locator(`article.failure#${checkAnchor(failure.id)}`)
    const body = article.locator('pre.body')
    expect(await body.evaluate((pre) => pre.scrollTop), 'the long body scrolled').toBeGreaterThan(0)
    const [markBox, bodyBox] = [await body.locator('mark.pointer').boundingBox(), await body.boundingBox()]
    expect(markBox!.y >= bodyBox!.y && markBox!.y + markBox!.height <= bodyBox!.y + bodyBox!.height).toBe(true)

    const button = article.locator('div.command button.copy').first()
    await button.click()
    await expect.poll(() => button.innerText()).toBe('Copied')
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      await article.locator('div.command pre.reproduce').first().innerText(),
    )

    const rows = page.locator('.matrix tbody tr')
    const classes = await rows.evaluateAll((trs) => trs.map((tr) => tr.className))
    const openRows = classes.filter((c) => ['r-failed', 'r-uncovered', 'r-skipped'].includes(c)).length
    expect(openRows, 'some rows open, some not').toBeGreaterThan(0)
    expect(openRows).toBeLessThan(classes.length)
    const visible = () => rows.evaluateAll((trs) => trs.filter((tr) => getComputedStyle(tr).display !== 'none').length)
    expect(await visible()).toBe(classes.length)
    await page.locator('#only-open').check()
    expect(await visible(), 'only the failed, uncovered and skipped requirements').toBe(openRows)
    await page.locator('#only-open').uncheck()
    expect(await visible()).toBe(classes.length)
    await page.close()
  })

  test('shows hostile response text as text: no script runs, no markup renders, nothing is fetched', async () => {
    const hostile = withHostileEvidence(report)
    const [, , , htmlPath] = await writeReports(hostile, join(REPORT_DIR, 'hostile'))
    const { page, requests } = await open(htmlPath!)
    const planted = hostile.checks.find((c) => c.evidence?.response?.bodyExcerpt.includes('__pwned'))!
    const body = page.locator('article.failure').filter({ hasText: planted.id }).first().locator('pre.body')
    expect(await body.innerText()).toContain('<script>window.__pwned=1</script>')
    expect(
      await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
      'a planted script ran',
    ).toBeUndefined()
    expect(await page.locator('img').count(), 'a planted image rendered').toBe(0)
    expect(
      requests.filter((url) => !url.startsWith('file:')),
      'requests beyond the file itself',
    ).toEqual([])
    await page.close()
  })
})
