import fc from 'fast-check'
import { loadOpenApi } from '../contract/schemas.js'

interface ParameterObject {
  name: string
  schema?: { minLength?: number; maxLength?: number }
}

/** The receipt's length bounds, from the intent operation's query parameter in specs/openapi.yaml. */
export function receiptBounds(): { min: number; max: number } {
  const operation = loadOpenApi().paths['/v1/intents/{hash}']!.get as unknown as { parameters: ParameterObject[] }
  const schema = operation.parameters.find((p) => p.name === 'receipt')?.schema
  if (schema?.minLength === undefined || schema.maxLength === undefined) throw new Error('specs/openapi.yaml: the receipt parameter has no length bounds')
  return { min: schema.minLength, max: schema.maxLength }
}

const RECEIPT_CHARACTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-']
/** Long enough to matter, short enough that no server refuses the URL as too long (414 is not declared). */
const LONG_RECEIPT = 2048

const receiptText = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(...RECEIPT_CHARACTERS), minLength, maxLength })

/**
 * Receipts outside the bounds: empty, one or two characters over, long; and a real receipt padded past the bound,
 * which a server comparing by prefix or truncating before it compares would accept.
 */
export function outOfBoundsReceipt(realReceipt: string): fc.Arbitrary<string> {
  const { min, max } = receiptBounds()
  const padded = (length: number) => receiptText(length - realReceipt.length, length - realReceipt.length).map((pad) => realReceipt + pad)
  return fc
    .oneof(
      { weight: 1, arbitrary: receiptText(0, min - 1) },
      { weight: 2, arbitrary: receiptText(max + 1, max + 2) },
      { weight: 1, arbitrary: receiptText(max + 3, LONG_RECEIPT) },
      { weight: 2, arbitrary: fc.integer({ min: max + 1, max: LONG_RECEIPT }).chain(padded) },
    )
    .filter((receipt) => receipt.length < min || receipt.length > max)
}

/**
 * Receipts inside the bounds that are not the real one: 1 and 512 characters, any length between, and the real
 * receipt with characters added before or after it (never shortened or altered inside, which would put most of
 * it in the report unredacted).
 */
export function wrongReceipt(realReceipt: string): fc.Arbitrary<string> {
  const { min, max } = receiptBounds()
  const room = Math.max(max - realReceipt.length, 1)
  return fc
    .oneof(
      { weight: 1, arbitrary: receiptText(min, min) },
      { weight: 1, arbitrary: receiptText(max, max) },
      { weight: 1, arbitrary: receiptText(min, max) },
      { weight: 2, arbitrary: receiptText(1, Math.min(room, 8)).map((extra) => realReceipt + extra) },
      { weight: 2, arbitrary: receiptText(1, Math.min(room, 8)).map((extra) => extra + realReceipt) },
    )
    .filter((receipt) => receipt !== realReceipt && receipt.length >= min && receipt.length <= max)
}
