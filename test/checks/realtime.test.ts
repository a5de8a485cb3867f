import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { realtimeChecks } from '../../src/checks/realtime.js'
import type { CheckContext, StepRequest } from '../../src/checks/types.js'
import { specPath } from '../../src/core/package-root.js'
import type { LifecycleStep } from '../../src/core/report.js'
import type { WebSocketMessage } from '../../src/http/exchange.js'
import type { ChannelSocket, SocketEvent } from '../../src/http/websocket.js'
import type { WriteOperation } from '../../src/profile/profile.js'
import type { RealtimeSection } from '../../src/profile/realtime.js'
import { scriptedContext, verdictOfRun } from '../support/check-context.js'
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

const UPGRADED = exchangeOf(responseOf(101), { operation: undefined })

/** A socket by hand: its handshake's exchange, whether it upgraded, and the events it gives when read. */
function socketOf(next: () => SocketEvent, exchange = UPGRADED, upgraded = true): ChannelSocket {
  return {
    exchange,
    upgraded,
    send: () => undefined,
    next: async () => next(),
    close: () => undefined,
  } as unknown as ChannelSocket
}

/** A socket whose handshake was answered with this status, not 101. */
const refusedSocket = (status: number) =>
  socketOf(
    () => ({ kind: 'timeout' }),
    exchangeOf(responseOf(status, {}, { error: 'refused' }), { operation: undefined }),
    false,
  )

/** A socket that upgrades, then is closed with this code as soon as it is read. */
const closedSocket = (code: number) => socketOf(() => ({ kind: 'closed', code, reason: '' }))

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

/** A socket that upgrades, then gives these events in turn, then nothing more (a wait that times out). */
function scriptedSocket(...events: SocketEvent[]): ChannelSocket {
  let next = 0
  return socketOf(() => events[next++] ?? { kind: 'timeout' })
}
const message = (json: unknown): SocketEvent => {
  const data = JSON.stringify(json)
  return { kind: 'message', message: { type: 'receive', time: 1, opcode: 1, data }, text: data }
}
const OPENING = '(the profile\'s opening: "subscribed" at /type)'

