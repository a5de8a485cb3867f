import type { CoverageCase } from './coverage.js'

/** The kinds of near miss, each a careless comparison that would take it for the secret. */
export type NearMissKind =
  'case-swapped' | 'last-dropped' | 'first-dropped' | 'last-changed' | 'first-changed' | 'full-width'

const SHORTEST_WITH_NEAR_MISSES = 8

const swapCase = (text: string) =>
  [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('')
/** Another character of the same class, so the near miss keeps the secret's alphabet. */
const changed = (c: string) =>
  /[0-9]/.test(c)
    ? String((Number(c) + 1) % 10)
    : /[a-z]/i.test(c)
      ? c.toLowerCase() === 'z'
        ? 'a'
        : String.fromCharCode(c.charCodeAt(0) + 1)
      : 'x'
/** Printable ASCII in its full-width form (U+FF01..U+FF5E), which NFKC normalisation folds back. */
const fullWidth = (text: string) => text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))

/**
 * Values that are not the secret but that a careless server comparison takes for it: compared without regard to case
 * (case-swapped), as a prefix or suffix of the stored value (a character dropped at either end), on a fixed number
 * of leading or trailing characters (the last or first character changed), or after Unicode compatibility
 * normalisation (full-width, only where the value travels in a URL: a header value cannot carry it). Secrets shorter
 * than 8 characters have none: such a value would match by chance.
 */
export function nearMisses(secret: string, where: 'header' | 'url'): { kind: NearMissKind; value: string }[] {
  if (secret.length < SHORTEST_WITH_NEAR_MISSES) return []
  const misses: { kind: NearMissKind; value: string }[] = [
    { kind: 'case-swapped', value: swapCase(secret) },
    { kind: 'last-dropped', value: secret.slice(0, -1) },
    { kind: 'first-dropped', value: secret.slice(1) },
    { kind: 'last-changed', value: secret.slice(0, -1) + changed(secret.at(-1)!) },
    { kind: 'first-changed', value: changed(secret[0]!) + secret.slice(1) },
  ]
  if (where === 'url') misses.push({ kind: 'full-width', value: fullWidth(secret) })
  return misses.filter(({ value }) => value !== secret)
}

const described: Record<NearMissKind, string> = {
  'case-swapped': 'with its letters in the other case',
  'last-dropped': 'without its last character',
  'first-dropped': 'without its first character',
  'last-changed': 'with its last character changed',
  'first-changed': 'with its first character changed',
  'full-width': 'in full-width characters (NFKC folds them back)',
}

/** The near misses of a secret as coverage cases, labelled by what they probe. */
export function nearMissCoverage(secret: string, name: string, where: 'header' | 'url'): CoverageCase<string>[] {
  return nearMisses(secret, where).map(({ kind, value }) => ({ label: `${name} ${described[kind]}`, value }))
}

/**
 * The placeholder a near miss of a secret gets in everything the suite writes: the secret's, with what was done to it
 * (`$IPTS_API_KEY~case-swapped`), written with characters a URL may carry as they are.
 */
export function nearMissPlaceholder(placeholder: string, kind: NearMissKind): string {
  return `${placeholder}~${kind}`
}
