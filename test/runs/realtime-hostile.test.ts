import { readFileSync } from 'node:fs'
import type { Duplex } from 'node:stream'
import { afterEach, describe, expect, test } from 'vitest'
import type { WebSocket } from 'ws'
import { parse } from 'yaml'
import type { CheckId } from '../../src/contract/catalogue-ids.js'
import { specPath } from '../../src/core/package-root.js'
import type { RealtimeSection } from '../../src/profile/realtime.js'
import { runConformance } from '../../src/runner/run.js'
import { realtimeTarget, type HostileTarget } from '../support/hostile-servers.js'
import { crashedIds, failureSummary, TEST_RETRY_POLICY, TEST_SETTINGS } from '../support/run.js'

/**
 * A realtime endpoint that misbehaves behind a ticket operation that works: the channel checks fail with evidence
 * within their bounds (5 s a channel), never hang or crash.
 */

const realtime = (
  parse(readFileSync(specPath('reference-profile.yaml'), 'utf8')) as { profile: { realtime: RealtimeSection } }
).profile.realtime

const CHANNEL_CHECKS: CheckId[] = [
  'realtime/channel-opens-with-its-receipt',
  'realtime/channel-refused-without-its-receipt',
  'realtime/messages-as-stated',
]

const started: HostileTarget[] = []
afterEach(async () => {
  for (const target of started.splice(0)) await target.close()
})

describe('a hostile realtime endpoint', () => {
  test.each([
    ['never answers the opening', () => undefined, /nothing within 5 s/],
    ['closes at once', (socket: WebSocket) => socket.close(1011, 'bye'), /closed with code 1011/],
    [
      'sends garbage frames',
      (_: WebSocket, raw: Duplex) => void raw.write(Buffer.from([0xff, 0xff, 0xff, 0xff])),
      /invalid|RSV|opcode/i,
    ],
    [
      'floods messages that are no JSON',
      (socket: WebSocket) =>
        void socket.on('message', () => {
          for (let i = 0; i < 1000; i++) socket.send(`garbage ${i}`)
        }),
      /more than 200 messages/,
    ],
  ] as const)('that %s fails the channel checks with evidence', async (_, misbehave, shows) => {
    const target = await realtimeTarget(misbehave)
    started.push(target)
    const report = await runConformance({
      settings: {
        ...TEST_SETTINGS,
        baseUrl: target.baseUrl,
        apiKey: 'hostile-full-key',
        intent: { hash: `0x${'ab'.repeat(32)}`, receipt: 'receipt-of-intent-a' },
      },
      retryPolicy: TEST_RETRY_POLICY,
      profile: { values: { realtime }, baseDir: '.', source: 'the test' },
      only: CHANNEL_CHECKS,
    })
    expect(crashedIds(report), failureSummary(report)).toEqual([])
    expect(report.errors).toEqual([])
    const outcome = (id: CheckId) => report.checks.find((c) => c.id === id)!
    for (const id of [
      'realtime/channel-opens-with-its-receipt',
      'realtime/channel-refused-without-its-receipt',
    ] as const) {
      expect(outcome(id).status, id).toBe('failed')
      expect(outcome(id).evidence?.message, id).toMatch(shows)
    }
    // What a flood sent is judged as far as it was kept: no JSON.
    if (/more than/.test(shows.source))
      expect(outcome('realtime/messages-as-stated').evidence?.message).toMatch(/garbage 0.*is not JSON text/)
  })
})
