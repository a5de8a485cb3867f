import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { loadOpenApi } from '../../src/contract/schemas.js'
import { garbageApiKey } from '../../src/generators/api-keys.js'
import { malformedHexIdentifier } from '../../src/generators/hex-identifiers.js'
import { outOfBoundsReceiptCoverage, receiptBounds } from '../../src/generators/receipts.js'
import { invalidRequestId, isSendableHeaderValue } from '../../src/generators/request-ids.js'
import { FIXED_SEED } from '../support/run.js'
import { VERY_LONG } from '../../src/generators/coverage.js'

/**
 * The generators' alphabets and branches at their edges: every character of an alphabet is drawn, a branch meant for
 * any number of real values is taken for one, a bound the contract lacks is refused, a value padded is never the real
 * one.
 */

const SAMPLES = 400
const sample = <T>(arbitrary: fc.Arbitrary<T>) => fc.sample(arbitrary, { seed: FIXED_SEED, numRuns: SAMPLES })
const charactersOf = (values: readonly string[]) => new Set(values.flatMap((value) => [...value]))
const KEY_ALPHABET = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-']

describe('garbage API keys', () => {
  test('key-shaped ones draw every key character, the underscore and the hyphen included', () => {
    const keyShaped = sample(garbageApiKey([])).filter((key) => /^[A-Za-z0-9_-]{16,72}$/.test(key))
    const drawn = charactersOf(keyShaped)
    expect(KEY_ALPHABET.filter((c) => !drawn.has(c))).toEqual([])
  })

  test('a single real key is extended too, before and after it', () => {
    const real = 'ipts_only_key_0123456789'
    const keys = sample(garbageApiKey([real]))
    expect(keys.some((key) => key.length > real.length && key.startsWith(real))).toBe(true)
    expect(keys.some((key) => key.length > real.length && key.endsWith(real))).toBe(true)
  })
})

describe('receipts', () => {
  const receiptSchema = () => {
    const intent = loadOpenApi().paths['/v1/intents/{hash}']!.get as unknown as {
      parameters: { name: string; schema: Record<string, unknown> }[]
    }
    return intent.parameters.find((p) => p.name === 'receipt')!.schema
  }

  test.each(['minLength', 'maxLength'])('a receipt parameter without its %s has no bounds to read', (bound) => {
    const schema = receiptSchema()
    const kept = schema[bound]
    delete schema[bound]
    try {
      expect(() => receiptBounds()).toThrow('the receipt parameter has no length bounds')
    } finally {
      schema[bound] = kept
    }
    expect(receiptBounds()).toEqual({ min: 1, max: 512 })
  })

  test('a real receipt already past the bound still gets a character added: never the real one itself', () => {
    const real = 'r'.repeat(513)
    const padded = outOfBoundsReceiptCoverage(real).filter(({ label }) => label.startsWith('the real receipt'))
    expect(padded.map(({ value }) => value)).toEqual([`${real}R`, real + 'R'.repeat(VERY_LONG - 513)])
  })
})

describe('malformed hex identifiers', () => {
  test('one digit long: the digit added is each hex digit, either case', () => {
    const longer = fc
      .sample(malformedHexIdentifier('Address'), { seed: FIXED_SEED, numRuns: 4000 })
      .filter((id) => /^0x[0-9a-fA-F]{41}$/.test(id))
    const added = new Set(longer.map((id) => id.at(-1)))
    expect([...'0123456789abcdefABCDEF'].filter((c) => !added.has(c))).toEqual([])
  })
})

describe('invalid X-Request-IDs', () => {
  test('all can be sent but those holding CR or LF: no other control character (DEL included) is drawn', () => {
    const ids = fc.sample(invalidRequestId(), { seed: FIXED_SEED, numRuns: 4000 })
    expect(ids.filter((id) => !/[\r\n]/.test(id) && !isSendableHeaderValue(id))).toEqual([])
  })
})
