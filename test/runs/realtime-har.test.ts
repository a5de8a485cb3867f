import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { checksByConcern } from '../../src/checks/index.js'
import { main } from '../../src/cli/main.js'
import type { CheckId } from '../../src/contract/catalogue-ids.js'
import { specPath } from '../../src/core/package-root.js'
import type { Report } from '../../src/core/report.js'
import type { Har } from '../../src/har/types.js'
import type { ReferenceData } from '../../src/reference/data.js'
import type { FaultName } from '../../src/reference/fault-names.js'
import { REFERENCE_PROFILE_FILE } from '../../src/runner/profile-of-run.js'
import { captureOutput } from '../support/output.js'
import { failureSummary, idsWithStatus, runAgainstReference } from '../support/run.js'

/** A run's channels in its exchanges.har (Chromium's _webSocketMessages), redacted, and judged again by check-har. */

const REALTIME_CHECKS = checksByConcern.realtime.map((check) => check.id) as CheckId[]
const JUDGED_FROM_HAR = ['realtime/messages-as-stated', 'realtime/receipt-in-no-url']

/** A run of the realtime checks with writes, its HAR, and the receipts the reference held (fixtures and written). */
async function recordedRun(faults: FaultName[] = []) {
  const harPath = join(mkdtempSync(join(tmpdir(), 'ipts-realtime-har-')), 'exchanges.har')
  let served: ReferenceData | undefined
  const report = await runAgainstReference(
    {
      faults,
      behaviours: [{ name: 'data', description: 'keeps the data', onRequest: (_, data) => void (served = data) }],
    },
    { allowWrites: true },
    { harPath, only: REALTIME_CHECKS },
  )
  return { report, harPath, receipts: served!.intents.map((intent) => intent.receipt) }
}

async function checkHar(harPath: string): Promise<Report> {
  const dir = mkdtempSync(join(tmpdir(), 'ipts-realtime-check-har-'))
  const { restore } = captureOutput()
  try {
    await main(['check-har', harPath, '--profile', specPath(REFERENCE_PROFILE_FILE), '--report-dir', dir], {})
  } finally {
    restore()
  }
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report
}

describe("a run's channels in exchanges.har", () => {
  test('each upgrade entry holds its messages as Chromium records them, every receipt a placeholder; check-har passes them', async () => {
    const { report, harPath, receipts } = await recordedRun()
    expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([])
    expect(idsWithStatus(report, 'passed')).toEqual(expect.arrayContaining(REALTIME_CHECKS))
    const text = readFileSync(harPath, 'utf8')
    expect(receipts.length).toBeGreaterThan(2)
    for (const receipt of receipts) expect(text, 'a receipt in the HAR').not.toContain(receipt)
    const sockets = (JSON.parse(text) as Har).log.entries.filter((entry) => entry._webSocketMessages)
    // One socket per channel asked for: 3 refusals, 3 openings with the receipt, the lifecycle's.
    expect(sockets.length).toBe(7)
    for (const socket of sockets) {
      expect(socket.request.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/v1\/realtime\?ticket=/)
      expect(socket._resourceType).toBe('websocket')
      for (const message of socket._webSocketMessages!) {
        expect(Object.keys(message).sort()).toEqual(['data', 'opcode', 'time', 'type'])
        expect(['send', 'receive']).toContain(message.type)
        expect(message.opcode).toBe(1)
        expect(message.time).toBeGreaterThan(1.7e9)
      }
    }
    const lifecycle = sockets.find((s) => s._checks?.includes('realtime/lifecycle-ends-on-channel'))!
    const messages = lifecycle._webSocketMessages!.map((m) => ({
      type: m.type,
      data: JSON.parse(m.data) as Record<string, unknown>,
    }))
    expect(messages.map(({ type, data }) => `${type} ${String(data.type)} ${String(data.kind ?? '')}`)).toEqual([
      'send subscribe ',
      'receive subscribed ',
      'receive event pending',
      'receive event cancelled',
    ])
    expect(messages[0]!.data).toMatchObject({ receipt: expect.stringMatching(/^\$IPTS_WRITE_RECEIPT_\d+$/) })
    const held = await checkHar(harPath)
    for (const id of JUDGED_FROM_HAR)
      expect(held.checks.find((c) => c.id === id)?.status, failureSummary(held)).toBe('passed')
  })

  test.each([
    ['channel-event-kind-unlisted', 'realtime/messages-as-stated', /is an event of kind "snapshot"/],
    ['receipt-in-websocket-url', 'realtime/receipt-in-no-url', /URL of GET \/v1\/realtime carries the receipt/],
  ] as const)('check-har fails the HAR of a run under %s as the run failed it', async (fault, id, shows) => {
    const { report, harPath } = await recordedRun([fault])
    expect(idsWithStatus(report, 'failed')).toContain(id)
    const held = await checkHar(harPath)
    expect(idsWithStatus(held, 'failed'), failureSummary(held)).toEqual([id])
    expect(held.checks.find((c) => c.id === id)?.reason).toMatch(shows)
  })
})