describe('what came of asking for a channel, after the upgrade', () => {
  const opens = checkOf('realtime/channel-opens-with-its-receipt')
  const refusedWithout = checkOf('realtime/channel-refused-without-its-receipt')
  // Each channel asked for gets a socket of its own that gives these events.
  const channelWith = (...events: SocketEvent[]) =>
    Object.assign(channelContext({}), { openSocket: async () => scriptedSocket(...events) })

  test('the opening the profile states opens it; a message not as the profile states ends no wait', async () => {
    await expect(opens.run(channelWith(message('garbage'), message({ type: 'subscribed' })))).resolves.toBeUndefined()
  })

  test.each<[string, SocketEvent, string]>([
    ['nothing', { kind: 'timeout' }, 'nothing within 5 s'],
    ['a failure', { kind: 'failed', why: 'the frame was masked' }, 'the frame was masked'],
    ['a close with a reason', { kind: 'closed', code: 1000, reason: 'bye' }, 'closed with code 1000 ("bye")'],
    ['a close without one', { kind: 'closed', code: 1011, reason: '' }, 'closed with code 1011'],
    ['a refusal by close code', { kind: 'closed', code: 4403, reason: 'refused' }, 'closed with code 4403'],
    ['a refusal', message({ type: 'error' }), 'sent "{\\"type\\":\\"error\\"}"'],
    [
      'an event first',
      message({ kind: 'pending' }),
      'sent "{\\"kind\\":\\"pending\\"}", an event before the opening the profile states',
    ],
  ])('%s is no opening, and says what came', async (_, event, detail) => {
    await expect(opens.run(channelWith(event))).rejects.toMatchObject({
      name: 'CheckFailure',
      message: `intent:0x${'ab'.repeat(32)} did not open with the intent's receipt: ${detail} ${OPENING}`,
    })
  })

  test('a refusal as the profile states is one; an opening or an event is a channel opened without its receipt', async () => {
    await expect(refusedWithout.run(channelWith(message({ type: 'error' })))).resolves.toBeUndefined()
    for (const [event, said] of [
      [message({ type: 'subscribed' }), 'sent "{\\"type\\":\\"subscribed\\"}"'],
      [message({ kind: 'open' }), 'sent "{\\"kind\\":\\"open\\"}", an event before the opening the profile states'],
    ] as const)
      await expect(refusedWithout.run(channelWith(event))).rejects.toMatchObject({
        message: `intent:0x${'ab'.repeat(32)} was opened without a receipt: it ${said}; the receipt capability is what opens a protected channel`,
      })
  })

  test('a channel refused without a receipt must be refused with a wrong one too', async () => {
    const sockets = [scriptedSocket(message({ type: 'error' })), scriptedSocket(message({ type: 'subscribed' }))]
    const ctx = Object.assign(channelContext({}), { openSocket: async () => sockets.shift()! })
    await expect(refusedWithout.run(ctx)).rejects.toMatchObject({
      message: `intent:0x${'ab'.repeat(32)} was opened with a receipt of its length that is not its own: it sent "{\\"type\\":\\"subscribed\\"}"; the receipt capability is what opens a protected channel`,
    })
  })

  test('a wait that ends otherwise is no refusal, which names how the profile says one shows', async () => {
    const stated = '(a close with code 4403, or a message with "error" at /type)'
    await expect(refusedWithout.run(channelWith({ kind: 'timeout' }))).rejects.toMatchObject({
      message: `intent:0x${'ab'.repeat(32)}, asked for without a receipt, was not refused as the profile states ${stated}: nothing within 5 s`,
    })
  })
})

test.each<[string, RealtimeSection['refused'], SocketEvent, string]>([
  [
    'a close is no refusal where the profile states none by close code',
    { message: { pointer: '/type', value: 'error' } },
    { kind: 'closed', code: 4403, reason: '' },
    '(a message with "error" at /type): closed with code 4403',
  ],
  [
    'a message is no refusal where the profile states none by message',
    { closeCodes: [4401, 4403] },
    message({ type: 'error' }),
    '(a close with code 4401 or 4403): nothing within 5 s',
  ],
])('%s, and the finding names only the refusal it states', async (_, refused, event, stated) => {
  const ctx = channelContext({ socket: scriptedSocket(event) })
  Object.assign(ctx.settings.profile!.values.realtime!, { refused })
  await expect(checkOf('realtime/channel-refused-without-its-receipt').run(ctx)).rejects.toMatchObject({
    name: 'CheckFailure',
    message: `intent:0x${'ab'.repeat(32)}, asked for without a receipt, was not refused as the profile states ${stated}`,
  })
})

describe('a WebSocket that could not be opened', () => {
  const opens = checkOf('realtime/channel-opens-with-its-receipt')
  const unopened = (error?: { code: string; message: string }) =>
    socketOf(
      () => ({ kind: 'timeout' }),
      { ...exchangeOf(undefined, { operation: undefined }), ...(error ? { error } : {}) },
      false,
    )

  test.each([
    [{ code: 'ECONNREFUSED', message: 'connection refused' }, 'connection refused'],
    [undefined, 'no answer'],
  ])('is no opening, and says why: %o', async (error, why) => {
    await expect(opens.run(channelContext({ socket: unopened(error) }))).rejects.toMatchObject({
      message: `intent:0x${'ab'.repeat(32)} did not open with the intent's receipt: the WebSocket could not be opened (${why}) ${OPENING}`,
    })
  })
})

