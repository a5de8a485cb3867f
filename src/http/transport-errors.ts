import { maxHeaderSize } from 'node:http'

/**
 * undici's and Node's limit on a response's header section (16 KiB unless --max-http-header-size says otherwise): a
 * head over it cannot be read.
 */
const MAX_HEADER_SECTION_KIB = Math.round(maxHeaderSize / 1024)

/**
 * Why no response was read, in words, by the error code undici or Node gives: the one table of them, for a run's
 * client and the proxy. A code not in it is named by its code, never by the library's text.
 */
const REASONS: Record<string, (timeoutMs: number, message: string) => string> = {
  UND_ERR_HEADERS_OVERFLOW: () => `the response's header section is over ${MAX_HEADER_SECTION_KIB} KiB: not readable`,
  UND_ERR_HEADERS_TIMEOUT: (ms) => `no response head within ${ms} ms`,
  UND_ERR_BODY_TIMEOUT: (ms) => `the response body stalled for ${ms} ms`,
  UND_ERR_CONNECT_TIMEOUT: (ms) => `no connection within ${ms} ms`,
  UND_ERR_SOCKET: () => 'the connection was closed before the response was complete',
  UND_ERR_CLOSED: () => 'the connection was closed before the response was complete',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: () => 'the response body did not match its content-length',
  UND_ERR_INFO: () => 'the response could not be parsed as HTTP',
  HTTPParserError: () => 'the response is not valid HTTP/1.1',
  // The suite's own request was refused before sending (a path a profile states badly): undici's words name what.
  UND_ERR_INVALID_ARG: (_, message) => `the request could not be sent (${message})`,
  HPE_HEADER_OVERFLOW: () => `the response's header section is over ${MAX_HEADER_SECTION_KIB} KiB: not readable`,
  ECONNREFUSED: () => 'the connection was refused',
  ECONNRESET: () => 'the connection was reset',
  EPIPE: () => 'the connection was closed while the request was being sent',
  ETIMEDOUT: () => 'the connection timed out',
  EHOSTUNREACH: () => 'the host is unreachable',
  ENETUNREACH: () => 'the network is unreachable',
  ENOTFOUND: () => 'the host name does not resolve (DNS)',
  EAI_AGAIN: () => 'the host name could not be resolved now (DNS)',
  ERR_SSL_WRONG_VERSION_NUMBER: () => 'the TLS handshake failed: the port does not speak TLS (an http:// port?)',
  EPROTO: () => 'the TLS handshake failed',
  DEPTH_ZERO_SELF_SIGNED_CERT: () => "the server's TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: () => "the server's TLS certificate chain holds a self-signed certificate",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: () => "the server's TLS certificate could not be verified",
  CERT_HAS_EXPIRED: () => "the server's TLS certificate has expired",
  ERR_TLS_CERT_ALTNAME_INVALID: () => "the server's TLS certificate is for another host name",
}

/** undici's timeouts, all recorded as TIMEOUT (the circuit breaker counts them as unanswered). */
const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT'])

/** An error of the transport as the exchange records it: a code, and a message in words. */
export function transportError(error: unknown, requestTimeoutMs: number): { code: string; message: string } {
  const err = (error ?? {}) as { code?: unknown; name?: string; message?: unknown; cause?: unknown }
  // The abort of the request's own time bound (a DOMException, whose code is a number).
  if (err.name === 'TimeoutError')
    return { code: 'TIMEOUT', message: `no complete response within ${requestTimeoutMs} ms` }
  // undici wraps a socket's own error (a reset, a TLS failure) as the cause of its own.
  const codes = [err.code, (err.cause as { code?: unknown } | undefined)?.code].filter(
    (c): c is string => typeof c === 'string',
  )
  const code = codes.find((c) => REASONS[c] !== undefined) ?? codes[0] ?? err.name ?? 'ERROR'
  const reason = REASONS[code]
  // llhttp's codes each name what was wrong with the response's bytes.
  if (!reason && code.startsWith('HPE_')) return { code, message: `the response is not valid HTTP/1.1 (${code})` }
  if (!reason) return { code, message: `the request failed (${code})` }
  // A system error's code is what a user searches for; undici's own codes say no more than the words.
  const named = /^(UND_ERR_|HPE_|HTTPParserError)/.test(code) ? '' : ` (${code})`
  return {
    code: TIMEOUTS.has(code) ? 'TIMEOUT' : code,
    message: `${reason(requestTimeoutMs, typeof err.message === 'string' ? err.message : '')}${named}`,
  }
}

/**
 * The code of a request that ended without a response, in words, without the bound of a timeout: "the connection was
 * reset (ECONNRESET)".
 */
export function endingInWords(code: string): string {
  const reason = REASONS[code]
  if (code === 'TIMEOUT') return 'no response in time'
  if (!reason) return `the request failed (${code})`
  return `${reason(0, '')}${/^UND_ERR_/.test(code) ? '' : ` (${code})`}`
}

/** Codes of a response that came but whose head could not be read: the target answered, unreadably. */
const UNREADABLE_HEAD = new Set(['UND_ERR_HEADERS_OVERFLOW', 'HPE_HEADER_OVERFLOW'])

/**
 * What an exchange without a response got, in words (never "undefined" nor empty), as a report names it in place of a
 * status.
 */
export function unansweredAs(error: { code: string; message: string } | undefined): string {
  if (error !== undefined && UNREADABLE_HEAD.has(error.code))
    return `a response whose head is not readable (${error.message})`
  return `no response (${error?.message || 'no reason recorded'})`
}
