import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { packageRoot } from '../../src/core/package-root.js'
import { valueAt } from '../../src/core/json-pointer.js'
import { assessedLine, type CheckOutcome, type Report } from '../../src/core/report.js'
import { writeReports } from '../../reporters/write.js'
import { CHROMIUM, chromiumSkipReason, LAUNCH_ARGS } from '../support/browser.js'
import { provokedReport, withHostileEvidence } from '../support/reports.js'

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
    // A whole run with every fault, under the quota some faults bring: longer than the default hook bound.
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
    const article = page.locator(`article.failure#check-${failure!.id.replace(/[^a-z0-9-]/gi, '-')}`)
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
