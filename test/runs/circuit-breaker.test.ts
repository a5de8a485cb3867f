import { request } from 'undici'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { startReferenceServer } from '../../src/reference/server.js'
import { runConformance, type RunOptions } from '../../src/runner/run.js'
import type { Report } from '../../src/core/report.js'
import {
  answering,
  drip,
  httpTarget,
  rawTarget,
  referenceInputs,
  type HostileTarget,
} from '../support/hostile-servers.js'
import { cliRun } from '../support/output.js'
import { FIXED_SEED } from '../support/run.js'

const TIMEOUT_MS = 1000
const CONCURRENCY = 8
/** A loose bound that only stops a hang: the run's own bounds are a few timeouts. */
const HANG_BOUND_MS = 90_000

afterEach(() => {
  vi.restoreAllMocks()
})

function settingsFor(target: HostileTarget): RunOptions['settings'] {
  return {
    baseUrl: target.baseUrl,
    apiKey: 'dead-target-key',
    trader: '0x1111111111111111111111111111111111111111',
    intent: { hash: `0x${'ab'.repeat(32)}`, receipt: 'receipt-of-intent-a' },
    seed: FIXED_SEED,
    runs: 3,
    concurrency: CONCURRENCY,
    cursorParam: 'cursor',
    limitParam: 'limit',
    maxPages: 1000,
    connectTimeoutMs: 1000,
    requestTimeoutMs: TIMEOUT_MS,
    maxBodyBytes: 4 * 1024 * 1024,
    probeRateLimit: false,
    ...target.inputs,
  }
}

/** A target that reads each request and never writes a byte; counts the requests it saw. */
async function silentTarget(): Promise<HostileTarget & { seen: () => number }> {
  let seen = 0
  const target = await rawTarget(() => void seen++)
  return { ...target, seen: () => seen }
}

/** A target whose response head arrives at one byte a second. */
async function headTrickler(): Promise<HostileTarget & { seen: () => number }> {
  let seen = 0
  const target = await rawTarget((socket) => {
    seen++
    const head =
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Request-ID: trickle-0001\r\nContent-Length: 2\r\n\r\n{}'
    let at = 0
    drip(socket, () => (at < head.length ? head[at++] : undefined), 1000)
  })
  return { ...target, seen: () => seen }
}

/**
 * A target that answers its first `answered` requests with an error body (a 404: a 401 to every probe would be a
 * refused key, which the preflight names), then stops answering.
 */
async function targetThatDies(
  answered: number,
  stopped: 'silent' | 'body-trickle',
): Promise<HostileTarget & { seen: () => number }> {
  let seen = 0
  const target = await httpTarget((_, res) => {
    if (++seen <= answered)
      return void (
        res.writeHead(404, { 'content-type': 'application/json', 'x-request-id': 'dies-0001' }),
        res.end('{"error":"no"}')
      )
    if (stopped === 'body-trickle') {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'dies-0002' })
      drip(res, () => ' ', 1000)
    }
  })
  return { ...target, seen: () => seen }
}

/** Runs the CLI against the target; returns its exit code, stderr lines and the report written, if any. */
async function cli(target: HostileTarget): Promise<{ code: number; err: string[]; report?: Report }> {
  const { code, err, report } = await cliRun([
    '--base-url',
    target.baseUrl,
    '--api-key',
    'dead-target-key',
    '--timeout',
    String(TIMEOUT_MS),
    '--seed',
    String(FIXED_SEED),
  ])
  return { code, err: err.trimEnd().split('\n'), report }
}

describe('a target that never answered any request', () => {
  test.each([
    ['never answers', silentTarget],
    ['sends its response head a byte a second', headTrickler],
  ])('that %s exits 2 with one line, after the probe alone', { timeout: HANG_BOUND_MS }, async (_, start) => {
    const target = await start()
    try {
      const { code, err, report } = await cli(target)
      expect(code).toBe(2)
      expect(err, 'one line').toEqual([
        expect.stringMatching(/never answered \(no response within 1000 ms, --timeout\)/),
      ])
      expect(report, 'no report for a target that never answered').toBeUndefined()
      expect(target.seen(), 'only the probe reached the target').toBeLessThanOrEqual(3)
    } finally {
      await target.close()
    }
  })
})

