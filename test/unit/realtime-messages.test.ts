import { describe, expect, test } from 'vitest'
import {
  judgeChannelMessages,
  messageExcerpt,
  readMessage,
  receiptInUrl,
  receiptsSent,
  recordedMessagesAsStated,
  recordedReceiptInNoUrl,
} from '../../src/checks/realtime-messages.js'
import type { JudgedSettings } from '../../src/checks/exchange-judge.js'
import type { Exchange, WebSocketMessage } from '../../src/http/exchange.js'
import type { RealtimeSection } from '../../src/profile/realtime.js'

/** The judge of a channel's messages and the rule of receipts in URLs (src/checks/realtime-messages.ts). */

const REALTIME: RealtimeSection = {
  ticket: { method: 'POST', path: '/v1/rt/tickets', ticket: '/data/ticket' },
  url: '/v1/rt?ticket={ticket}',
  open: '{"channel":"{channel}","receipt":"{receipt}"}',
  opened: { pointer: '/type', value: 'subscribed' },
  refused: { closeCodes: [4403], message: { pointer: '/type', value: 'error' } },
  channels: { intent: 'intent:{hash}' },
  events: { kind: '/kind', kinds: ['pending', 'cancelled'], terminal: ['cancelled'] },
}

const received = (data: string, opcode: 1 | 2 = 1): WebSocketMessage => ({ type: 'receive', time: 1, opcode, data })

describe('readMessage', () => {
  test.each([
    ['{"type":"subscribed"}', 'opened'],
    ['{"type":"error","kind":"nope"}', 'refused'],
    ['{"type":"event","kind":"pending","extra":{"x":1}}', 'event'],
    ['{"type":"event","kind":"expired"}', 'invalid'],
    ['{"type":"event"}', 'invalid'],
    ['{"type":"event","kind":1}', 'invalid'],
    ['not json', 'invalid'],
  ])('reads %s as %s', (data, role) => {
    expect(readMessage(REALTIME, received(data)).role).toBe(role)
  })

  test('reads a binary message as the UTF-8 text of its bytes', () => {
    const binary = received(Buffer.from('{"type":"event","kind":"cancelled"}').toString('base64'), 2)
    expect(readMessage(REALTIME, binary).role).toBe('event')
  })

  test('without event kinds stated, any JSON that is neither the opening nor a refusal is an event', () => {
    const { events: _, ...withoutEvents } = REALTIME
    expect(readMessage(withoutEvents, received('{"kind":"whatever"}')).role).toBe('event')
    expect(readMessage(withoutEvents, received('[1]')).role).toBe('event')
    expect(readMessage(withoutEvents, received('{')).role).toBe('invalid')
  })
})

describe('judgeChannelMessages', () => {
  test('names each message received that is not as stated, by its place, and never judges a message sent', () => {
    const messages: WebSocketMessage[] = [
      { type: 'send', time: 1, opcode: 1, data: 'not json, but sent by the suite' },
      received('{"type":"subscribed"}'),
      received('{"type":"event","kind":"snapshot"}'),
      received('{"type":"event","kind":"pending"}'),
      received('garbage'),
    ]
    const findings = judgeChannelMessages(REALTIME, messages)
    expect(findings.map((f) => f.index)).toEqual([2, 4])
    expect(findings[0]!.problem).toMatch(
      /^is an event of kind "snapshot" at \/kind, not one of the kinds the profile states \(pending, cancelled\)$/,
    )
    expect(findings[1]!.problem).toMatch(/^is not JSON text/)
  })

  test("never judges a close frame (opcode 8, its code and reason) as a message, nor a ping's data", () => {
    const frame = (opcode: number, data: string): WebSocketMessage => ({ type: 'receive', time: 1, opcode, data })
    const messages = [frame(8, '1000 done'), frame(9, 'ping'), frame(10, 'pong'), received('garbage', 2)]
    expect(judgeChannelMessages(REALTIME, messages).map((f) => f.index)).toEqual([3])
  })

  test('finds nothing in an empty list', () => {
    expect(judgeChannelMessages(REALTIME, [])).toEqual([])
  })
})

describe('receiptInUrl', () => {
  const RECEIPT = 'rcpt_0123456789abcdef0123'
  const exchange = (url: string, headers: Record<string, string> = {}, body = ''): Exchange => ({
    request: { method: 'GET', url, headers: { 'x-receipt': RECEIPT } },
    response: { status: 200, headers, body, truncated: false },
    durationMs: 0,
    retries: [],
  })

  test('finds the receipt in a URL as it is, percent-encoded or inside a base64url ticket', () => {
    expect(receiptInUrl([exchange(`ws://h/v1/rt?receipt=${RECEIPT}`)], [RECEIPT])?.where).toBe('URL of GET /v1/rt')
    expect(receiptInUrl([exchange(`ws://h/v1/rt?r=${encodeURIComponent(`"${RECEIPT}"`)}`)], [RECEIPT])).toBeDefined()
    const ticket = Buffer.from(JSON.stringify({ channel: 'intent:0x1', receipt: RECEIPT })).toString('base64url')
    expect(receiptInUrl([exchange(`ws://h/v1/rt?ticket=tkt.${ticket}.1`)], [RECEIPT])).toBeDefined()
  })

  test('finds it in a Location, Content-Location or Link of an answer', () => {
    for (const header of ['location', 'content-location', 'link'])
      expect(
        receiptInUrl([exchange('http://h/v1/rt/tickets', { [header]: `/v1/x?receipt=${RECEIPT}` })], [RECEIPT])?.where,
      ).toBe(`${header} header of the answer to /v1/rt/tickets`)
  })

  test('a header or a body is not a URL: the receipt may travel there', () => {
    const inBody = exchange('http://h/v1/rt/tickets', { 'x-receipt': RECEIPT }, JSON.stringify({ receipt: RECEIPT }))
    expect(receiptInUrl([inBody, exchange('ws://h/v1/rt?ticket=abc')], [RECEIPT])).toBeUndefined()
  })
})

