import fc from 'fast-check'
import { characterProbes, dangerousWholeValues, VERY_LONG, type CoverageCase } from './coverage.js'

const KEY_CHARACTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-']
const keyText = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...KEY_CHARACTERS), minLength, maxLength })

/**
 * API keys that no server issued: random printable text, key-shaped strings, and a real key with characters added
 * before or after it (a server comparing a prefix would accept those). Keys are never shortened or altered inside,
 * because what is left of the real key would then reach the report unredacted; and never surrounded by whitespace,
 * which HTTP strips from a header value.
 */
export function garbageApiKey(realKeys: readonly string[]): fc.Arbitrary<string> {
  const real = realKeys.length > 0 ? fc.constantFrom(...realKeys) : fc.constant('')
  return fc
    .oneof(
      fc.string({ maxLength: 80 }),
      keyText(16, 72),
      fc.tuple(real, keyText(1, 3)).map(([key, extra]) => key + extra),
      fc.tuple(real, keyText(1, 3)).map(([key, extra]) => extra + key),
    )
    .filter((key) => key.trim() === key && !realKeys.includes(key))
}

/**
 * The fixed coverage cases of garbage keys: empty, one character, very long; each real key with a character before or
 * after it; each unicode, whitespace and control probe inside a key-shaped text; the dangerous strings as whole keys.
 * Never a real key shortened or altered inside (see garbageApiKey).
 */
export function garbageApiKeyCoverage(realKeys: readonly string[]): CoverageCase<string>[] {
  const keyShaped = 'ipts0conformance0garbage0key'
  return [
    { label: 'length 0', value: '' },
    { label: 'length 1', value: 'k' },
    {
      label: `very long (${VERY_LONG})`,
      value: keyShaped.repeat(Math.ceil(VERY_LONG / keyShaped.length)).slice(0, VERY_LONG),
    },
    ...realKeys.flatMap((key, index) => [
      { label: `real key ${index + 1} with a character after it`, value: `${key}x` },
      { label: `real key ${index + 1} with a character before it`, value: `x${key}` },
    ]),
    ...characterProbes((text) => `${keyShaped.slice(0, 8)}${text}${keyShaped.slice(8)}`, 'inside'),
    ...dangerousWholeValues(),
  ].filter(({ value }) => !realKeys.includes(value))
}