test('a profile without an intent channel skips the intent channel checks, naming the key that would state it', async () => {
  const ctx = channelContext({})
  Object.assign(ctx.settings.profile!.values.realtime!, { channels: { action: 'action:{id}' } })
  await expect(checkOf('realtime/channel-opens-with-its-receipt').run(ctx)).rejects.toMatchObject({
    name: 'CheckSkipped',
    message: 'the profile states no intent channel (realtime.channels.intent)',
  })
})

test.each([[''], [7], [null]])('a ticket of %o is no ticket', async (ticket) => {
  const ctx = channelContext({})
  ctx.request = async () =>
    exchangeOf(responseOf(201, {}, { data: { ticket } }), { operation: undefined, method: 'POST' })
  await expect(checkOf('realtime/channel-opens-with-its-receipt').run(ctx)).rejects.toMatchObject({
    message: 'the ticket operation (realtime.ticket) issued no ticket at /data/ticket to the API key (201)',
  })
})

describe('the ticket operation and the key', () => {
  const needsKey = checkOf('realtime/ticket-needs-valid-key')
  const TICKET = { data: { ticket: 'ticket-1' } }
  /** The ticket operation answers by the key a request carries: the API key, none, or another. */
  function ticketContext(answers: { full: [number, unknown]; none: [number, unknown]; other: [number, unknown] }) {
    const ctx = channelContext({})
    const asked: { auth: unknown; body: unknown }[] = []
    ctx.request = async (method, _path, options) => {
      asked.push({ auth: options?.auth, body: options?.body })
      const auth = options?.auth
      const [status, body] = auth === 'full' ? answers.full : auth === 'none' ? answers.none : answers.other
      return exchangeOf(responseOf(status, {}, body), { operation: undefined, method })
    }
    return { ctx, asked }
  }

  test('passes when the API key gets a ticket and a missing or invalid key a 401 without one, asking for a channel', async () => {
    const { ctx, asked } = ticketContext({ full: [201, TICKET], none: [401, { error: 'no key' }], other: [401, {}] })
    await expect(needsKey.run(ctx)).resolves.toBeUndefined()
    expect(asked.map(({ auth }) => auth)).toEqual(['full', 'none', { key: expect.not.stringMatching(/full-key-1/) }])
    expect(asked.every(({ body }) => body === `{"channel":"intent:0x${'0'.repeat(64)}"}`)).toBe(true)
  })

  test('fails on a request without a key that gets no response, naming it', async () => {
    const { ctx } = ticketContext({ full: [201, TICKET], none: [401, {}], other: [401, {}] })
    const asked = ctx.request
    ctx.request = async (method, path, options) =>
      options?.auth === 'none'
        ? {
            ...exchangeOf(undefined, { operation: undefined, method }),
            error: { code: 'ECONNRESET', message: 'reset' },
          }
        : asked(method, path, options)
    await expect(needsKey.run(ctx)).rejects.toMatchObject({
      name: 'CheckFailure',
      message:
        'the ticket operation answered no response (reset) to a request without X-API-Key: a missing or invalid key gets 401, and no ticket',
    })
  })

  test('asks for a ticket without a body where the profile states none', async () => {
    const { ctx, asked } = ticketContext({ full: [201, TICKET], none: [401, {}], other: [401, {}] })
    const { body: _body, ...withoutBody } = REALTIME.ticket
    Object.assign(ctx.settings.profile!.values.realtime!, { ticket: withoutBody })
    await expect(needsKey.run(ctx)).resolves.toBeUndefined()
    expect(asked.map(({ body }) => body)).toEqual([undefined, undefined, undefined])
  })

  test.each<[string, [number, unknown], [number, unknown], string]>([
    ['a 401 with a ticket', [401, TICKET], [401, {}], 'answered 401 with a ticket to a request without X-API-Key'],
    ['a 200 without one', [200, {}], [401, {}], 'answered 200 to a request without X-API-Key'],
    ['a 403 to an invalid key', [401, {}], [403, {}], 'answered 403 to a request with an invalid X-API-Key'],
  ])('fails on %s', async (_, none, other, said) => {
    const { ctx } = ticketContext({ full: [201, TICKET], none, other })
    await expect(needsKey.run(ctx)).rejects.toMatchObject({
      name: 'CheckFailure',
      message: `the ticket operation ${said}: a missing or invalid key gets 401, and no ticket`,
    })
  })
})

