import { distance } from 'fastest-levenshtein'

/** Known names ordered by their edit distance from a misspelt one, closest first (ties keep the given order). */
export function closestFirst(word: string, names: readonly string[]): string[] {
  return names
    .map((name) => ({ name, distance: distance(word, name) }))
    .sort((a, b) => a.distance - b.distance)
    .map(({ name }) => name)
}
