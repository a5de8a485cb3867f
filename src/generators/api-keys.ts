import fc from 'fast-check'

const KEY_CHARACTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-']
const keyText = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(...KEY_CHARACTERS), minLength, maxLength })

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
