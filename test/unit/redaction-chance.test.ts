import { describe, expect, test } from 'vitest'
import { redact } from '../../src/http/secrets.js'
import { expectHashesKeptBesideReceipt, hashes, HEX_RECEIPT, HEX_RECEIPT_SECRETS } from '../support/hash-bodies.js'

/**
 * Redaction by chance, at length: bodies of many random hashes beside a receipt in hex, some of whose stretches a hash
 * shares by accident. Seconds each, which StrykerJS would spend again on every mutant of the redaction: npm run
 * mutation judges it by test/unit/redaction-bounds.test.ts, where the same case runs on a thousand hashes.
 */
describe('chance', () => {
  test('a body of 20,000 random hashes beside a hex receipt keeps every hash, and a piece of the receipt is still cut', () => {
    expectHashesKeptBesideReceipt(hashes(20_000, 7))
  })

  test('a 4 MiB body of hashes beside a hex receipt keeps every hash', () => {
    const listed = hashes(Math.ceil((4 * 1024 * 1024) / 69) + 100, 11)
    const body = JSON.stringify({ receipt: HEX_RECEIPT, intents: listed })
    expect(body.length).toBeGreaterThan(4 * 1024 * 1024)
    expect(redact(body, HEX_RECEIPT_SECRETS)).toBe(body.replace(HEX_RECEIPT, '$IPTS_INTENT_RECEIPT'))
  })
})
