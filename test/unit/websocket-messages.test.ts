import { finished } from 'node:stream/promises'
import { constants, deflateRawSync } from 'node:zlib'
import { describe, expect, test, vi } from 'vitest'
import * as ws from 'ws'
import { MESSAGES_RECORDED, WebSocketMessages, type Direction } from '../../src/traffic/websocket-messages.js'

/**
 * The reading of a channel's frames as the proxy passes them on, on frames made by hand (RFC 6455 §5.2): what is
 * recorded, in which order and how, that the bytes go on unchanged, and what the recording says it left out.
 */

const MASK = Buffer.from([0x12, 0x34, 0x56, 0x78])

/** One frame: fin set, the opcode, the payload (masked as a client masks it when masked), rsv1 for a compressed one. */
function frame(opcode: number, payload: Buffer | string, { masked = false, fin = true, rsv1 = false } = {}): Buffer {
  const data = Buffer.from(payload)
  const length =
    data.length < 126 ? Buffer.from([data.length]) : Buffer.from([126, data.length >> 8, data.length & 0xff])
  const first = (fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode
  if (masked) length[0]! |= 0x80
  const body = masked ? Buffer.from(data.map((byte, i) => byte ^ MASK[i % 4]!)) : data
  return Buffer.concat([Buffer.from([first]), length, ...(masked ? [MASK] : []), body])
}
const text = (data: string, masked = false) => frame(1, data, { masked })
const binary = (data: Buffer, masked = false) => frame(2, data, { masked })
const close = (code: number, reason = '', masked = false) =>
  frame(8, Buffer.concat([Buffer.from([code >> 8, code & 0xff]), Buffer.from(reason)]), { masked })

/** Passes each chunk through the direction's tap in turn; what came out, once all has. */
async function through(messages: WebSocketMessages, direction: Direction, chunks: Buffer[]): Promise<Buffer> {
  const tap = messages.tap(direction)
  const out: Buffer[] = []
  tap.on('data', (chunk: Buffer) => out.push(chunk))
  for (const chunk of chunks) tap.write(chunk)
  tap.end()
  await finished(tap)
  return Buffer.concat(out)
}
const shown = (messages: WebSocketMessages) =>
  messages.messages().map(({ type, opcode, data }) => `${type} ${opcode} ${data}`)

describe('WebSocketMessages', () => {
  test("records each direction's messages as read, typed and timed; the bytes go on unchanged, masked as they came", async () => {
    const messages = new WebSocketMessages(undefined, 1000)
    const before = Date.now() / 1000
    const sent = [text('hello', true), binary(Buffer.from([0, 1, 255]), true)]
    expect((await through(messages, 'send', sent)).equals(Buffer.concat(sent))).toBe(true)
    const received = [text('ünïcode'), close(1000, 'bye')]
    expect((await through(messages, 'receive', received)).equals(Buffer.concat(received))).toBe(true)
    const after = Date.now() / 1000
    expect(shown(messages)).toEqual([
      'send 1 hello',
      `send 2 ${Buffer.from([0, 1, 255]).toString('base64')}`,
      'receive 1 ünïcode',
      'receive 8 1000 bye',
    ])
    for (const { time } of messages.messages()) {
      expect(time).toBeGreaterThanOrEqual(before)
      expect(time).toBeLessThanOrEqual(after)
    }
    expect(messages.comment()).toBeUndefined()
  })

  test("a close frame's reason of one character is recorded after its code; an empty one leaves the code alone", async () => {
    const messages = new WebSocketMessages(undefined, 1000)
    await through(messages, 'receive', [close(1000, 'x')])
    await through(messages, 'send', [close(1001, '', true)])
    expect(shown(messages)).toEqual(['receive 8 1000 x', 'send 8 1001'])
  })

  test('reads a frame split across chunks, and a message in fragments, as one message', async () => {
    const messages = new WebSocketMessages(undefined, 1000)
    const whole = Buffer.concat([
      frame(1, 'frag', { masked: true, fin: false }),
      frame(0, 'ment', { masked: true }),
      close(1001, '', true),
    ])
    const bytes = [...whole].map((byte) => Buffer.from([byte]))
    expect((await through(messages, 'send', bytes)).equals(whole)).toBe(true)
    expect(shown(messages)).toEqual(['send 1 fragment', 'send 8 1001'])
  })

  test('after a close frame nothing more of that direction is read, but it is passed on', async () => {
    const messages = new WebSocketMessages(undefined, 1000)
    const bytes = [close(1000), text('late')]
    expect((await through(messages, 'receive', bytes)).equals(Buffer.concat(bytes))).toBe(true)
    expect(shown(messages)).toEqual(['receive 8 1000'])
    expect(messages.comment(), 'what follows a close frame is not read, so nothing failed to be read').toBeUndefined()
  })

  test('a text frame that is not UTF-8 is recorded as text all the same, and the reading goes on', async () => {
    const messages = new WebSocketMessages(undefined, 1000)
    await through(messages, 'receive', [frame(1, Buffer.from([0x61, 0xff, 0x62])), text('next')])
    expect(shown(messages)).toEqual(['receive 1 a\ufffdb', 'receive 1 next'])
    expect(messages.comment()).toBeUndefined()
  })

  test('bytes that are not frames stop the reading of that direction, which the comment names; they go on unchanged', async () => {
    const messages = new WebSocketMessages(undefined, 1000)
    const garbage = [text('first'), Buffer.from([0x8f, 0x00]), text('after')]
    expect((await through(messages, 'receive', garbage)).equals(Buffer.concat(garbage))).toBe(true)
    await through(messages, 'send', [Buffer.from([0x81, 0x05, 0x61])])
    expect(shown(messages)).toEqual(['receive 1 first'])
    expect(messages.comment()).toMatch(
      /^the server's frames were not read on: \S.*; the client's frames were not read on: \S/,
    )
  })

  test('a message over the cap is not read; messages past the cap in all are counted, not recorded', async () => {
    const over = new WebSocketMessages(undefined, 4)
    await through(over, 'receive', [text('12345')])
    expect(shown(over)).toEqual([])
    expect(over.comment()).toMatch(/^the server's frames were not read on: /)

    const capped = new WebSocketMessages(undefined, 10)
    await through(capped, 'receive', [text('123456'), text('7890'), text('x')])
    expect(shown(capped)).toEqual(['receive 1 123456', 'receive 1 7890'])
    expect(capped.comment()).toBe(`1 messages past the first ${MESSAGES_RECORDED} (or past 10 bytes) not recorded`)
  })

  test(`records the first ${MESSAGES_RECORDED} messages of a channel and counts the rest`, async () => {
    const messages = new WebSocketMessages(undefined, 1_000_000)
    const frames = Array.from({ length: MESSAGES_RECORDED + 2 }, (_, i) => text(`m${i}`))
    await through(messages, 'receive', frames)
    expect(messages.messages()).toHaveLength(MESSAGES_RECORDED)
    expect(messages.messages().at(-1)!.data).toBe(`m${MESSAGES_RECORDED - 1}`)
    expect(messages.comment()).toBe(
      `2 messages past the first ${MESSAGES_RECORDED} (or past 1000000 bytes) not recorded`,
    )
  })

  test('reads permessage-deflate where the upgrade negotiated it', async () => {
    const messages = new WebSocketMessages('permessage-deflate; server_no_context_takeover', 1000)
    /** A message compressed as permessage-deflate sends it (RFC 7692 §7.2.1: the flush's last 4 bytes left out). */
    const deflated = (data: string) => deflateRawSync(data, { finishFlush: constants.Z_SYNC_FLUSH }).subarray(0, -4)
    await through(messages, 'receive', [frame(1, deflated('squeezed squeezed squeezed'), { rsv1: true })])
    await through(messages, 'send', [frame(1, deflated('up'), { rsv1: true, masked: true })])
    expect(shown(messages)).toEqual(['receive 1 squeezed squeezed squeezed', 'send 1 up'])
    expect(messages.comment()).toBeUndefined()
    messages.release()
  })

  test("release frees each direction's inflation state, once", async () => {
    const deflate = (ws as unknown as { PerMessageDeflate: { prototype: { cleanup(): void } } }).PerMessageDeflate
    const cleanup = vi.spyOn(deflate.prototype, 'cleanup')
    try {
      const messages = new WebSocketMessages('permessage-deflate', 1000)
      await through(messages, 'receive', [text('plain')])
      await through(messages, 'send', [text('plain', true)])
      expect(cleanup).not.toHaveBeenCalled()
      messages.release()
      expect(cleanup).toHaveBeenCalledTimes(2)
    } finally {
      cleanup.mockRestore()
    }
  })

  test('a compressed message is inflated only up to the cap: past it the direction is not read on', async () => {
    const messages = new WebSocketMessages('permessage-deflate', 100)
    const deflated = deflateRawSync('a'.repeat(1000), { finishFlush: constants.Z_SYNC_FLUSH }).subarray(0, -4)
    expect(deflated.length).toBeLessThan(100)
    await through(messages, 'receive', [frame(1, deflated, { rsv1: true }), text('after')])
    expect(shown(messages)).toEqual([])
    expect(messages.comment()).toMatch(/^the server's frames were not read on: \S/)
    messages.release()
  })

  test("a client's compressed message is inflated with the client's window, a server's with the server's", async () => {
    const messages = new WebSocketMessages('permessage-deflate; server_max_window_bits=9', 1_000_000)
    // 2 KiB without a repeat inside, repeated to 64 KiB (past zlib's output chunk): a window of 2^9 bytes cannot
    // reach back to the repeats.
    let seed = 1
    const block = Buffer.from(Array.from({ length: 2048 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) >> 23))
    const long = Array.from({ length: 32 }, () => block)
    const squeezed = (windowBits: number) =>
      deflateRawSync(Buffer.concat(long), { finishFlush: constants.Z_SYNC_FLUSH, windowBits }).subarray(0, -4)
    await through(messages, 'send', [frame(2, squeezed(15), { rsv1: true, masked: true })])
    await through(messages, 'receive', [frame(2, squeezed(9), { rsv1: true })])
    expect(messages.messages().map(({ type, data }) => `${type} ${Buffer.from(data, 'base64').length}`)).toEqual([
      'send 65536',
      'receive 65536',
    ])
    expect(messages.comment()).toBeUndefined()
    messages.release()
  })

  test('an extension it cannot read: nothing is read, each direction says why, the bytes go on', async () => {
    const messages = new WebSocketMessages('x-webkit-deflate-frame, permessage-deflate', 1000)
    const bytes = [text('hidden')]
    expect((await through(messages, 'receive', bytes)).equals(bytes[0]!)).toBe(true)
    await through(messages, 'send', [text('hidden', true)])
    expect(shown(messages)).toEqual([])
    const why =
      'the frames were not read: the negotiated extensions name one the proxy cannot read: x-webkit-deflate-frame'
    expect(messages.comment()).toBe(`${why}; ${why}`)
  })

  test('an extension header without permessage-deflate reads plain frames', async () => {
    const messages = new WebSocketMessages('', 1000)
    await through(messages, 'receive', [text('plain')])
    expect(shown(messages)).toEqual(['receive 1 plain'])
  })
})
