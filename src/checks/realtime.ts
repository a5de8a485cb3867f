import { valueAt } from '../core/json-pointer.js'
import type { Exchange } from '../http/exchange.js'
import type { ChannelSocket } from '../http/websocket.js'
import type { WriteOperation } from '../profile/profile.js'
import { channelName, messageText, placeholdersOf, socketUrl, type RealtimeSection } from '../profile/realtime.js'
import { statusOf } from './operation-calls.js'
import {
  judgeChannelMessages,
  messageExcerpt,
  readMessage,
  receiptInUrl,
  recordedMessagesAsStated,
  recordedReceiptInNoUrl,
} from './realtime-messages.js'
import type { Auth, Check, CheckContext } from './types.js'
import {
  acceptedCancellation,
  cancelling,
  expectTerminalStatus,
  newSubmissionWithStatus,
  operationsFor,
  wrongReceipt,
} from './writes.js'

/** How long a channel may take to say it is open or refused, and to send its terminal event after a cancellation. */
const CHANNEL_ANSWER_MS = 5000
/** How long the messages check listens after the opening for a first event. */
const FIRST_EVENT_MS = 2000

const realtimeOf = (ctx: CheckContext): RealtimeSection => ctx.settings.profile!.values.realtime!

/** The channel of the run's intent, or a skip naming the profile key that would state it. */
function intentChannel(ctx: CheckContext, hash: string): string {
  const template = realtimeOf(ctx).channels.intent
  if (template === undefined) ctx.skip('the profile states no intent channel (realtime.channels.intent)')
  return channelName(template, hash)
}

function askTicket(ctx: CheckContext, auth: Auth, channel: string): Promise<Exchange> {
  const { method, path, body } = realtimeOf(ctx).ticket
  return ctx.request(method, path, { auth, body: body === undefined ? undefined : messageText(body, { channel }) })
}

function ticketIn(ctx: CheckContext, exchange: Exchange): string | undefined {
  const ticket = valueAt(exchange.response?.json, realtimeOf(ctx).ticket.ticket)
  return typeof ticket === 'string' && ticket !== '' ? ticket : undefined
}

/** A ticket issued to the run's key, or a failure: the ticket operation issues tickets. */
async function ticketFor(ctx: CheckContext, channel: string): Promise<{ exchange: Exchange; ticket: string }> {
  const exchange = await askTicket(ctx, 'full', channel)
  const ticket = ticketIn(ctx, exchange)
  if (!exchange.response || exchange.response.status >= 300 || ticket === undefined)
    ctx.fail(
      `the ticket operation (realtime.ticket) issued no ticket at ${realtimeOf(ctx).ticket.ticket} to the API key (${statusOf(exchange)})`,
      { exchange },
    )
  return { exchange, ticket }
}

/** What came of asking for a channel: opened, refused as the profile states, or neither (why, in detail). */
interface ChannelAttempt {
  outcome: 'opened' | 'refused' | 'streamed' | 'unanswered' | 'closed' | 'failed'
  detail: string
  socket: ChannelSocket
  ticket: Exchange
}

/** How the profile says a refusal shows, for a finding. */
function refusalStated(realtime: RealtimeSection): string {
  const { closeCodes, message } = realtime.refused
  return [
    ...(closeCodes ? [`a close with code ${closeCodes.join(' or ')}`] : []),
    ...(message ? [`a message with ${JSON.stringify(message.value)} at ${message.pointer}`] : []),
  ].join(', or ')
}

/**
 * Asks for a ticket, connects, and sends the message that opens the channel with this receipt; waits, at most
 * CHANNEL_ANSWER_MS, for the opening, a refusal, or anything else that ends the wait.
 */
