import { expect } from 'vitest'
import { redact, secretsOf } from '../../src/http/secrets.js'

/** Random 0x-hashes, as a body lists intents or transactions, from a seeded generator: the same on every run. */
export function hashes(count: number, seed: number): string[] {
  let state = seed
  const byte = () => ((state = (state * 1103515245 + 12345) >>> 0) >>> 16) & 0xff
  return Array.from({ length: count }, () => `0x${Buffer.from(Array.from({ length: 32 }, byte)).toString('hex')}`)
}

export const HEX_RECEIPT = 'rcpt_5f0e3c9a17b2d84e6c0a9f13b7d2e58c4a6f1b09'
export const HEX_RECEIPT_SECRETS = secretsOf({ intent: { receipt: HEX_RECEIPT } })

/**
 * A body of the hashes beside the receipt is redacted to the receipt's placeholder alone; a piece of the receipt among
 * them (an encoder dropped a character) is cut out, and every hash kept.
 */
export function expectHashesKeptBesideReceipt(listed: readonly string[]): void {
  const body = JSON.stringify({ receipt: HEX_RECEIPT, intents: listed.map((hash) => ({ hash })) })
  expect(redact(body, HEX_RECEIPT_SECRETS)).toBe(body.replace(HEX_RECEIPT, '$IPTS_INTENT_RECEIPT'))
  const dropped = `${HEX_RECEIPT.slice(0, 20)}${HEX_RECEIPT.slice(21)}`
  const withPiece = JSON.stringify({ echo: dropped, intents: listed.map((hash) => ({ hash })) })
  const cut = redact(withPiece, HEX_RECEIPT_SECRETS)
  expect(cut).not.toContain(HEX_RECEIPT.slice(24, 36))
  expect(cut).toContain('[part of $IPTS_INTENT_RECEIPT]')
  for (const hash of listed) expect(cut.includes(hash), hash).toBe(true)
}
