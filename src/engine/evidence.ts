import type { Exchange } from '../http/exchange.js'
import { listedResponse, type KeptForEvidence } from '../http/listed-material.js'
import { excerpt, redact, redactDeep, withoutSecretTail, type Secret } from '../http/secrets.js'
import type { FailureDetails } from '../checks/types.js'
import type { Evidence, SampleOrigin } from '../core/report.js'

const BODY_EXCERPT_CHARS = 2000
const MAX_VIOLATIONS = 10
const VALUE_EXCERPT_CHARS = 500

/**
 * The exchange as evidence: the response's unlisted headers and unknown members as stand-ins
 * (src/http/listed-material.ts)
 * but those `kept`, which the failure is about, unless `raw`; then every secret redacted by detection.
 */
export function exchangeEvidence(
  exchange: Exchange,
  secrets: readonly Secret[],
  raw = false,
  kept: KeptForEvidence = {},
): Pick<Evidence, 'request' | 'response' | 'transportError' | 'retries' | 'reproduce'> {
  const evidence: ReturnType<typeof exchangeEvidence> = {
    // The request line and headers; a body is in the reproduction command.
    request: { method: exchange.request.method, url: exchange.request.url, headers: exchange.request.headers },
    reproduce: curlCommand(exchange, secrets),
  }
  if (exchange.response) {
    const { status, headers, body, truncated } = raw
      ? exchange.response
      : listedResponse(exchange.response, exchange.operation, kept)
    // A body cut at the capture cap may end in the beginning of a secret, which no decoding can recognise: that tail
    // goes first.
    const shown = truncated ? withoutSecretTail(body, secrets) : body
    evidence.response = {
      status,
      headers,
      bodyExcerpt: detached(excerpt(shown, BODY_EXCERPT_CHARS, secrets)),
      bodyBytes: Buffer.byteLength(exchange.response.body),
      truncated,
    }
  }
  if (exchange.error) evidence.transportError = exchange.error
  if (exchange.retries.length > 0)
    evidence.retries = exchange.retries.map(({ status, waitedMs }) => ({ status, waitedMs }))
  return evidence
}

/**
 * A copy of a short string that does not share the memory of the text it was cut from: V8 keeps a slice's whole parent
 * alive, so an excerpt kept for the report would otherwise hold the whole body (megabytes, for each failure kept).
 */
function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string
}

/**
 * The evidence of a finding. Unless `raw`, the response is shared by allowlist, but for what the finding is about: the
 * unlisted headers its message names and the members its schema violations point at keep their (redacted) values.
 */
export function buildEvidence(
  message: string,
  details: FailureDetails,
  secrets: readonly Secret[],
  replay?: string,
  raw = false,
): Evidence {
  const evidence: Evidence = {
    message,
    ...(details.exchange
      ? exchangeEvidence(details.exchange, secrets, raw, keptFor(message, details.exchange, details.violations))
      : {}),
  }
  if (details.violations?.length)
    evidence.schemaViolations = details.violations
      .slice(0, MAX_VIOLATIONS)
      .map((v) => ({ ...v, value: valueExcerpt(v.value, secrets) }))
  if (details.counterexample) evidence.counterexample = { ...details.counterexample, ...(replay ? { replay } : {}) }
  const sample = details.exchange && sampleOf(details.exchange, 0)
  if (sample) evidence.sample = sample
  return redactDeep(evidence, secrets)
}

/**
 * When and where an exchange's response came: the round that sent it (0: the checks), when it was sent, and the
 * connection that carried it where the client could tell; undefined for a request never sent.
 */
export function sampleOf(exchange: Exchange, round: number): SampleOrigin | undefined {
  if (exchange.startedAt === undefined) return undefined
  return { round, at: exchange.startedAt, ...(exchange.connection ? { connection: exchange.connection } : {}) }
}

/**
 * The unlisted headers a finding's message names and the members its schema violations point at (an unknown member:
 * its parent's path and its name).
 */
