import type { CheckOutcome, Evidence, SampleConnection } from '../src/core/report.js'

/**
 * A failure's evidence as plain text lines, for formats without structure of their own (JUnit, the console); samples:
 * how many samples showed it, of how many, for a rule judged over many.
 */
export function evidenceLines(evidence: Evidence, samples?: CheckOutcome['samples']): string[] {
  const lines = [evidence.message]
  const { request, response, transportError, counterexample } = evidence
  if (request) lines.push(`request: ${request.method} ${request.url}`, ...headerLines(request.headers))
  if (response) {
    lines.push(
      `response: status ${response.status}, ${response.bodyBytes} bytes${response.truncated ? ' (cut at the size cap)' : ''}`,
      ...headerLines(response.headers),
    )
    if (response.bodyExcerpt) lines.push('body excerpt:', response.bodyExcerpt)
  }
  if (transportError) lines.push(`transport error: ${transportError.code}: ${transportError.message}`)
  for (const retry of evidence.retries ?? [])
    lines.push(`retried after status ${retry.status}, waited ${retry.waitedMs} ms`)
  for (const v of evidence.schemaViolations ?? []) lines.push(`schema ${v.schema}: ${violationText(v)}`)
  if (counterexample) {
    lines.push(
      `counterexample (seed ${counterexample.seed}, path ${counterexample.path}, ${counterexample.runs} runs): ${JSON.stringify(counterexample.value)}`,
    )
    if (counterexample.replay) lines.push(`replay: ${counterexample.replay}`)
  }
  if (evidence.sample) lines.push(sampleLine(evidence.sample, samples))
  if (evidence.profile) lines.push(profileLine(evidence.profile))
  if (evidence.reproduce) lines.push(`reproduce: ${evidence.reproduce}`)
  if (evidence.others?.length)
    lines.push(`${evidence.others.length} more response(s) broke the same rule; see report.json`)
  return lines
}

/**
 * When and where the response that first showed a finding came: its round (0, the checks), time and connection; and,
 * for a rule judged over many samples, how many showed it.
 */
export function sampleLine(
  { round, at, connection }: NonNullable<Evidence['sample']>,
  samples?: CheckOutcome['samples'],
): string {
  const where = round === 0 ? 'round 0 (the checks)' : `round ${round} (on connections of its own)`
  const on = connection ? `, on ${connectionText(connection)}` : ''
  const count = samples ? `; ${samples.showed} of ${samples.of} samples showed it` : ''
  return `first seen in ${where} at ${at}${on}${count}`
}

/** "connection 2 (client port 51234)", "connection \"17\" (as the HAR names it)". */
export function connectionText({ number, port, id }: SampleConnection): string {
  if (number === undefined) return `connection ${JSON.stringify(id ?? '')} (as the HAR names it)`
  return `connection ${number}${port === undefined ? '' : ` (client port ${port})`}`
}

/** "assessed against the profile: errorCodes = [...] (source)": what a requirement or failure was held to. */
export function profileLine(profile: { key: string; value: unknown; source?: string }, max = 300): string {
  return `assessed against the profile: ${profile.key} = ${oneLine(JSON.stringify(profile.value), max)}${profile.source ? ` (${profile.source})` : ''}`
}

export function violationText(v: {
  keyword: string
  instancePath: string
  schemaPath: string
  message: string
}): string {
  return `${v.instancePath || '(root)'} ${v.message} (keyword ${v.keyword} at ${v.schemaPath})`
}

function headerLines(headers: Record<string, string | string[]>): string[] {
  return Object.entries(headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => `  ${name}: ${v}`),
  )
}

/** The first line of a reason, whitespace collapsed and cut to a length fit for a table cell or a console line. */
export function oneLine(text: string | undefined, max = 200): string {
  const line = (text ?? '').replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}
