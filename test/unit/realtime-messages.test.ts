import { describe, expect, test } from 'vitest'
import { judgeChannelMessages, readMessage, receiptInUrl } from '../../src/checks/realtime-messages.js'
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
