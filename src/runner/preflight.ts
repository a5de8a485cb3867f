import { randomUUID } from 'node:crypto'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { connect as tlsConnect } from 'node:tls'
import { Agent, request } from 'undici'
import { isUserFixable, TargetUnreachableError, UsageError } from '../core/errors.js'
import type { RunSettings } from '../core/settings.js'

/**
 * The preflight of a run, before its first check: what would otherwise end as failed checks blamed on the deployment,
 * or as results lost after the run, is named at once (exit 2, one line each). `doctor` runs it alone.
 *
 * - the report folder can be created and written to;
 * - the target answers at all, within --timeout (an unreachable one is named within seconds);
 * - the scheme is the one the server speaks (https:// against plain HTTP, http:// against TLS);
 * - the API key is accepted by at least one operation (a key refused with 401 everywhere is the key's problem).
 */
export async function preflight(settings: RunSettings, reportDir: string | undefined): Promise<string[]> {
  const problems: Error[] = []
  const found: string[] = []
  if (reportDir !== undefined) {
    const problem = await unwritable(reportDir)
    if (problem) problems.push(new UsageError(problem))
    else found.push(`report folder ${reportDir}: writable`)
  }
  try {
    found.push(...(await probeTarget(settings)))
  } catch (error) {
    if (!isUserFixable(error)) throw error
    problems.push(error)
  }
  if (problems.length > 1) throw new UsageError(problems.map((problem) => problem.message).join('\n'))
  if (problems.length === 1) throw problems[0]!
  return found
}

/**
 * Why the report folder cannot be used, or undefined: it is created, and a file written to it and removed, before the
 * first request.
 */
async function unwritable(folder: string): Promise<string | undefined> {
  const probe = join(folder, `.ipts-write-probe-${randomUUID()}`)
  try {
    await mkdir(folder, { recursive: true })
    await writeFile(probe, '')
    await rm(probe, { force: true })
    return undefined
  } catch (error) {
    return `the report folder ${folder} cannot be written (${(error as { code?: string }).code ?? 'error'}): the reports would be lost after the run`
  }
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
])
/** What TLS says when the peer answered a handshake with something else: plain HTTP. */
const PLAIN_HTTP_ON_TLS = new Set([
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_SSL_PACKET_LENGTH_TOO_LONG',
  'ERR_SSL_HTTP_REQUEST',
])
const UNTRUSTED_CERTIFICATE = new Set([
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
])
/**
 * How a plain-HTTP request to a TLS port ends: the server closes the connection, or answers bytes that are not HTTP.
 */
const CLOSED_OR_NOT_HTTP = /^(UND_ERR_SOCKET|ECONNRESET|EPIPE|HPE_)/

/** Reads the probe sends at once: a target slow on one operation only still answers another. */
const PROBED_PATHS = ['/v1/config', '/v1/vault', '/v1/markets']

export type ProbeError = { code?: string; name?: string; cause?: { code?: string }; status?: number }

/**
 * A target that cannot be connected to, or that gives no response head to any probe within --timeout, is
 * unreachable: the run ends at once (exit 2) instead of waiting out every check. One that answers badly, or slowly
 * within the bound, gets failed checks instead. The probes carry the run's key: when every probe that was answered was
 * refused with a 401, the key is named, not the deployment.
 */
async function probeTarget(settings: RunSettings): Promise<string[]> {
  const base = settings.baseUrl.replace(/\/+$/, '')
  const url = new URL(base)
  const dispatcher = new Agent({ connect: { timeout: settings.connectTimeoutMs } })
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(settings.apiKey === undefined ? {} : { 'x-api-key': settings.apiKey }),
  }
  const probe = async (path: string) => {
    const { statusCode, body } = await request(`${base}${path}`, {
      method: 'GET',
      headers,
      dispatcher,
      signal: AbortSignal.timeout(settings.requestTimeoutMs),
    })
    // The body is not wanted (it may never end); destroying it emits an abort error, which is expected here.
    body.on('error', () => undefined).destroy()
    if (statusCode === 401 && settings.apiKey !== undefined)
      throw Object.assign(new Error('key refused'), { status: 401 })
    return `target ${url.origin}: answers (GET ${path}: ${statusCode}${settings.apiKey === undefined ? '' : ', the key accepted'})`
  }
  try {
    return [await Promise.any(PROBED_PATHS.map(probe))]
  } catch (error) {
    return await probesFailed((error as AggregateError).errors as ProbeError[], url, settings)
  } finally {
    await dispatcher.destroy()
  }
}

/**
 * What the probes' failures say (each probe's error, as undici gives it): a key refused everywhere, an unreachable
 * target or the wrong scheme or trust are thrown, one line each; anything else is a line that leaves it to the checks.
 */
export async function probesFailed(
  errors: readonly ProbeError[],
  url: URL,
  settings: Pick<RunSettings, 'connectTimeoutMs' | 'requestTimeoutMs'>,
): Promise<string[]> {
  const hostPort = `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`
  const codes = errors.map((e) => e.code ?? e.cause?.code ?? e.name ?? '')
  if (errors.some((e) => e.status === 401)) {
    throw new UsageError(
      `--api-key: the target refused the key with 401 on every operation the preflight read (GET ${PROBED_PATHS.join(', ')}): check the key and that it belongs to this deployment`,
    )
  }
  const unreachable = codes.find((code) => UNREACHABLE.has(code))
  if (unreachable) throw new TargetUnreachableError(`target ${url.origin} is unreachable (${unreachable})`)
  if (url.protocol === 'https:' && codes.some((code) => PLAIN_HTTP_ON_TLS.has(code))) {
    throw new UsageError(`--base-url: https:// but the server at ${hostPort} speaks plain HTTP; use http://`)
  }
  const untrusted = codes.find((code) => UNTRUSTED_CERTIFICATE.has(code))
  if (untrusted)
    throw new UsageError(
      `--base-url: the TLS certificate of ${hostPort} is not trusted (${untrusted}); NODE_EXTRA_CA_CERTS=FILE adds the CA that signed it`,
    )
  if (
    url.protocol === 'http:' &&
    codes.some((code) => CLOSED_OR_NOT_HTTP.test(code)) &&
    (await speaksTls(url.hostname, Number(url.port || 80), settings.connectTimeoutMs))
  ) {
    throw new UsageError(`--base-url: http:// but the server at ${hostPort} speaks TLS; use https://`)
  }
  if (errors.every((e) => e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT')) {
    throw new TargetUnreachableError(
      `target ${url.origin} accepted connections but never answered (no response within ${settings.requestTimeoutMs} ms, --timeout)`,
    )
  }
  // Answers too broken to probe: the checks judge them, with evidence.
  return [
    `target ${url.origin}: answers, but not as HTTP the preflight can read (${[...new Set(codes)].join(', ')}); the checks judge it`,
  ]
}

/**
 * True when the server at host:port completes a TLS handshake (its certificate is not judged here, only the protocol).
 */
function speaksTls(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host,
      port,
      rejectUnauthorized: false,
      servername: /^[\d.]+$|:/.test(host) ? undefined : host,
    })
    const done = (answer: boolean) => {
      socket.destroy()
      resolve(answer)
    }
    socket.setTimeout(timeoutMs, () => done(false))
    socket.once('secureConnect', () => done(true))
    socket.once('error', () => done(false))
  })
}
