/** The printable ASCII characters a single-character class of a pattern admits, e.g. [A-Za-z0-9._:-]. */
export function asciiAlphabet(characterClass: RegExp): string[] {
  return Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).filter((c) =>
    characterClass.test(c),
  )
}

/** The repetition bounds {m,n} (or {n}) at the end of a pattern. */
export function repetitionBounds(pattern: RegExp): { min: number; max: number } {
  const match = /\{(\d+)(?:,(\d+))?\}\$$/.exec(pattern.source)
  if (!match) throw new Error(`pattern ${pattern.source} does not end in a bounded repetition`)
  return { min: Number(match[1]), max: Number(match[2] ?? match[1]) }
}
