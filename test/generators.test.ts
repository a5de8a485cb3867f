import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { loadOpenApi } from '../src/contract/schemas.js'
import { garbageApiKey } from '../src/generators/api-keys.js'
import { tamper, tampering } from '../src/generators/cursor-tampering.js'
import { anyCaseHexIdentifier, malformedHexIdentifier, validHexIdentifier, type HexIdentifierSchema } from '../src/generators/hex-identifiers.js'
import { schemaPattern } from '../src/contract/schemas.js'
import { outOfBoundsReceipt, receiptBounds, wrongReceipt } from '../src/generators/receipts.js'
import { headerValueOf, invalidRequestId, isSendableHeaderValue, validRequestId } from '../src/generators/request-ids.js'
import { invalidUnsignedIntegerString, validUnsignedIntegerString } from '../src/generators/unsigned-integer-strings.js'
import { FIXED_SEED } from './support/run.js'

const SAMPLES = 600
const sample = <T>(arbitrary: fc.Arbitrary<T>) => fc.sample(arbitrary, { seed: FIXED_SEED, numRuns: SAMPLES })
const settings = { seed: FIXED_SEED, numRuns: SAMPLES }

describe('patterns', () => {
  test('come from specs/openapi.yaml as they are written there', () => {
    const schemas = loadOpenApi().components.schemas as Record<string, { pattern?: string }>
    for (const name of ['Hash', 'Address', 'UnsignedIntegerString', 'RequestId']) expect(schemaPattern(name).source).toBe(schemas[name]!.pattern)
  })
})

describe.each<[HexIdentifierSchema, number]>([
  ['Hash', 64],
  ['Address', 40],
])('%s generators', (schema, digits) => {
  const pattern = schemaPattern(schema)

  test('valid identifiers match the pattern in the letter case asked for', () => {
    fc.assert(fc.property(validHexIdentifier(schema, 'lower'), (id) => pattern.test(id) && !/[A-F]/.test(id.slice(2))), settings)
    fc.assert(fc.property(validHexIdentifier(schema, 'upper'), (id) => pattern.test(id) && !/[a-f]/.test(id.slice(2))), settings)
    fc.assert(fc.property(anyCaseHexIdentifier(schema), (id) => pattern.test(id)), settings)
  })

  test('malformed identifiers never match, and are mostly near misses', () => {
    const ids = sample(malformedHexIdentifier(schema))
    expect(ids.filter((id) => pattern.test(id))).toEqual([])
    const nearMisses: Record<string, (id: string) => boolean> = {
      'one digit short': (id) => /^0x[0-9a-fA-F]+$/.test(id) && id.length === 2 + digits - 1,
      'one digit long': (id) => /^0x[0-9a-fA-F]+$/.test(id) && id.length === 2 + digits + 1,
      '0X prefix': (id) => id.startsWith('0X'),
      'no prefix': (id) => /^[0-9a-fA-F]+$/.test(id) && id.length === digits,
      'a non-hex digit': (id) => id.startsWith('0x') && id.length === 2 + digits && /[^0-9a-fA-F]/.test(id.slice(2)),
      'surrounding whitespace': (id) => id.trim() !== id && pattern.test(id.trim()),
    }
    for (const [kind, is] of Object.entries(nearMisses)) expect(ids.some(is), `no ${kind} among ${SAMPLES} samples`).toBe(true)
  })
})

describe('UnsignedIntegerString generators', () => {
  const pattern = schemaPattern('UnsignedIntegerString')

  test('valid strings match the pattern and stay in range; near misses never match', () => {
    fc.assert(fc.property(validUnsignedIntegerString(1, 100), (text) => pattern.test(text) && Number(text) >= 1 && Number(text) <= 100), settings)
    fc.assert(fc.property(invalidUnsignedIntegerString(1, 100), (text) => !pattern.test(text)), settings)
    expect(sample(invalidUnsignedIntegerString()).some((text) => /^0[0-9]/.test(text)), 'no leading zero').toBe(true)
  })
})

