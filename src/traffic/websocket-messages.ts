import { Transform, type Writable } from 'node:stream'
import * as ws from 'ws'
import type { WebSocketMessage } from '../http/exchange.js'

interface PerMessageDeflate {
  params: Record<string, unknown> | null
  normalizeParams(configurations: Record<string, unknown>[]): Record<string, unknown>[]
  cleanup(): void
}

/** What ws exports for reading frames, which @types/ws leaves out: its frame parser and permessage-deflate. */
const frames = ws as unknown as {
  Receiver: new (options: {
    isServer: boolean
    maxPayload: number
    extensions: Record<string, PerMessageDeflate>
    skipUTF8Validation: boolean
  }) => Writable
  PerMessageDeflate: new (options: { isServer: boolean; maxPayload: number }) => PerMessageDeflate
  extension: { parse(header: string): Record<string, Record<string, unknown>[] | undefined> }
}

/**
 * How many messages of one channel are recorded: the first ones; later ones are counted, not kept. A peer flooding a
 * channel costs the proxy no more than this.
 */
export const MESSAGES_RECORDED = 1000

const OPCODE_TEXT = 1
const OPCODE_BINARY = 2
const OPCODE_CLOSE = 8

/** Which way a frame went: Chromium's names, `send` from the client, `receive` from the server. */
export type Direction = WebSocketMessage['type']

/**
 * The messages of one WebSocket channel, read from the bytes the proxy passes through in each direction by ws's own
 * frame parser (masking, fragments, control frames, permessage-deflate where the upgrade negotiated it). Reading never
 * holds the bytes up nor changes them: a direction whose frames cannot be read (garbage, a message over the cap, an
 * extension the proxy cannot read) is passed on unread from there, and the recording says why.
 */
export class WebSocketMessages {
  private readonly recorded: WebSocketMessage[] = []
  private recordedBytes = 0
  private notRecorded = 0
  private readonly unread: string[] = []
  private readonly extensions: PerMessageDeflate[] = []

  /**
   * negotiated: the Sec-WebSocket-Extensions of the upgrade's answer; maxBytes: the cap on one message and on all the
   * data recorded.
   */
  constructor(
    private readonly negotiated: string | undefined,
    private readonly maxBytes: number,
  ) {}

  /**
   * A stream the bytes of one direction pass through unchanged, read as frames on their way; the next chunk waits for
   * the reading of this one (backpressure, and bounded inflation).
   */
  tap(direction: Direction): Transform {
    const receiver = this.receiver(direction)
    let reading = receiver !== undefined
    // After a close frame its sender sends nothing more: what else comes is not read.
    receiver?.on('conclude', () => (reading = false))
    receiver?.on('error', (error: Error) => {
      reading = false
      this.unread.push(
        `the ${direction === 'send' ? "client's" : "server's"} frames were not read on: ${error.message}`,
      )
    })
    return new Transform({
      transform(chunk: Buffer, _, done) {
        if (!reading) return done(null, chunk)
        // A copy: the parser unmasks a frame in place, and the bytes go on as they came.
        receiver!.write(Buffer.from(chunk), () => done(null, chunk))
      },
    })
  }

  /** The messages recorded, in the order they were read. */
  messages(): WebSocketMessage[] {
    return this.recorded
  }

  /** What the recording left out, for the HAR entry's comment; undefined when it left out nothing. */
  comment(): string | undefined {
    const parts = [
      ...(this.notRecorded > 0
        ? [
            `${this.notRecorded} messages past the first ${MESSAGES_RECORDED} (or past ${this.maxBytes} bytes) not recorded`,
          ]
        : []),
      ...this.unread,
    ]
    return parts.length > 0 ? parts.join('; ') : undefined
  }

  /** Frees the inflation state of the extensions, once the channel has closed. */
  release(): void {
    for (const deflate of this.extensions) deflate.cleanup()
  }

  private receiver(direction: Direction): Writable | undefined {
    const isServer = direction === 'send'
    let extensions: Record<string, PerMessageDeflate>
    try {
      extensions = this.extensionsFor(isServer)
    } catch (error) {
      this.unread.push(`the frames were not read: the negotiated extensions ${(error as Error).message}`)
      return undefined
    }
    // The parser of the side that receives: the server's reads the client's masked frames.
    const receiver = new frames.Receiver({ isServer, maxPayload: this.maxBytes, extensions, skipUTF8Validation: true })
    receiver.on('message', (data: Buffer, isBinary: boolean) =>
      this.record(direction, isBinary ? OPCODE_BINARY : OPCODE_TEXT, isBinary ? data.toString('base64') : String(data)),
    )
    receiver.on('conclude', (code: number, reason: Buffer) =>
      this.record(direction, OPCODE_CLOSE, reason.length > 0 ? `${code} ${String(reason)}` : String(code)),
    )
    return receiver
  }

  private extensionsFor(isServer: boolean): Record<string, PerMessageDeflate> {
    if (!this.negotiated) return {}
    const offers = frames.extension.parse(this.negotiated)
    const names = Object.keys(offers).filter((name) => name !== 'permessage-deflate')
    if (names.length > 0) throw new Error(`name one the proxy cannot read: ${names.join(', ')}`)
    const params = offers['permessage-deflate']
    if (!params) return {}
    const deflate = new frames.PerMessageDeflate({ isServer, maxPayload: this.maxBytes })
    deflate.params = deflate.normalizeParams(params)[0]!
    this.extensions.push(deflate)
    return { 'permessage-deflate': deflate }
  }

  private record(type: Direction, opcode: number, data: string): void {
    const bytes = Buffer.byteLength(data)
    if (this.recorded.length >= MESSAGES_RECORDED || this.recordedBytes + bytes > this.maxBytes) {
      this.notRecorded++
      return
    }
    this.recordedBytes += bytes
    this.recorded.push({ type, time: Date.now() / 1000, opcode, data })
  }
}