const sent = (data: string): WebSocketMessage => ({ type: 'send', time: 1, opcode: 1, data })

describe('receiptsSent', () => {
  test('reads the receipt of each opening the socket sent, as JSON text where it is, else as it was written', () => {
    expect(
      receiptsSent(REALTIME, [
        sent('{"channel":"intent:0xab","receipt":"r-1"}'),
        received('{"channel":"intent:0xab","receipt":"r-2"}'),
        sent('{"channel":"intent:0xab","receipt":"r\\u0041x"}'),
        sent('{"channel":"c","receipt":"a\\q"}'),
        sent('{"channel":"c","receipt":""}'),
        sent('{"channel":"c","receipt":"r-3"} '),
        sent('{"channel":"c","receipt":"r-4"'),
      ]),
    ).toEqual(['r-1', 'rAx', 'a\\q'])
  })

  test("the template's own characters are literal, its channel and ticket any text, its receipt across lines", () => {
    const dotted = { ...REALTIME, open: 'sub.{ticket}.{channel}.{receipt}' }
    expect(receiptsSent(dotted, [sent('subXt.c.r-5'), sent('sub.t.c.r-6'), sent('sub.t.c.r\n7')])).toEqual([
      'r-6',
      'r\n7',
    ])
  })
})

describe('the judgements of a recorded WebSocket (check-har, the proxy)', () => {
  const settings = { profile: { values: { realtime: REALTIME } } } as unknown as JudgedSettings
  const RECEIPT = 'rcpt_0123456789abcdef0123'
  const socket = (url: string, messages?: WebSocketMessage[]): Exchange => ({
    request: { method: 'GET', url, headers: {} },
    response: { status: 101, headers: {}, body: '', truncated: false },
    durationMs: 0,
    retries: [],
    ...(messages === undefined ? {} : { webSocketMessages: messages }),
  })
  const opened = [sent(`{"channel":"intent:0x1","receipt":"${RECEIPT}"}`), received('{"type":"subscribed"}')]

  test('messages as stated: applies to a recorded socket of a profile that states realtime, and names the message', () => {
    const bad = socket('ws://h/v1/rt?ticket=t', [...opened, received('{"type":"event","kind":"snapshot"}')])
    expect(recordedMessagesAsStated.applies(bad.response!, bad, settings)).toBe(true)
    expect(recordedMessagesAsStated.applies(bad.response!, socket('ws://h/v1/rt'), settings)).toBe(false)
    expect(recordedMessagesAsStated.applies(bad.response!, bad, {} as JudgedSettings)).toBe(false)
    expect(recordedMessagesAsStated.violation(bad.response!, bad, settings)).toBe(
      'message 3 of the WebSocket, "{\\"type\\":\\"event\\",\\"kind\\":\\"snapshot\\"}", is an event of kind "snapshot" at /kind, not one of the kinds the profile states (pending, cancelled)',
    )
    const good = socket('ws://h/v1/rt?ticket=t', opened)
    expect(recordedMessagesAsStated.violation(good.response!, good, settings)).toBeUndefined()
  })

  test('receipt in no URL: applies where its messages opened a channel with a receipt, and names where it is', () => {
    const carried = socket(`ws://h/v1/rt?receipt=${RECEIPT}`, opened)
    expect(recordedReceiptInNoUrl.applies(carried.response!, carried, settings)).toBe(true)
    expect(recordedReceiptInNoUrl.violation(carried.response!, carried, settings)).toBe(
      'the URL of GET /v1/rt carries the receipt its channel was opened with, in some encoding',
    )
    const clean = socket('ws://h/v1/rt?ticket=t', opened)
    expect(recordedReceiptInNoUrl.violation(clean.response!, clean, settings)).toBeUndefined()
    const noReceipt = socket(`ws://h/v1/rt?receipt=${RECEIPT}`, [received('{"type":"subscribed"}')])
    expect(recordedReceiptInNoUrl.applies(noReceipt.response!, noReceipt, settings)).toBe(false)
    expect(recordedReceiptInNoUrl.applies(carried.response!, socket('ws://h/v1/rt'), settings)).toBe(false)
  })
})

test("a message's excerpt is its text as JSON, cut after 200 characters", () => {
  expect(messageExcerpt(received('a'.repeat(200)))).toBe(JSON.stringify('a'.repeat(200)))
  expect(messageExcerpt(received(`${'a'.repeat(200)}b`))).toBe(JSON.stringify(`${'a'.repeat(200)}…`))
  expect(messageExcerpt(received(Buffer.from('"é"').toString('base64'), 2))).toBe(JSON.stringify('"é"'))
})
