import { existsSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { fillPath, operations } from '../../src/contract/operations.js'
import type { ReferenceServer } from '../../src/reference/server.js'

export const CHROMIUM = '/usr/bin/chromium'
export const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
/** Set by .ci/run (and implied by CI=true): a missing Chromium fails the browser tests instead of skipping them. */
export const browserRequired = !!process.env.IPTS_REQUIRE_BROWSER || !!process.env.CI
/**
 * Why a browser test is skipped: Debian's chromium is absent and the browser tests are not required (where they run,
 * and fail, instead).
 */
export const chromiumSkipReason =
  !existsSync(CHROMIUM) && !browserRequired
    ? `${CHROMIUM} is absent (apt-get install chromium); with IPTS_REQUIRE_BROWSER=1 or CI=true this test runs and fails instead`
    : undefined

/** The X-Request-ID the page sends with each operation, so that the echo of a valid one is judged too. */
export const BROWSER_REQUEST_ID = 'browser-request.1'

/** Every operation of the contract on the reference's own fixtures, as a path below a base URL. */
export function referenceOperationPaths(reference: Pick<ReferenceServer, 'data'>): string[] {
  const [intent] = reference.data.intents
  const params = { hash: intent!.hash, address: reference.data.trader }
  return operations().map(
    (op) =>
      `${fillPath(op.template, params)}${op.template.includes('{hash}') ? `?receipt=${encodeURIComponent(intent!.receipt)}` : ''}`,
  )
}

/**
 * Chromium opens base/v1/config as a page (a navigation without a key, answered 401), then loads every operation of the
 * contract from that page with fetch() and the reference's key, recording a HAR of it all (Playwright's recordHar).
 */
export async function recordBrowserTraffic(
  browser: Browser,
  base: string,
  reference: Pick<ReferenceServer, 'data'>,
  harPath: string,
): Promise<void> {
  const context = await browser.newContext({ recordHar: { path: harPath, content: 'embed' } })
  try {
    const page = await context.newPage()
    await page.goto(`${base}/v1/config`)
    const statuses = await page.evaluate(
      async ({ paths, key, requestId }) =>
        Promise.all(
          paths.map(async (path) => {
            const response = await fetch(path, {
              headers: { 'x-api-key': key, accept: 'application/json', 'x-request-id': requestId },
            })
            // Read whole, so that the recorded HAR holds every body.
            await response.text()
            return response.status
          }),
        ),
      { paths: referenceOperationPaths(reference), key: reference.data.apiKey, requestId: BROWSER_REQUEST_ID },
    )
    if (statuses.length !== operations().length) throw new Error(`the page loaded ${statuses.length} operations`)
  } finally {
    await context.close()
  }
}
