import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { realtimeChecks } from '../../src/checks/realtime.js'
import type { CheckContext } from '../../src/checks/types.js'
import { specPath } from '../../src/core/package-root.js'
import type { ChannelSocket } from '../../src/http/websocket.js'
import type { RealtimeSection } from '../../src/profile/realtime.js'
import { scriptedContext } from '../support/check-context.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'

/**
 * The realtime checks on answers made by hand: the ticket operation's status and the WebSocket handshake's, at the
 * edges of the ranges the checks judge them by (a ticket is issued by a 2xx; a handshake refused by a 4xx is a refusal
 * where the URL names the channel).
 */

const REALTIME = (
  parse(readFileSync(specPath('reference-profile.yaml'), 'utf8')) as { profile: { realtime: RealtimeSection } }
).profile.realtime

/** A URL that names the channel, so that the handshake is where a channel can be refused. */
const CHANNEL_URL = '/v1/realtime?ticket={ticket}&channel={channel}'

const checkOf = (id: string) => realtimeChecks.find((check) => check.id === id)!

/** A socket whose handshake was answered with this status, not 101. */
function refusedSocket(status: number): ChannelSocket {
  return {
    exchange: exchangeOf(responseOf(status, {}, { error: 'refused' }), { operation: undefined }),
    upgraded: false,
    send: () => undefined,
    next: async () => ({ kind: 'timeout' }),
    close: () => undefined,
  } as unknown as ChannelSocket
}

/** A socket that upgrades, then is closed with this code as soon as it is read. */
function closedSocket(code: number): ChannelSocket {
  return {
    exchange: exchangeOf(responseOf(101), { operation: undefined }),
    upgraded: true,
    send: () => undefined,
    next: async () => ({ kind: 'closed', code, reason: '' }),
    close: () => undefined,
  } as unknown as ChannelSocket
}

/** A context by hand: the ticket operation answers ticketStatus with a ticket, every handshake upgradeStatus. */
function channelContext({
  ticketStatus = 201,
  upgradeStatus = 400,
  url = CHANNEL_URL,
  socket = refusedSocket(upgradeStatus),
}: {
  ticketStatus?: number
  upgradeStatus?: number
  url?: string
  socket?: ChannelSocket
}): CheckContext {
  const { ctx } = scriptedContext(
    {
      apiKey: 'full-key-1',
      baseUrl: 'http://127.0.0.1:9',
      intent: { hash: `0x${'ab'.repeat(32)}`, receipt: 'receipt-of-intent-a' },
      profile: { values: { realtime: { ...REALTIME, url } }, source: 'the test', baseDir: '.' },
    },
    () => undefined,
  )
  return Object.assign(ctx, {
    request: async () =>
      exchangeOf(responseOf(ticketStatus, {}, { data: { ticket: 'ticket-1' } }), {
        operation: undefined,
        method: 'POST',
        url: 'http://127.0.0.1:9/v1/realtime/tickets',
      }),
    openSocket: async () => socket,
  })
}

const answered = (status: number) => `the upgrade was answered ${status}, not 101`

describe('a handshake refused where the URL names the channel', () => {
  const refusedWithout = checkOf('realtime/channel-refused-without-its-receipt')

  test.each([400, 403, 499])('with %i is a refusal', async (status) => {
    await expect(refusedWithout.run(channelContext({ upgradeStatus: status }))).resolves.toBeUndefined()
  })

  test.each([399, 500, 503])('with %i is no refusal', async (status) => {
    await expect(refusedWithout.run(channelContext({ upgradeStatus: status }))).rejects.toMatchObject({
      name: 'CheckFailure',
      message: expect.stringMatching(
        new RegExp(`^intent:0x(ab){32}, asked for without a receipt, was not refused .*: ${answered(status)}$`),
      ),
    })
  })

  test('with a 4xx is no refusal where the URL does not name the channel', async () => {
    await expect(refusedWithout.run(channelContext({ upgradeStatus: 403, url: REALTIME.url }))).rejects.toMatchObject({
      name: 'CheckFailure',
      message: expect.stringMatching(/the upgrade was answered 403, not 101$/),
    })
  })
})

describe('a channel closed after the upgrade', () => {
  const refusedWithout = checkOf('realtime/channel-refused-without-its-receipt')

  test("with a code the profile's refused.closeCodes lists (4403) is a refusal", async () => {
    await expect(refusedWithout.run(channelContext({ socket: closedSocket(4403) }))).resolves.toBeUndefined()
  })

  test.each([1000, 1011, 4404])('with %i, a code it does not list, is no refusal', async (code) => {
    await expect(refusedWithout.run(channelContext({ socket: closedSocket(code) }))).rejects.toMatchObject({
      name: 'CheckFailure',
      message: expect.stringMatching(new RegExp(`was not refused as the profile states .*: closed with code ${code}$`)),
    })
  })
})

describe('the ticket the channel checks ask for', () => {
  const opens = checkOf('realtime/channel-opens-with-its-receipt')

  test.each([200, 201, 299])('is issued by a %i: the channel is asked for', async (status) => {
    await expect(opens.run(channelContext({ ticketStatus: status }))).rejects.toMatchObject({
      message: expect.stringMatching(/the upgrade was answered 400/),
    })
  })

  test.each([300, 302, 400])('is not issued by a %i, whatever its body holds', async (status) => {
    await expect(opens.run(channelContext({ ticketStatus: status }))).rejects.toMatchObject({
      name: 'CheckFailure',
      message: `the ticket operation (realtime.ticket) issued no ticket at /data/ticket to the API key (${status})`,
    })
  })
})
