import { createHmac, timingSafeEqual } from 'node:crypto'

/** What a cursor is bound to: the operation, its filters, and where the next page starts. */
export interface CursorPosition {
  operation: string
  filter: string
  offset: number
}

export type CursorReading = { ok: true; offset: number } | { ok: false; code: 'invalid_cursor' | 'cursor_mismatch' }

/** Opaque signed cursors: base64url payload and an HMAC, so a tampered or hand-built one is refused. */
export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(position: CursorPosition): string {
    const payload = Buffer.from(JSON.stringify([position.operation, position.filter, position.offset])).toString(
      'base64url',
    )
    return `${payload}.${this.sign(payload)}`
  }

  decode(cursor: string, operation: string, filter: string): CursorReading {
    const position = this.read(cursor)
    if (!position) return { ok: false, code: 'invalid_cursor' }
    if (position.operation !== operation || position.filter !== filter) return { ok: false, code: 'cursor_mismatch' }
    return { ok: true, offset: position.offset }
  }

  /** The position a cursor carries when its signature holds, whatever operation and filter it was issued for. */
  read(cursor: string): CursorPosition | undefined {
    const [payload, signature, extra] = cursor.split('.')
    if (!payload || !signature || extra !== undefined) return undefined
    const expected = Buffer.from(this.sign(payload))
    const given = Buffer.from(signature)
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
    const [operation, filter, offset] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [
      string,
      string,
      number,
    ]
    return { operation, filter, offset }
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url').slice(0, 22)
  }
}