describe('receipt generators', () => {
  const real = 'rcpt_0123456789abcdef'
  const { min, max } = receiptBounds()

  test('take the bounds 1 to 512 from the document', () => {
    expect([min, max]).toEqual([1, 512])
  })

  test('out-of-bounds receipts are never 1 to 512 characters, and cover empty, just over, long and padded real receipts', () => {
    const receipts = sample(outOfBoundsReceipt(real))
    expect(receipts.filter((r) => r.length >= min && r.length <= max)).toEqual([])
    expect(receipts.some((r) => r.length === 0), 'no empty receipt').toBe(true)
    expect(receipts.some((r) => r.length === max + 1), 'no receipt of 513').toBe(true)
    expect(receipts.some((r) => r.length > 1000), 'no long receipt').toBe(true)
    expect(receipts.some((r) => r.startsWith(real)), 'no padded real receipt').toBe(true)
  })
})

describe('wrong receipt generators', () => {
  const real = 'rcpt_0123456789abcdef'

  test('are 1 to 512 characters, never the real receipt, and reach both bounds', () => {
    const receipts = sample(wrongReceipt(real))
    expect(receipts.filter((r) => r === real || r.length < 1 || r.length > 512)).toEqual([])
    expect(receipts.some((r) => r.length === 1), 'no receipt of 1').toBe(true)
    expect(receipts.some((r) => r.length === 512), 'no receipt of 512').toBe(true)
    expect(receipts.some((r) => r.startsWith(real)), 'no real receipt with a suffix').toBe(true)
  })
})

describe('X-Request-ID generators', () => {
  const pattern = schemaPattern('RequestId')

  test('valid IDs match the pattern and reach both length bounds', () => {
    const ids = sample(validRequestId())
    expect(ids.filter((id) => !pattern.test(id))).toEqual([])
    expect(ids.some((id) => id.length === 8), 'no ID of 8').toBe(true)
    expect(ids.some((id) => id.length === 128), 'no ID of 128').toBe(true)
  })

  test('invalid IDs never match and cover 7 and 129 characters, a space, unicode, percent-encoding and CR or LF', () => {
    const ids = sample(invalidRequestId())
    expect(ids.filter((id) => pattern.test(id))).toEqual([])
    const kinds: Record<string, (id: string) => boolean> = {
      '7 characters': (id) => id.length === 7,
      '129 characters': (id) => id.length === 129,
      'a space': (id) => id.includes(' '),
      unicode: (id) => /[^\x00-\x7f]/.test(id),
      'percent-encoding': (id) => /%[0-9A-F]{2}/.test(id),
      'CR or LF': (id) => /[\r\n]/.test(id),
    }
    for (const [kind, is] of Object.entries(kinds)) expect(ids.some(is), `no ID with ${kind}`).toBe(true)
  })

  test('CR and LF are not sendable; unicode goes on the wire as its UTF-8 bytes', () => {
    expect(isSendableHeaderValue('abc\r\ndefgh')).toBe(false)
    expect(isSendableHeaderValue('abcdefgh\u00e9\u2713')).toBe(true)
    expect(Buffer.from(headerValueOf('\u2713'), 'latin1')).toEqual(Buffer.from('\u2713', 'utf8'))
  })
})

describe('API key generators', () => {
  const realKeys = ['ipts_full_0123456789abcdef', 'ipts_restricted_fedcba9876543210']

  test('garbage keys are never a real key nor surrounded by whitespace, and include real keys with characters added', () => {
    const keys = sample(garbageApiKey(realKeys))
    expect(keys.filter((key) => realKeys.includes(key) || key.trim() !== key)).toEqual([])
    expect(keys.some((key) => realKeys.some((real) => key.startsWith(real))), 'no real key with a suffix').toBe(true)
    expect(keys.some((key) => realKeys.some((real) => key.endsWith(real) && key !== real)), 'no real key with a prefix').toBe(true)
  })
})

describe('cursor tampering', () => {
  const cursor = 'eyJvcCI6Imxpc3RNYXJrZXRzIn0.AbCdEfGhIjKlMnOpQrStUv'

  test('changes the cursor, never to an empty one, except random text', () => {
    fc.assert(
      fc.property(tampering(), (change) => {
        const tampered = tamper(cursor, change)
        return tampered.length > 0 && (tampered !== cursor || change.kind.startsWith('random'))
      }),
      settings,
    )
  })

  test('a flip changes exactly one character, a truncation keeps a proper prefix', () => {
    const flipped = tamper(cursor, { kind: 'flip', at: 3, to: cursor[3]! })
    expect([...flipped].filter((c, i) => c !== cursor[i])).toHaveLength(1)
    const truncated = tamper(cursor, { kind: 'truncate', keep: 1000 })
    expect(cursor.startsWith(truncated) && truncated.length < cursor.length).toBe(true)
  })
})
