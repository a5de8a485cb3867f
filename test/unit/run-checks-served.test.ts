import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { RunSettings } from '../../src/core/settings.js'
import { runChecks } from '../../src/engine/run-checks.js'
import { createSharedState } from '../../src/http/shared-state.js'
import { TEST_SETTINGS } from '../support/run.js'

/** A check whose one read is a shared read of the run: the intent's status. */
const SHARED_READ_CHECK = 'intents/receipt-grants-status'
const REQUEST_ID_RULE = 'relations/request-id-unique'

/**
 * Runs of one check against a server that answers every request 200 `{}` with an x-request-id of its own: what the run
 * does with the shared reads once its checks are done, and the reads after the checks.
 */
describe('runChecks against a server made by hand', () => {
  let server: Server
  let baseUrl: string
  let requests = 0
  const logDir = mkdtempSync(join(tmpdir(), 'ipts-run-checks-'))

  beforeAll(async () => {
    server = createServer((request, response) => {
      // Under /same-id, every answer carries one x-request-id: a relation the run breaks.
      const id = request.url?.startsWith('/same-id/') ? 'same-id-0001' : `req-${requests++}`
      response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': id })
      response.end('{}')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  })

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
    rmSync(logDir, { recursive: true, force: true })
  })

  const API_KEY = 'key-0123456789abcdef'
  const run = (only: string[], options: { exchangeLog?: string; resampling?: object; sameId?: boolean } = {}) =>
    runChecks(
      {
        settings: {
          ...TEST_SETTINGS,
          baseUrl: options.sameId ? `${baseUrl}/same-id` : baseUrl,
          apiKey: API_KEY,
          intent: { hash: `0x${'a'.repeat(64)}`, receipt: 'receipt-1' },
        } as RunSettings,
        shared: createSharedState(),
        ...(options.exchangeLog ? { exchangeLog: options.exchangeLog } : {}),
      },
      { only, ...(options.resampling ? { resampling: options.resampling } : {}) },
    )

  test('a shared read is judged, counted and shown to the relations once its checks are done', async () => {
    const result = await run([SHARED_READ_CHECK])
    expect(result.responses).toEqual({ getIntentStatus: { statuses: { '200': 1 }, judged: 1 } })
    const relation = result.outcomes.find((outcome) => outcome.id === REQUEST_ID_RULE)
    expect(relation?.status, 'the relation compared the shared read').toBe('passed')
    expect(result.resampling, 'no reads after the checks were asked for').toBeUndefined()
  })

  test("a check's own reads are judged by the every-response rules, as its shared reads are", async () => {
    const result = await run(['config/answers-json'])
    // The server's IDs (req-0, ...) are shorter than the format's 8 characters.
    const rule = result.outcomes.find((outcome) => outcome.id === 'every-response/request-id-format')
    expect([rule?.status, rule?.reason]).toEqual([
      'failed',
      expect.stringMatching(/^one response of 1: x-request-id "req-/),
    ])
    expect(result.responses).toEqual({ getConfig: { statuses: { '200': 1 }, judged: 1 } })
  })

  test("a shared read's violation of an every-response rule is kept as that rule's evidence", async () => {
    const result = await run([SHARED_READ_CHECK])
    const rule = result.outcomes.find((outcome) => outcome.id === 'every-response/request-id-format')
    expect(rule?.status).toBe('failed')
    expect(rule?.evidence?.request?.url, 'the evidence is the shared read').toMatch(/\/v1\/intents\//)
    expect(rule?.evidence?.message).toMatch(/x-request-id "req-/)
  })

  test('a run closes its connections to the target when it ends', async () => {
    await run([SHARED_READ_CHECK])
    await expect
      .poll(() => new Promise<number>((resolve) => server.getConnections((_, count) => resolve(count))))
      .toBe(0)
  })

  test("a relation's finding shows its evidence with the run's secrets redacted", async () => {
    const result = await run([SHARED_READ_CHECK, 'config/answers-json'], { sameId: true })
    const relation = result.outcomes.find((outcome) => outcome.id === REQUEST_ID_RULE)
    expect(relation?.status).toBe('failed')
    expect(relation?.crashed, 'the relation did not crash').toBeFalsy()
    expect(JSON.stringify(relation?.evidence)).toContain('same-id-0001')
    expect(JSON.stringify(relation?.evidence)).not.toContain(API_KEY)
    // The shared read, shown to the relations once the checks are done, is the second sample: of round 0.
    expect(relation?.evidence?.sample?.round).toBe(0)
  })

  test("a shared read is logged for the HAR, in the run's exchange log", async () => {
    await run([SHARED_READ_CHECK], { exchangeLog: logDir })
    expect(readdirSync(logDir).length).toBeGreaterThan(0)
  })

  test('a run that selects a relation reads again after its checks', async () => {
    const result = await run([SHARED_READ_CHECK, REQUEST_ID_RULE], { resampling: {} })
    expect(result.resampling).toBeDefined()
    expect(result.interrupted).toBeUndefined()
  })
})