function keptFor(message: string, exchange: Exchange, violations: FailureDetails['violations']): KeptForEvidence {
  const headers = Object.keys(exchange.response?.headers ?? {})
    .map((name) => name.toLowerCase())
    .filter((name) => message.toLowerCase().includes(name))
  const pointers = (violations ?? []).flatMap((v) => {
    const member = (v.params as { additionalProperty?: unknown }).additionalProperty
    return typeof member === 'string'
      ? [v.instancePath, `${v.instancePath}/${member.replace(/~/g, '~0').replace(/\//g, '~1')}`]
      : [v.instancePath]
  })
  return { headers, pointers }
}

/**
 * An offending value as evidence: as it is when small, else the start of its JSON; one nested too deep to serialise is
 * described instead.
 */
function valueExcerpt(value: unknown, secrets: readonly Secret[]): unknown {
  let text: string | undefined
  try {
    text = JSON.stringify(value)
  } catch {
    return '[a value nested too deeply to show]'
  }
  return text === undefined || text.length <= VALUE_EXCERPT_CHARS
    ? value
    : `${excerpt(text, VALUE_EXCERPT_CHARS, secrets)}… (${text.length} characters of JSON)`
}

/**
 * The run's secrets with their placeholders as shell variables, one list per list of secrets: redaction compiles its
 * detector once per list, and every piece of evidence has a reproduction command.
 */
const shellVariables = new WeakMap<readonly Secret[], readonly Secret[]>()

function shellVariablesOf(secrets: readonly Secret[]): readonly Secret[] {
  let list = shellVariables.get(secrets)
  if (!list) {
    // ${IPTS_API_KEY}, braced: a garbage key is the real one with characters added, which would otherwise lengthen the
    // variable's name. A near miss of a secret has no variable of its own: its placeholder stays as text.
    list = secrets.map((secret) =>
      /^\$[A-Z0-9_]+$/.test(secret.placeholder)
        ? { ...secret, placeholder: `\${${secret.placeholder.slice(1)}}` }
        : secret,
    )
    shellVariables.set(secrets, list)
  }
  return list
}

/**
 * A curl command that sends the same request, with secrets as shell variables (${IPTS_API_KEY}, ...). A query parameter
 * that holds a secret goes through --data-urlencode, so that the shell puts the raw secret there and curl encodes it.
 */
export function curlCommand(exchange: Exchange, secrets: readonly Secret[]): string {
  const asShellVariables = shellVariablesOf(secrets)
  const quote = (text: string) =>
    `"${redact(text, asShellVariables)
      .replace(/["\\`]/g, '\\$&')
      .replace(/\$(?!\{IPTS_[A-Z0-9_]+\})/g, '\\$')}"`
  // curl states and decodes the content codings it knows itself (--compressed), so that the body shows as text.
  const codings = Object.keys(exchange.request.headers).some((name) => name.toLowerCase() === 'accept-encoding')
    ? ['--compressed']
    : []
  const headers = [
    ...codings,
    ...Object.entries(exchange.request.headers)
      .filter(([name]) => name.toLowerCase() !== 'accept-encoding')
      .map(([name, value]) => `-H ${quote(`${name}: ${value}`)}`),
  ]
  const [address, query] = exchange.request.url.split(/\?(.*)/s) as [string, string | undefined]
  const params = (query ?? '')
    .split('&')
    .filter(Boolean)
    .map((pair) => ({
      pair,
      decoded: [...new URLSearchParams(pair)].map(([name, value]) => `${name}=${value}`)[0] ?? '',
    }))
  const holdsSecret = ({ decoded }: { decoded: string }) => redact(decoded, secrets) !== decoded
  const kept = params.filter((param) => !holdsSecret(param)).map(({ pair }) => pair)
  const encoded = params.filter(holdsSecret).map(({ decoded }) => `--data-urlencode ${quote(decoded)}`)
  const target = kept.length > 0 ? `${address}?${kept.join('&')}` : address
  return ['curl', '-sS', '-i', ...headers, ...(encoded.length > 0 ? ['-G', ...encoded] : []), quote(target)].join(' ')
}