test('realtime/lifecycle-ends-on-channel walks the cancellations of an action or intent intake whose channel the profile names', async () => {
  const signed = { command: ['sign'] }
  const intake = (kind: WriteOperation['kind']) =>
    ({ kind, method: 'POST', path: `/v1/${kind}`, statusIdentifier: '/data/id', bodies: signed }) as WriteOperation
  const cancellation = (operation: string) =>
    ({
      ...intake('cancellation'),
      cancels: { operation, bodies: signed, state: '/state', terminalStates: ['cancelled'] },
    }) as WriteOperation
  /** The intake the check submits first (its verdict names it), or its skip. */
  const firstWalked = async (operations: Record<string, WriteOperation>, channels: RealtimeSection['channels']) => {
    const ctx = channelContext({})
    Object.assign(ctx.settings.profile!.values, { writes: { operations } })
    Object.assign(ctx.settings.profile!.values.realtime!, { channels })
    Object.assign(ctx, {
      signedBody: async () => '{}',
      write: async () => ({ accepted: false, exchange: exchangeOf(responseOf(409), { method: 'POST' }) }),
    })
    const error = (await checkOf('realtime/lifecycle-ends-on-channel')
      .run(ctx)
      .catch((e: unknown) => e)) as Error
    return `${error.name}: ${error.message.split(':')[0]}`
  }
  // Listed first, so that a cancellation walked that should not be is the one named.
  const batch = { submitBatch: intake('batch-intent'), cancelBatch: cancellation('submitBatch') }
  const both = { intent: 'intent:{hash}', action: 'action:{id}' }
  expect(
    await firstWalked({ ...batch, submitAction: intake('action'), cancelAction: cancellation('submitAction') }, both),
  ).toBe('CheckFailure: submitAction')
  expect(
    await firstWalked({ ...batch, submitIntent: intake('intent'), cancelIntent: cancellation('submitIntent') }, both),
  ).toBe('CheckFailure: submitIntent')
  expect(
    await firstWalked(
      { ...batch, submitAction: intake('action'), cancelAction: cancellation('submitAction') },
      {
        intent: 'intent:{hash}',
      },
    ),
  ).toBe(
    'CheckSkipped: no write operation of the profile states a cancellation of an intent or action intake whose channel realtime.channels names (writes.operations.*.cancels)',
  )
})

/** A message a socket receives: JSON, or raw text. */
type Arrival = { json?: unknown; text?: string; lateMs?: number }

/**
 * A socket that upgrades, whose messages arrive only as they are read, each recorded then (the real socket records a
 * message as it arrives, so what a check does not wait for has not come when it judges); a message of lateMs arrives
 * that long after it is first waited for. Then nothing more: every wait times out at once. The waits asked are kept.
 */
function arrivingSocket(...arrivals: Arrival[]): { socket: ChannelSocket; waits: number[] } {
  const messages: WebSocketMessage[] = []
  const exchange = { ...UPGRADED, webSocketMessages: messages }
  const waits: number[] = []
  let lateSince: number | undefined
  const socket = socketOf(() => ({ kind: 'timeout' }), exchange)
  Object.assign(socket, {
    send: (data: string) => void messages.push({ type: 'send', time: 1, opcode: 1, data }),
    async next(timeoutMs: number): Promise<SocketEvent> {
      waits.push(timeoutMs)
      const arrival = arrivals[0]
      if (!arrival) return { kind: 'timeout' }
      if (arrival.lateMs !== undefined) {
        lateSince ??= Date.now()
        const comesIn = lateSince + arrival.lateMs - Date.now()
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(timeoutMs, comesIn))))
        if (timeoutMs < comesIn) return { kind: 'timeout' }
      }
      arrivals.shift()
      const data = arrival.text ?? JSON.stringify(arrival.json)
      const received: WebSocketMessage = { type: 'receive', time: 1, opcode: 1, data }
      messages.push(received)
      return { kind: 'message', message: received, text: data }
    },
  })
  return { socket, waits }
}

