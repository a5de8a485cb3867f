import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { packageRoot } from '../src/core/package-root.js'
import type { Report } from '../src/core/report.js'
import { writeReports } from '../reporters/write.js'
import { CHROMIUM, chromiumSkipReason, LAUNCH_ARGS } from './support/browser.js'
import { provokedReport, withHostileEvidence } from './support/reports.js'

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
    expect(existsSync(CHROMIUM), `${CHROMIUM} is missing, and the browser tests are required here (IPTS_REQUIRE_BROWSER or CI is set)`).toBe(true)
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
    if (firstFailure.evidence!.response) expect(await article.locator('.http-status').innerText()).toBe(String(firstFailure.evidence!.response.status))
    expect(await page.locator('.matrix tbody tr').count(), 'one matrix row per requirement').toBe(report.requirements.length)
    await page.screenshot({ path: join(REPORT_DIR, 'report.png') })
    expect(requests.filter((url) => !url.startsWith('file:')), 'requests beyond the file itself').toEqual([])
    await page.close()
  })

  test('shows hostile response text as text: no script runs, no markup renders, nothing is fetched', async () => {
    const hostile = withHostileEvidence(report)
    const [, , , htmlPath] = await writeReports(hostile, join(REPORT_DIR, 'hostile'))
    const { page, requests } = await open(htmlPath!)
    const planted = hostile.checks.find((c) => c.evidence?.response?.bodyExcerpt.includes('__pwned'))!
    const body = page.locator('article.failure').filter({ hasText: planted.id }).first().locator('pre.body')
    expect(await body.innerText()).toContain('<script>window.__pwned=1</script>')
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), 'a planted script ran').toBeUndefined()
    expect(await page.locator('img').count(), 'a planted image rendered').toBe(0)
    expect(requests.filter((url) => !url.startsWith('file:')), 'requests beyond the file itself').toEqual([])
    await page.close()
  })
})
