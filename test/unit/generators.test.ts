import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { loadOpenApi } from '../../src/contract/schemas.js'
import { garbageApiKey, garbageApiKeyCoverage } from '../../src/generators/api-keys.js'
import { tamper, tampering } from '../../src/generators/cursor-tampering.js'
import {
  anyCaseHexIdentifier,
  malformedHexIdentifier,
  malformedHexIdentifierCoverage,
  validHexIdentifier,
  type HexIdentifierSchema,
} from '../../src/generators/hex-identifiers.js'
import { schemaPattern } from '../../src/contract/schemas.js'
import {
  outOfBoundsReceipt,
  outOfBoundsReceiptCoverage,
  receiptBounds,
  wrongReceipt,
  wrongReceiptCoverage,
} from '../../src/generators/receipts.js'
import {
  headerValueOf,
  invalidRequestId,
  invalidRequestIdCoverage,
  isSendableHeaderValue,
  validRequestId,
  validRequestIdCoverage,
} from '../../src/generators/request-ids.js'
import {
  invalidUnsignedIntegerString,
  validUnsignedIntegerString,
} from '../../src/generators/unsigned-integer-strings.js'
import { FIXED_SEED } from '../support/run.js'

const SAMPLES = 600
const sample = <T>(arbitrary: fc.Arbitrary<T>) => fc.sample(arbitrary, { seed: FIXED_SEED, numRuns: SAMPLES })
const settings = { seed: FIXED_SEED, numRuns: SAMPLES }

describe('patterns', () => {
  test('come from specs/openapi.yaml as they are written there', () => {
    const schemas = loadOpenApi().components.schemas as Record<string, { pattern?: string }>
    for (const name of ['Hash', 'Address', 'UnsignedIntegerString', 'RequestId'])
      expect(schemaPattern(name).source).toBe(schemas[name]!.pattern)
  })
})

describe.each<[HexIdentifierSchema, number]>([
  ['Hash', 64],
  ['Address', 40],
])('%s generators', (schema, digits) => {
  const pattern = schemaPattern(schema)

  test('valid identifiers match the pattern in the letter case asked for', () => {
    fc.assert(
      fc.property(validHexIdentifier(schema, 'lower'), (id) => pattern.test(id) && !/[A-F]/.test(id.slice(2))),
      settings,
    )
    fc.assert(
      fc.property(validHexIdentifier(schema, 'upper'), (id) => pattern.test(id) && !/[a-f]/.test(id.slice(2))),
      settings,
    )
    fc.assert(
      fc.property(anyCaseHexIdentifier(schema), (id) => pattern.test(id)),
      settings,
    )
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
    for (const [kind, is] of Object.entries(nearMisses))
      expect(ids.some(is), `no ${kind} among ${SAMPLES} samples`).toBe(true)
  })
})

describe('UnsignedIntegerString generators', () => {
  const pattern = schemaPattern('UnsignedIntegerString')

  test('valid strings match the pattern and stay in range; near misses never match', () => {
    fc.assert(
      fc.property(
        validUnsignedIntegerString(1, 100),
        (text) => pattern.test(text) && Number(text) >= 1 && Number(text) <= 100,
      ),
      settings,
    )
    fc.assert(
      fc.property(invalidUnsignedIntegerString(1, 100), (text) => !pattern.test(text)),
      settings,
    )
    expect(
      sample(invalidUnsignedIntegerString()).some((text) => /^0[0-9]/.test(text)),
      'no leading zero',
    ).toBe(true)
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
    expect(
      receipts.some((r) => r.length === 0),
      'no empty receipt',
    ).toBe(true)
    expect(
      receipts.some((r) => r.length === max + 1),
      'no receipt of 513',
    ).toBe(true)
    expect(
      receipts.some((r) => r.length > 1000),
      'no long receipt',
    ).toBe(true)
    expect(
      receipts.some((r) => r.startsWith(real)),
      'no padded real receipt',
    ).toBe(true)
  })
})