async function tryChannel(ctx: CheckContext, channel: string, receipt: string): Promise<ChannelAttempt> {
  const realtime = realtimeOf(ctx)
  const ticket = await ticketFor(ctx, channel)
  const socket = await ctx.openSocket(socketUrl(realtime.url, ctx.settings.baseUrl, { ticket: ticket.ticket, channel }))
  const attempt = (outcome: ChannelAttempt['outcome'], detail: string): ChannelAttempt => ({
    outcome,
    detail,
    socket,
    ticket: ticket.exchange,
  })
  if (!socket.upgraded) {
    const status = socket.exchange.response?.status
    // Where the URL names the channel, the handshake is where a channel can be refused.
    if (status !== undefined && status >= 400 && status < 500 && placeholdersOf(realtime.url).includes('channel'))
      return attempt('refused', `the upgrade was answered ${status}`)
    return attempt(
      'failed',
      status === undefined
        ? `the WebSocket could not be opened (${socket.exchange.error?.message ?? 'no answer'})`
        : `the upgrade was answered ${status}, not 101`,
    )
  }
  socket.send(messageText(realtime.open, { channel, receipt, ticket: ticket.ticket }))
  const deadline = Date.now() + CHANNEL_ANSWER_MS
  for (;;) {
    const event = await socket.next(Math.max(0, deadline - Date.now()))
    if (event.kind === 'timeout') return attempt('unanswered', `nothing within ${CHANNEL_ANSWER_MS / 1000} s`)
    if (event.kind === 'failed') return attempt('failed', event.why)
    if (event.kind === 'closed')
      return realtime.refused.closeCodes?.includes(event.code)
        ? attempt('refused', `closed with code ${event.code}`)
        : attempt('closed', `closed with code ${event.code}${event.reason ? ` (${JSON.stringify(event.reason)})` : ''}`)
    const reading = readMessage(realtime, event.message)
    const said = `sent ${messageExcerpt(event.message)}`
    if (reading.role === 'refused') return attempt('refused', said)
    if (reading.role === 'opened') return attempt('opened', said)
    if (reading.role === 'event') return attempt('streamed', `${said}, an event before the opening the profile states`)
    // A message that is not as the profile states is the messages check's finding; it ends no wait.
  }
}

/** Fails unless the channel, asked for with a receipt that is not its own (what), was refused as the profile states. */
async function expectChannelRefused(ctx: CheckContext, channel: string, receipt: string, what: string) {
  const attempt = await tryChannel(ctx, channel, receipt)
  if (attempt.outcome === 'refused') return
  const opened = attempt.outcome === 'opened' || attempt.outcome === 'streamed'
  ctx.fail(
    opened
      ? `${channel} was opened ${what}: it ${attempt.detail}; the receipt capability is what opens a protected channel`
      : `${channel}, asked for ${what}, was not refused as the profile states (${refusalStated(realtimeOf(ctx))}): ${attempt.detail}`,
    { exchange: attempt.socket.exchange },
  )
}

/** Fails unless the channel opened with the receipt. */
async function openedChannel(ctx: CheckContext, channel: string, receipt: string, whose: string) {
  const attempt = await tryChannel(ctx, channel, receipt)
  if (attempt.outcome !== 'opened')
    ctx.fail(
      `${channel} did not open with ${whose} receipt: ${attempt.detail} (the profile's opening: ${JSON.stringify(realtimeOf(ctx).opened.value)} at ${realtimeOf(ctx).opened.pointer})`,
      { exchange: attempt.socket.exchange },
    )
  return attempt
}

/** The channel template of an intake's submissions, by the intake's kind (an action's or an intent's). */
function channelTemplateOf(ctx: CheckContext, intake: WriteOperation): string | undefined {
  const { channels } = realtimeOf(ctx)
  return intake.kind === 'action' ? channels.action : intake.kind === 'intent' ? channels.intent : undefined
}

/** Reads the channel's events until one of a terminal kind, at most CHANNEL_ANSWER_MS; the kinds seen otherwise. */
async function terminalEvent(realtime: RealtimeSection, socket: ChannelSocket): Promise<string[] | undefined> {
  const { kind, terminal = [] } = realtime.events!
  const seen: string[] = []
  const deadline = Date.now() + CHANNEL_ANSWER_MS
  for (;;) {
    const event = await socket.next(Math.max(0, deadline - Date.now()))
    if (event.kind !== 'message') return seen
    const reading = readMessage(realtime, event.message)
    if (reading.role !== 'event') continue
    const said = valueAt(reading.json, kind) as string
    if (terminal.includes(said)) return undefined
    seen.push(said)
  }
}

