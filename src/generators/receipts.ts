import fc from 'fast-check'
import { loadOpenApi } from '../contract/schemas.js'
import { characterProbes, dangerousWholeValues, VERY_LONG, type CoverageCase } from './coverage.js'
import { nearMissCoverage } from './near-misses.js'

interface ParameterObject {
  name: string
  schema?: { minLength?: number; maxLength?: number }
}

/** The receipt's length bounds, from the intent operation's query parameter in specs/openapi.yaml. */
export function receiptBounds(): { min: number; max: number } {
  const operation = loadOpenApi().paths['/v1/intents/{hash}']!.get as unknown as { parameters: ParameterObject[] }
  const schema = operation.parameters.find((p) => p.name === 'receipt')?.schema
  if (schema?.minLength === undefined || schema.maxLength === undefined)
    throw new Error('specs/openapi.yaml: the receipt parameter has no length bounds')
  return { min: schema.minLength, max: schema.maxLength }
}

const RECEIPT_CHARACTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-']
/** Long enough to matter, short enough that no server refuses the URL as too long (414 is not declared). */
const LONG_RECEIPT = 2048

const receiptText = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...RECEIPT_CHARACTERS), minLength, maxLength })

/**
 * Receipts outside the bounds: empty, one or two characters over, long; and a real receipt padded past the bound,
 * which a server comparing by prefix or truncating before it compares would accept.
 */
export function outOfBoundsReceipt(realReceipt: string): fc.Arbitrary<string> {
  const { min, max } = receiptBounds()
  const padded = (length: number) =>
    receiptText(length - realReceipt.length, length - realReceipt.length).map((pad) => realReceipt + pad)
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

const filler = (length: number) => 'R'.repeat(length)

/**
 * The fixed coverage cases outside the bounds: empty (min-1), max+1 and very long, of filler and of the real receipt
 * padded (a server comparing by prefix, or truncating before it compares, would accept those).
 */
export function outOfBoundsReceiptCoverage(realReceipt: string): CoverageCase<string>[] {
  const { min, max } = receiptBounds()
  const padded = (length: number) => realReceipt + filler(Math.max(length - realReceipt.length, 1))
  return [
    { label: `length ${min - 1} (min-1)`, value: filler(min - 1) },
    { label: `length ${max + 1} (max+1)`, value: filler(max + 1) },
    { label: `the real receipt padded to ${max + 1} (max+1)`, value: padded(max + 1) },
    { label: `very long (${VERY_LONG})`, value: filler(VERY_LONG) },
    { label: `the real receipt padded to ${VERY_LONG}`, value: padded(VERY_LONG) },
  ].filter(({ value }) => value.length < min || value.length > max)
}

/**
 * The fixed coverage cases inside the bounds that are not the real receipt: lengths min and max, the real one with a
 * character before or after it (a server that trims, normalises or stops at NUL would accept those), padded to max,
 * its near misses (a comparison without regard to case, by prefix, on leading characters or after NFKC would accept
 * those), and the dangerous strings as whole receipts (a lookup in a plain object finds `constructor`).
 */
export function wrongReceiptCoverage(realReceipt: string): CoverageCase<string>[] {
  const { min, max } = receiptBounds()
  return [
    { label: `length ${min} (min)`, value: filler(min) },
    { label: `length ${max} (max)`, value: filler(max) },
    {
      label: `the real receipt padded to ${max} (max)`,
      value: realReceipt + filler(Math.max(max - realReceipt.length, 1)),
    },
    { label: 'a character after the real receipt', value: `${realReceipt}x` },
    { label: 'a character before the real receipt', value: `x${realReceipt}` },
    { label: 'a space before the real receipt', value: ` ${realReceipt}` },
    ...nearMissCoverage(realReceipt, 'the real receipt', 'url'),
    ...characterProbes((text) => realReceipt + text, 'after the real receipt'),
    ...dangerousWholeValues(),
  ].filter(({ value }) => value !== realReceipt && value.length >= min && value.length <= max)
}
