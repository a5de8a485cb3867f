import fc from 'fast-check'
import { characterProbes, dangerousWholeValues, VERY_LONG, type CoverageCase } from './coverage.js'

/** A change to an issued cursor, independent of the cursor itself, so that a seed and path replay the same change. */
export type Tampering =
  | { kind: 'flip'; at: number; to: string }
  | { kind: 'truncate'; keep: number }
  | { kind: 'extend'; suffix: string }
  | { kind: 'random-base64url'; text: string }
  | { kind: 'random-text'; text: string }

const BASE64URL = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_']

/** One character flipped, truncated, extended, random base64url, random text. */
export function tampering(): fc.Arbitrary<Tampering> {
  return fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), to: fc.constantFrom(...BASE64URL, '.') }),
    fc.record({ kind: fc.constant('truncate' as const), keep: fc.nat() }),
    fc.record({
      kind: fc.constant('extend' as const),
      suffix: fc.string({ unit: fc.constantFrom(...BASE64URL, '.'), minLength: 1, maxLength: 8 }),
    }),
    fc.record({
      kind: fc.constant('random-base64url' as const),
      text: fc.string({ unit: fc.constantFrom(...BASE64URL), minLength: 1, maxLength: 80 }),
    }),
    fc.record({ kind: fc.constant('random-text' as const), text: fc.string({ minLength: 1, maxLength: 40 }) }),
  )
}

/**
 * The tampered cursor; never empty (an empty cursor may fairly mean "no cursor"), and different from the original
 * unless the change is random text that happens to equal it.
 */
export function tamper(cursor: string, change: Tampering): string {
  switch (change.kind) {
    case 'flip': {
      const at = change.at % cursor.length
      const to = change.to === cursor[at] ? (change.to === 'A' ? 'B' : 'A') : change.to
      return cursor.slice(0, at) + to + cursor.slice(at + 1)
    }
    case 'truncate':
      return cursor.length < 2 ? `${cursor}A` : cursor.slice(0, 1 + (change.keep % (cursor.length - 1)))
    case 'extend':
      return cursor + change.suffix
    case 'random-base64url':
    case 'random-text':
      return change.text
  }
}

/**
 * The fixed coverage cases of tampering: cut to one character, one character longer, very long, a probe character after
 * it, and the dangerous strings in its place.
 */
export function tamperingCoverage(): CoverageCase<Tampering>[] {
  return [
    { label: 'cut to one character', value: { kind: 'truncate', keep: 0 } },
    { label: 'one character longer', value: { kind: 'extend', suffix: 'A' } },
    { label: `${VERY_LONG} characters longer`, value: { kind: 'extend', suffix: 'A'.repeat(VERY_LONG) } },
    ...characterProbes((text) => text, 'after it').map(({ label, value }) => ({
      label,
      value: { kind: 'extend' as const, suffix: value },
    })),
    ...dangerousWholeValues().map(({ label, value }) => ({
      label: `${label} in its place`,
      value: { kind: 'random-text' as const, text: value },
    })),
  ]
}
