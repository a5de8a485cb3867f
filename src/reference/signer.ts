import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { hexOf } from './data.js'

/** The relayed writes the reference serves, each a kind of signed body. */
export const SIGNED_KINDS = ['intent', 'cancellation'] as const
export type SignedKind = (typeof SIGNED_KINDS)[number]

/**
 * The reference trader's signing key: the trader's, held by its signing tool (`reference sign`), never by the suite.
 */
const TRADER_SIGNING_KEY = hexOf('trader/1/signing-key', 64)
export const SIGNING_TRADER = `0x${hexOf('trader/1', 40)}`

/** A signed body before its signature: a cancellation may name the intent it cancels. */
export interface UnsignedBody {
  kind: SignedKind
  trader: string
  nonce: string
  intent?: string
}

function signatureOf({ kind, trader, nonce, intent }: UnsignedBody): string {
  return `0x${createHmac('sha256', TRADER_SIGNING_KEY)
    .update(JSON.stringify([kind, trader, nonce, intent ?? null]))
    .digest('hex')}`
}

/**
 * A fresh signed body of this kind (a new nonce each time), as the trader's signing tool prints it; a cancellation may
 * name its intent.
 */
export function signedBody(kind: SignedKind, intent?: string): string {
  const body: UnsignedBody = {
    kind,
    trader: SIGNING_TRADER,
    nonce: BigInt(`0x${randomBytes(12).toString('hex')}`).toString(),
    ...(intent === undefined ? {} : { intent }),
  }
  return JSON.stringify({ ...body, signature: signatureOf(body) })
}

/** The body, when a request body is one of this kind that the trader signed. */
export function signedBodyOf(text: string | undefined, kind: SignedKind): UnsignedBody | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(text ?? '')
  } catch {
    return undefined
  }
  const body = parsed as Partial<UnsignedBody & { signature: string }> | null
  if (
    body?.kind !== kind ||
    typeof body.trader !== 'string' ||
    typeof body.nonce !== 'string' ||
    typeof body.signature !== 'string'
  )
    return undefined
  if (body.intent !== undefined && typeof body.intent !== 'string') return undefined
  const expected = Buffer.from(signatureOf(body as UnsignedBody))
  const given = Buffer.from(body.signature)
  return given.length === expected.length && timingSafeEqual(given, expected) ? (body as UnsignedBody) : undefined
}