const cancellingWithChannel = (ctx: CheckContext) => (op: WriteOperation) =>
  cancelling(op) &&
  channelTemplateOf(ctx, ctx.settings.profile!.values.writes!.operations[op.cancels!.operation]!) !== undefined

export const realtimeChecks: readonly Check[] = [
  {
    id: 'realtime/ticket-needs-valid-key',
    requirement: 'RT-TICKET-KEY',
    title:
      'the ticket operation issues a ticket to the API key, and answers 401 without a ticket to a request without X-API-Key or with an invalid one',
    needs: ['apiKey'],
    profile: 'realtime',
    async run(ctx) {
      const { channels } = realtimeOf(ctx)
      const channel = channelName(channels.intent ?? channels.action!, `0x${'0'.repeat(64)}`)
      await ticketFor(ctx, channel)
      // A key of the real one's length that shares none of it: an invalid key, never part of a secret.
      const invalidKey = wrongReceipt(ctx.settings.apiKey!)
      for (const [auth, what] of [
        ['none', 'without X-API-Key'],
        [{ key: invalidKey }, 'with an invalid X-API-Key'],
      ] as const) {
        const exchange = await askTicket(ctx, auth, channel)
        const ticket = ticketIn(ctx, exchange)
        if (exchange.response?.status !== 401 || ticket !== undefined)
          ctx.fail(
            `the ticket operation answered ${statusOf(exchange)}${ticket === undefined ? '' : ' with a ticket'} to a request ${what}: a missing or invalid key gets 401, and no ticket`,
            { exchange },
          )
      }
    },
  },
  {
    id: 'realtime/channel-opens-with-its-receipt',
    requirement: 'RCPT-REALTIME',
    title: "an intent's channel opens with the intent's receipt, as the profile says an opening shows",
    needs: ['apiKey', 'intent'],
    profile: 'realtime',
    async run(ctx) {
      const { hash, receipt } = ctx.settings.intent!
      await openedChannel(ctx, intentChannel(ctx, hash), receipt, "the intent's")
    },
  },
  {
    id: 'realtime/channel-refused-without-its-receipt',
    requirement: 'RCPT-CHANNEL-CREDENTIAL',
    title:
      "an intent's channel is refused, as the profile says a refusal shows, without a receipt and with a wrong one",
    needs: ['apiKey', 'intent'],
    profile: 'realtime',
    async run(ctx) {
      const { hash, receipt } = ctx.settings.intent!
      const channel = intentChannel(ctx, hash)
      await expectChannelRefused(ctx, channel, '', 'without a receipt')
      await expectChannelRefused(
        ctx,
        channel,
        wrongReceipt(receipt),
        'with a receipt of its length that is not its own',
      )
    },
  },
  {
    id: 'realtime/channel-refused-with-another-intents-receipt',
    requirement: 'RCPT-CHANNEL-CREDENTIAL',
    title: "an intent's channel is refused, as the profile says a refusal shows, with another intent's receipt",
    needs: ['apiKey', 'intent', 'secondIntent'],
    profile: 'realtime',
    async run(ctx) {
      const channel = intentChannel(ctx, ctx.settings.intent!.hash)
      await expectChannelRefused(ctx, channel, ctx.settings.secondIntent!.receipt, "with another intent's receipt")
    },
  },
  {
    id: 'realtime/receipt-in-no-url',
    requirement: 'RCPT-NOT-IN-CHANNEL-URL',
    title:
      "no URL of a channel's flow (the ticket's, the WebSocket's, a Location, Content-Location or Link of their answers) carries the intent's receipt",
    needs: ['apiKey', 'intent'],
    profile: 'realtime',
    recorded: recordedReceiptInNoUrl,
    async run(ctx) {
      const { hash, receipt } = ctx.settings.intent!
      const attempt = await tryChannel(ctx, intentChannel(ctx, hash), receipt)
      const found = receiptInUrl([attempt.ticket, attempt.socket.exchange], [receipt])
      if (found)
        ctx.fail(
          `the ${found.where} carries the receipt the channel is opened with, in some encoding: a URL is kept by proxies, logs and histories`,
          { exchange: found.exchange },
        )
    },
  },
  {
    id: 'realtime/messages-as-stated',
    requirement: 'RT-MESSAGES-AS-STATED',
    title:
      "every message an intent's channel sends is JSON text, and each event holds one of the kinds the profile states",
    needs: ['apiKey', 'intent'],
    profile: 'realtime',
    recorded: recordedMessagesAsStated,
    async run(ctx) {
      const realtime = realtimeOf(ctx)
      const { hash, receipt } = ctx.settings.intent!
      const attempt = await tryChannel(ctx, intentChannel(ctx, hash), receipt)
      if (attempt.outcome === 'opened') {
        // The first event, if one comes soon: messages that come later are judged where they are recorded.
        for (let event = await attempt.socket.next(FIRST_EVENT_MS); event.kind === 'message';) {
          if (readMessage(realtime, event.message).role === 'event') break
          event = await attempt.socket.next(FIRST_EVENT_MS)
        }
      }
      const messages = attempt.socket.exchange.webSocketMessages ?? []
      if (!messages.some((message) => message.type === 'receive'))
        ctx.skip(`the channel sent no message to judge: ${attempt.detail}`)
      const [finding] = judgeChannelMessages(realtime, messages)
      if (finding)
        ctx.fail(
          `message ${finding.index + 1} of the channel, ${messageExcerpt(finding.message)}, ${finding.problem}`,
          {
            exchange: attempt.socket.exchange,
          },
        )
    },
  },
  {
    id: 'realtime/lifecycle-ends-on-channel',
    requirement: 'RT-LIFECYCLE-TERMINAL',
    title:
      "a new submission, its status read with its receipt, its channel opened with it and cancelled by the profile's chained cancellation, reports a terminal state on its status and, where the profile states event kinds, a terminal event on its channel",
    needs: ['apiKey'],
    profile: 'realtime',
    writes: (operations) => 2 * Object.values(operations).filter(cancelling).length,
    async run(ctx) {
      const realtime = realtimeOf(ctx)
      const operations = ctx.settings.profile!.values.writes!.operations
      for (const operation of operationsFor(
        ctx,
        cancellingWithChannel(ctx),
        'a cancellation of an intent or action intake whose channel realtime.channels names (writes.operations.*.cancels)',
      )) {
        const intake = operations[operation]!.cancels!.operation
        const submission = await newSubmissionWithStatus(ctx, operation)
        const channel = channelName(channelTemplateOf(ctx, operations[intake]!)!, submission.id)
        const { socket } = await openedChannel(ctx, channel, submission.receipt, `its ${intake} submission's`)
        ctx.lifecycleStep(
          {
            kind: 'realtime',
            label: 'channel opened with its receipt',
            request: channel,
            outcome: 'opened',
            at: socket.exchange.startedAt!,
          },
          submission.receipt,
        )
        await acceptedCancellation(ctx, operation, submission)
        await expectTerminalStatus(ctx, operation, submission)
        if (!realtime.events?.terminal) continue
        const seen = await terminalEvent(realtime, socket)
        ctx.lifecycleStep({
          kind: 'realtime',
          label: 'terminal event',
          request: channel,
          outcome: seen ? `none within ${CHANNEL_ANSWER_MS / 1000} s (seen: ${seen.join(', ') || 'none'})` : 'received',
          at: new Date().toISOString(),
        })
        if (seen)
          ctx.fail(
            `${channel} sent no event of a terminal kind (${realtime.events.terminal.join(', ')}) within ${CHANNEL_ANSWER_MS / 1000} s of its cancellation; the kinds it sent after its opening: ${seen.join(', ') || 'none'}`,
            { exchange: socket.exchange },
          )
      }
    },
  },
]