describe('a target that stops answering', () => {
  test.each([['goes silent', 'silent'] as const, ['trickles its bodies a byte a second', 'body-trickle'] as const])(
    'and then %s: the checks left are not run, with the reason and evidence, and the run fails',
    { timeout: HANG_BOUND_MS },
    async (_, stopped) => {
      const target = await targetThatDies(3, stopped)
      try {
        const report = await runConformance({ settings: settingsFor(target) })
        const notRun = report.checks.filter((c) => c.status === 'not run')
        expect(notRun.length, 'checks were left').toBeGreaterThan(0)
        expect(report.summary.notRun).toBe(notRun.length)
        expect(report.summary.verdict).toBe('fail')
        for (const check of notRun) {
          expect(check.reason, check.id).toMatch(
            /stopped answering: \d+ requests in a row ended without a response \(the last one: no response in time\)/,
          )
          expect(check.evidence?.transportError?.code, check.id).toBe('TARGET_NOT_ANSWERING')
          expect(check.evidence?.request?.url, check.id).toContain(target.baseUrl)
        }
        // The probe's three answers, then a wave in flight when the breaker tripped and those that started as it did; a
        // full run sends hundreds.
        expect(target.seen(), 'requests sent after the breaker tripped').toBeLessThanOrEqual(3 + 3 * CONCURRENCY)
      } finally {
        await target.close()
      }
    },
  )

  test('exits 1 with its reports written', { timeout: HANG_BOUND_MS }, async () => {
    const target = await targetThatDies(3, 'silent')
    try {
      const { code, report } = await cli(target)
      expect(code).toBe(1)
      expect(report?.summary.notRun, 'report.json counts the checks not run').toBeGreaterThan(0)
    } finally {
      await target.close()
    }
  })
})

describe('a target slow on one operation only', () => {
  test('has that operation closed, and every other operation checked', { timeout: HANG_BOUND_MS }, async () => {
    const reference = await startReferenceServer()
    let intentRequests = 0
    const proxy = await httpTarget(
      answering(async (req, res) => {
        if (req.url?.startsWith('/v1/intents/')) return void intentRequests++
        const answer = await request(`${reference.baseUrl}${req.url}`, {
          headers: req.headers as Record<string, string>,
        })
        const headers = Object.fromEntries(
          Object.entries(answer.headers).filter(([name]) => name !== 'transfer-encoding' && name !== 'connection'),
        )
        res.writeHead(answer.statusCode, headers as Record<string, string>)
        res.end(Buffer.from(await answer.body.arrayBuffer()))
      }),
    )
    try {
      // Room for the other operations to answer through the proxy on a loaded machine; the slow one never does.
      const report = await runConformance({
        settings: { ...settingsFor(proxy), ...referenceInputs(reference), requestTimeoutMs: 5000 },
      })
      const notRun = report.checks.filter((c) => c.status === 'not run')
      expect(notRun.length, 'the intent checks were left').toBeGreaterThan(0)
      for (const check of notRun) expect(check.reason, check.id).toMatch(/getIntentStatus stopped answering/)
      for (const id of [
        'config/answers-json',
        'shapes/vault-members',
        'properties/garbage-key-refused',
        'cursors/markets-walk-ends',
      ]) {
        const check = report.checks.find((c) => c.id === id)
        expect(check?.status, `${id}: ${check?.reason}`).toBe('passed')
      }
      expect(intentRequests, 'requests to the slow operation after it was closed').toBeLessThanOrEqual(3 * CONCURRENCY)
    } finally {
      await proxy.close()
      await reference.close()
    }
  })
})
