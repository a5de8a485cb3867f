/** The value a JSON Pointer (RFC 6901) names in a parsed JSON value; undefined when nothing is there. */
export function valueAt(json: unknown, pointer: string): unknown {
  let at = json
  for (const token of pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, token)) return undefined
    at = (at as Record<string, unknown>)[token]
  }
  return at
}