const OPENED: Arrival = { json: { type: 'subscribed' } }

describe('realtime/messages-as-stated: the messages it waits for', () => {
  const asStated = checkOf('realtime/messages-as-stated')
  const verdictWith = (...arrivals: Arrival[]) =>
    verdictOfRun(asStated.run(channelContext({ socket: arrivingSocket(...arrivals).socket })))
  const unlisted = `is an event of kind "snapshot" at /kind, not one of the kinds the profile states (${REALTIME.events!.kinds.join(', ')})`

  test('after the opening, every message up to the first event, however many come before it', async () => {
    expect(await verdictWith(OPENED, OPENED, { json: { type: 'event', kind: 'snapshot' } })).toBe(
      `CheckFailure: message 4 of the channel, "{\\"type\\":\\"event\\",\\"kind\\":\\"snapshot\\"}", ${unlisted}`,
    )
  })

  test('skips a channel that sent nothing, saying what came of asking for it', async () => {
    expect(await verdictWith()).toBe('CheckSkipped: the channel sent no message to judge: nothing within 5 s')
  })

  test('none after the first event: a later message is judged where it is recorded', async () => {
    expect(await verdictWith(OPENED, { json: { type: 'event', kind: 'pending' } }, { text: 'garbage' })).toBe('passed')
  })

  test('none on a channel that did not open: an event before the opening ends the wait', async () => {
    expect(await verdictWith({ json: { type: 'event', kind: 'pending' } }, { text: 'garbage' })).toBe('passed')
  })
})

