/** A secret value and the placeholder that stands for it in everything the suite writes or prints. */
export interface Secret {
  value: string
  placeholder: string
}

/** Replaces every secret, raw or percent-encoded, by its placeholder. Longest first, so a secret that contains another is replaced whole. */
export function redact(text: string, secrets: readonly Secret[]): string {
  let out = text
  const forms = secrets
    .filter((s) => s.value.length > 0)
    .flatMap((s) => [s, { value: encodeURIComponent(s.value), placeholder: s.placeholder }, { value: JSON.stringify(s.value).slice(1, -1), placeholder: s.placeholder }])
    .sort((a, b) => b.value.length - a.value.length)
  for (const { value, placeholder } of forms) out = out.split(value).join(placeholder)
  return out
}

/** Redacts every string value of plain data, one by one, so that a short secret cannot break the structure or rename its members. */
export function redactDeep<T>(value: T, secrets: readonly Secret[]): T {
  if (typeof value === 'string') return redact(value, secrets) as T
  if (Array.isArray(value)) return value.map((item: unknown) => redactDeep(item, secrets)) as T
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactDeep(item, secrets)])) as T
}