describe('wrong receipt generators', () => {
  const real = 'rcpt_0123456789abcdef'

  test('are 1 to 512 characters, never the real receipt, and reach both bounds', () => {
    const receipts = sample(wrongReceipt(real))
    expect(receipts.filter((r) => r === real || r.length < 1 || r.length > 512)).toEqual([])
    expect(
      receipts.some((r) => r.length === 1),
      'no receipt of 1',
    ).toBe(true)
    expect(
      receipts.some((r) => r.length === 512),
      'no receipt of 512',
    ).toBe(true)
    expect(
      receipts.some((r) => r.startsWith(real)),
      'no real receipt with a suffix',
    ).toBe(true)
  })
})

describe('X-Request-ID generators', () => {
  const pattern = schemaPattern('RequestId')

  test('valid IDs match the pattern and reach both length bounds', () => {
    const ids = sample(validRequestId())
    expect(ids.filter((id) => !pattern.test(id))).toEqual([])
    expect(
      ids.some((id) => id.length === 8),
      'no ID of 8',
    ).toBe(true)
    expect(
      ids.some((id) => id.length === 128),
      'no ID of 128',
    ).toBe(true)
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
    expect(
      keys.some((key) => realKeys.some((real) => key.startsWith(real))),
      'no real key with a suffix',
    ).toBe(true)
    expect(
      keys.some((key) => realKeys.some((real) => key.endsWith(real) && key !== real)),
      'no real key with a prefix',
    ).toBe(true)
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

describe('the fixed coverage cases', () => {
  const hash = `0x${'3a'.repeat(32)}`
  const receipt = 'receipt-of-the-intent'
  const values = <T>(cases: readonly { value: T }[]) => cases.map((c) => c.value)

  test.each(['Hash', 'Address'] as const)(
    'of malformed %s never match, and none is empty or a whole dot segment of a path',
    (schema) => {
      const known = schema === 'Hash' ? hash : `0x${'3a'.repeat(20)}`
      const cases = values(malformedHexIdentifierCoverage(schema, [known]))
      expect(cases.filter((v) => schemaPattern(schema).test(v))).toEqual([])
      expect(cases.filter((v) => v === '' || v === '.' || v === '..')).toEqual([])
      expect(cases, 'the full-width form of a digit, the prefix mistakes, a colliding identifier').toEqual(
        expect.arrayContaining([`0x\uff13${known.slice(3)}`, `0X${known.slice(2)}`, known.slice(2), 'constructor']),
      )
    },
  )

  test('of request IDs are valid or invalid as the pattern says, at and past both bounds', () => {
    const pattern = schemaPattern('RequestId')
    expect(values(validRequestIdCoverage()).every((id) => pattern.test(id))).toBe(true)
    const invalid = values(invalidRequestIdCoverage())
    expect(invalid.filter((id) => pattern.test(id))).toEqual([])
    expect(invalid.map((id) => id.length)).toEqual(expect.arrayContaining([0, 1, 7, 129, 4096]))
  })

  test('of receipts stay on their side of the bounds, and are never the real one', () => {
    const { min, max } = receiptBounds()
    const wrong = values(wrongReceiptCoverage(receipt))
    expect(wrong.filter((r) => r === receipt || r.length < min || r.length > max)).toEqual([])
    expect(wrong, 'a trimming server, a lookup in a plain object').toEqual(
      expect.arrayContaining([` ${receipt}`, `${receipt}\u0000`, '__proto__']),
    )
    expect(values(outOfBoundsReceiptCoverage(receipt)).filter((r) => r.length >= min && r.length <= max)).toEqual([])
  })

  test('of API keys are never a real key, nor a real key cut short', () => {
    const keys = values(garbageApiKeyCoverage(['real-key-0001']))
    expect(keys).not.toContain('real-key-0001')
    expect(keys.filter((k) => 'real-key-0001'.startsWith(k) && k.length > 1)).toEqual([])
  })
})