describe('realtime/lifecycle-ends-on-channel: the wait for the terminal event (answers made by hand)', () => {
  const lifecycle = checkOf('realtime/lifecycle-ends-on-channel')
  const signed = { command: ['sign'] }
  const OPERATIONS: Record<string, WriteOperation> = {
    submitIntent: {
      kind: 'intent',
      method: 'POST',
      path: '/v1/intents',
      statusIdentifier: '/data/hash',
      receipt: '/data/receipt',
      statusPath: '/v1/intents/{id}?receipt={receipt}',
      bodies: signed,
    },
    cancelIntent: {
      kind: 'cancellation',
      method: 'POST',
      path: '/v1/cancellations',
      statusIdentifier: '/data/id',
      bodies: signed,
      cancels: { operation: 'submitIntent', bodies: signed, state: '/state', terminalStates: ['cancelled'] },
    },
  }

  const CHANNEL = `intent:0x${'cd'.repeat(32)}`
  const STATUS_URL = `http://127.0.0.1:9/v1/intents/0x${'cd'.repeat(32)}?receipt=receipt-of-the-write`
  /** When every request of the lifecycle was sent, the channel's among them. */
  const SENT_AT = '2026-11-27T08:00:00.000Z'

  /** A lifecycle whose writes are accepted, whose status is cancelled once cancelled, on a channel of this socket. */
  function lifecycleContext(socket: ChannelSocket) {
    const ctx = channelContext({ socket })
    Object.assign(ctx.settings.profile!.values, { writes: { operations: OPERATIONS } })
    const steps: LifecycleStep[] = []
    let cancelled = false
    Object.assign(ctx, {
      signedBody: async () => '{}',
      cancellationBody: async () => '{}',
      write: async (operation: string, _body: string, _key: string, step?: StepRequest) => {
        cancelled ||= operation === 'cancelIntent'
        const url = `http://127.0.0.1:9${step?.path ?? OPERATIONS[operation]!.path}`
        const exchange = { ...exchangeOf(responseOf(202, {}, {}), { method: 'POST', url }), startedAt: SENT_AT }
        return { accepted: true, statusIdentifier: `0x${'cd'.repeat(32)}`, receipt: 'receipt-of-the-write', exchange }
      },
      get: async (path: string) => ({
        ...exchangeOf(responseOf(200, {}, { state: cancelled ? 'cancelled' : 'pending' }), {
          url: `http://127.0.0.1:9${path}`,
        }),
        startedAt: SENT_AT,
      }),
      lifecycleStep: (step: LifecycleStep) => void steps.push(step),
    })
    return { ctx, steps }
  }

  test('waits for a terminal event that comes late, at most 5 s at a time', async () => {
    const { socket, waits } = arrivingSocket(OPENED, { json: { type: 'event', kind: 'cancelled' }, lateMs: 100 })
    Object.assign(socket.exchange, { startedAt: SENT_AT })
    const { ctx, steps } = lifecycleContext(socket)
    expect(await verdictOfRun(lifecycle.run(ctx))).toBe('passed')
    expect(
      steps.map(({ at }) => at === SENT_AT),
      'each step dated when its request was sent; the terminal event when it came',
    ).toEqual([true, true, true, true, true, false])
    expect(steps.map(({ kind, label, request, outcome }) => [kind, label, request, outcome])).toEqual([
      ['rest', 'submitIntent intake', 'POST http://127.0.0.1:9/v1/intents', '202'],
      ['rest', 'status read with its receipt', `GET ${STATUS_URL}`, '200, state "pending"'],
      ['realtime', 'channel opened with its receipt', CHANNEL, 'opened'],
      ['rest', 'cancelIntent', 'POST http://127.0.0.1:9/v1/cancellations', '202'],
      ['rest', 'status after the cancellation', `GET ${STATUS_URL}`, '200, state "cancelled"'],
      ['realtime', 'terminal event', CHANNEL, 'received'],
    ])
    expect(waits.length, 'the opening, then the terminal event').toBe(2)
    expect(
      waits.every((ms) => ms > 4000 && ms <= 5000),
      `${waits.join(', ')}`,
    ).toBe(true)
  })

  test.each<[string, RealtimeSection['events']]>([
    ['states no event kinds', undefined],
    ['states no terminal kind', { kind: '/kind', kinds: ['pending', 'cancelled'] }],
  ])('waits for no terminal event where the profile %s', async (_, events) => {
    const { socket, waits } = arrivingSocket(OPENED)
    const { ctx, steps } = lifecycleContext(socket)
    Object.assign(ctx.settings.profile!.values.realtime!, { events })
    expect(await verdictOfRun(lifecycle.run(ctx))).toBe('passed')
    expect(steps.map(({ label }) => label).at(-1)).toBe('status after the cancellation')
    expect(waits, 'only for the opening').toHaveLength(1)
  })

  test.each<[string, Arrival[], string]>([
    ['no event', [], 'none'],
    ['events of kinds not terminal', [{ json: { kind: 'pending' } }, { json: { kind: 'open' } }], 'pending, open'],
    ['a message that is no event, then an event', [{ text: 'garbage' }, { json: { kind: 'pending' } }], 'pending'],
  ])('fails on a channel that sends %s after its opening, naming the kinds it sent', async (_, arrivals, kinds) => {
    const { socket } = arrivingSocket(OPENED, ...arrivals)
    const { ctx, steps } = lifecycleContext(socket)
    expect(await verdictOfRun(lifecycle.run(ctx))).toBe(
      `CheckFailure: ${CHANNEL} sent no event of a terminal kind (settled, failed, cancelled) within 5 s of its cancellation; the kinds it sent after its opening: ${kinds}`,
    )
    expect(steps.at(-1)).toMatchObject({ label: 'terminal event', outcome: `none within 5 s (seen: ${kinds})` })
  })
})
