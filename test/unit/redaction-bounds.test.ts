import { randomBytes } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { decodedViews, MAX_INFLATED, VIEW_UNITS_FLOOR, VIEW_UNITS_PER_UNIT } from '../../src/http/decoded-views.js'
import { redact } from '../../src/http/secrets.js'
import { fresh } from '../support/fresh-values.js'
import { expectHashesKeptBesideReceipt, hashes } from '../support/hash-bodies.js'

/**
 * The redaction of secrets at its bounds: large and hostile texts whose reading is capped (the inflation cap, the
 * budget of decoded views), and a body of many random hashes; a zip bomb is test/unit/redaction-zip-bomb.test.ts's.
 * Apart from test/unit/secret-forms.test.ts because they take most of the redaction's test time: under mutation
 * (mutation/vitest.mutation-secrets.config.ts) this file runs last, so that a mutant the short tests kill costs none
 * of it.
 */

describe('chance', () => {
  test('a body of 1,000 random hashes beside a hex receipt keeps every hash, and a piece of the receipt is still cut', () => {
    expectHashesKeptBesideReceipt(hashes(1_000, 7))
  })
})

describe('hostile input', () => {
  test.each<[string, () => string]>([
    ['random bytes read as Latin-1', () => randomBytes(64 * 1024).toString('latin1')],
    ['thousands of base64 tokens that read as text', () => Array(6000).fill(btoa('a text, not a key')).join(' ')],
    [
      'thousands of hex tokens that read as text',
      () => Array(6000).fill(Buffer.from('plain text').toString('hex')).join(','),
    ],
    ['UTF-16 in base64', () => Buffer.from('some text '.repeat(8000), 'utf16le').toString('base64')],
    ['JSON arrays of bytes', () => JSON.stringify(Array(500).fill([...Buffer.from('a text, not a key')]))],
    [
      'percent-encoded JSON of base64, three times',
      () => encodeURIComponent(JSON.stringify(btoa('x'.repeat(30000)))).repeat(3),
    ],
  ])(
    'reading %s costs in proportion to its length: its views hold at most the budget, beyond one reading',
    (_, make) => {
      const text = make()
      const views = decodedViews(text)
      expect(views.length, 'it is read').toBeGreaterThan(1)
      const units = views.slice(1).reduce((sum, view) => sum + view.text.length, 0)
      const largest = Math.max(...views.map((view) => view.text.length))
      expect(units - largest).toBeLessThanOrEqual(Math.max(VIEW_UNITS_FLOOR, VIEW_UNITS_PER_UNIT * text.length))
    },
  )

  test('the compressed streams of one text are inflated to MAX_INFLATED together, and the first ones are read', () => {
    const secret = fresh('first-stream-0123?~')
    // 40 streams of 100 KB of text each: 4 MB if each were inflated to the cap of one.
    const text = Array.from({ length: 40 }, (_, i) => gzipSync(`${i === 0 ? secret : ''} ${'x'.repeat(100_000)}`))
      .map((stream) => stream.toString('base64'))
      .join(' ')
    const inflated = decodedViews(text).reduce((sum, view) => sum + (view.text.match(/x/g)?.length ?? 0), 0)
    expect(inflated).toBeGreaterThan(0)
    expect(inflated).toBeLessThanOrEqual(MAX_INFLATED)
    expect(redact(text, [{ value: secret, placeholder: '$S' }])).toContain('$S')
  })
})
