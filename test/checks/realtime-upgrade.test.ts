import { readFileSync } from 'node:fs'
import { afterEach, expect, test } from 'vitest'
import { parse } from 'yaml'
import { specPath } from '../../src/core/package-root.js'
import type { RealtimeSection } from '../../src/profile/realtime.js'
import { runAgainstRealtimeTarget, upgradeRefusingTarget, type HostileTarget } from '../support/hostile-servers.js'

/**
 * Where the profile's WebSocket URL names the channel, the handshake is where a channel is refused: an upgrade
 * answered with a client error (4xx) is a refusal; a server error, or any other answer, is not. Where it does not,
 * the channel is asked for after the handshake, and a refused upgrade refuses no channel.
 */

const referenceRealtime = (
  parse(readFileSync(specPath('reference-profile.yaml'), 'utf8')) as { profile: { realtime: RealtimeSection } }
).profile.realtime
const CHANNEL_IN_URL = '/v1/realtime/{channel}?ticket={ticket}'

const started: HostileTarget[] = []
afterEach(async () => {
  for (const target of started.splice(0)) await target.close()
})

test.each([
  [CHANNEL_IN_URL, 400, 'passed'],
  [CHANNEL_IN_URL, 403, 'passed'],
  [CHANNEL_IN_URL, 499, 'passed'],
  [CHANNEL_IN_URL, 500, 'failed'],
  [CHANNEL_IN_URL, 399, 'failed'],
  [referenceRealtime.url, 403, 'failed'],
] as const)(
  'at the URL %s, a channel whose upgrade is answered %i: the refusal check %s',
  async (url, status, verdict) => {
    const target = await upgradeRefusingTarget(status)
    started.push(target)
    const report = await runAgainstRealtimeTarget(target, { ...referenceRealtime, url }, [
      'realtime/channel-refused-without-its-receipt',
    ])
    const outcome = report.checks.find((c) => c.id === 'realtime/channel-refused-without-its-receipt')!
    expect(outcome.status, outcome.evidence?.message).toBe(verdict)
    if (verdict === 'failed') expect(outcome.evidence?.message).toMatch(`the upgrade was answered ${status}, not 101`)
  },
)
