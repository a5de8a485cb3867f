import { bodyOf } from '../response-edits.js'
import { channelIntent, isTicketRequest, registerTicket } from '../realtime.js'
import type { Fault } from '../types.js'

/** The channel a ticket request's body names, if any. */
function ticketChannel(body: string | undefined): string | undefined {
  try {
    const channel = (JSON.parse(body ?? '') as { channel?: unknown }).channel
    return typeof channel === 'string' ? channel : undefined
  } catch {
    return undefined
  }
}

export const realtimeFaults: readonly Fault[] = [
  {
    name: 'ticket-without-key-issued',
    description: 'The ticket operation issues a ticket to a request without X-API-Key or with an invalid one.',
    breaks: ['realtime/ticket-needs-valid-key'],
    onRequest(request, data) {
      if (isTicketRequest(request)) request.headers['x-api-key'] = data.apiKey
    },
  },
  {
    name: 'receipt-in-websocket-url',
    description:
      "A ticket for an intent's channel is self-contained: the channel and the intent's receipt in base64url, so the WebSocket URL that carries the ticket carries the receipt.",
    breaks: ['realtime/receipt-in-no-url'],
    onResponse(response, request, data) {
      const answer = bodyOf(response)?.data as Record<string, unknown> | undefined
      const intent = isTicketRequest(request) && answer && channelIntent(data, ticketChannel(request.body) ?? '')
      if (!intent) return
      const claims = Buffer.from(JSON.stringify({ channel: `intent:${intent.hash}`, receipt: intent.receipt }))
      answer.ticket = `tkt.${claims.toString('base64url')}.${String(answer.ticket)}`
      registerTicket(data, answer.ticket as string)
    },
  },
  {
    name: 'channel-opening-unconfirmed',
    description:
      "An intent's channel opened with its receipt streams its events but never sends the opening message its profile states.",
    breaks: ['realtime/channel-opens-with-its-receipt', 'realtime/lifecycle-ends-on-channel'],
    run: { allowWrites: true },
    onChannelOutput(output) {
      if (output.message?.type === 'subscribed') delete output.message
    },
  },
  {
    name: 'channel-opens-without-receipt',
    description: "An intent's channel opens for a subscribe message that sends no receipt.",
    breaks: ['realtime/channel-refused-without-its-receipt'],
    onSubscribe(subscription, data) {
      subscription.receipt ??= channelIntent(data, subscription.channel)?.receipt
    },
  },
  {
    name: 'channel-opens-with-other-intents-receipt',
    description: "An intent's channel opens with the receipt of any intent, not only its own.",
    breaks: ['realtime/channel-refused-with-another-intents-receipt'],
    onSubscribe(subscription, data) {
      const intent = channelIntent(data, subscription.channel)
      if (intent && data.intents.some((other) => other.receipt === subscription.receipt))
        subscription.receipt = intent.receipt
    },
  },
  {
    name: 'channel-event-kind-unlisted',
    description: "The event a channel sends on opening is of kind 'snapshot', which its profile does not list.",
    breaks: ['realtime/messages-as-stated'],
    onChannelOutput(output) {
      if (output.message?.snapshot === true) output.message.kind = 'snapshot'
    },
  },
  {
    name: 'channel-no-terminal-event',
    description:
      "An intent's channel sends its state on opening but no event when the intent is cancelled: its status ends the lifecycle, its channel never does.",
    breaks: ['realtime/lifecycle-ends-on-channel'],
    run: { allowWrites: true },
    onChannelOutput(output) {
      if (output.message?.type === 'event' && output.message.snapshot !== true) delete output.message
    },
  },
]
