import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { TargetUnreachableError, UsageError } from '../../src/core/errors.js'
import { probesFailed, type ProbeError } from '../../src/runner/preflight.js'
import { rawTarget } from '../support/hostile-servers.js'
import { startTlsServer } from '../support/tls-server.js'

/**
 * How the preflight reads each way its probes fail, one error code at a time: the codes that mean no connection name
 * the target unreachable, those of TLS met with plain HTTP the scheme, those of a certificate the trust, those of a
 * closed connection the scheme when the port speaks TLS, and anything else is left to the checks. The probes' errors
 * are made as undici makes them; the TLS handshake is real.
 */

let tls: Awaited<ReturnType<typeof startTlsServer>>
let tlsPort: number
beforeAll(async () => {
  tls = await startTlsServer()
  tlsPort = tls.port
})
afterAll(async () => {
  await tls.close()
})

/** What the preflight says of a target at baseUrl whose three probes failed with these errors (the last repeated). */
function preflightFailing(baseUrl: string, ...failures: object[]): Promise<string[]> {
  const errors = [0, 1, 2].map((i) => failures[Math.min(i, failures.length - 1)] as ProbeError)
  return probesFailed(errors, new URL(baseUrl), { connectTimeoutMs: 1000, requestTimeoutMs: 1000 })
}

const errorWith = (code: string) => Object.assign(new Error(code), { code })

describe('no connection: the target is named unreachable, with the code', () => {
  test.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT'])(
    '%s, as the error or its cause',
    async (code) => {
      for (const error of [errorWith(code), Object.assign(new Error('fetch failed'), { cause: { code } })]) {
        await expect(preflightFailing('http://target.example:8080', error)).rejects.toThrow(TargetUnreachableError)
        await expect(preflightFailing('http://target.example:8080', error)).rejects.toThrow(
          `target http://target.example:8080 is unreachable (${code})`,
        )
      }
    },
  )
})

describe('https:// against plain HTTP: the scheme is named', () => {
  test.each(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST'])(
    '%s',
    async (code) => {
      await expect(preflightFailing('https://target.example', errorWith(code))).rejects.toThrow(
        new UsageError('--base-url: https:// but the server at target.example:443 speaks plain HTTP; use http://'),
      )
      await expect(
        preflightFailing('http://target.example', errorWith(code)),
        'the same code over http://',
      ).resolves.toEqual([
        `target http://target.example: answers, but not as HTTP the preflight can read (${code}); the checks judge it`,
      ])
    },
  )
})

describe('a certificate not trusted: the code and the way to trust it', () => {
  test.each([
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'CERT_HAS_EXPIRED',
  ])('%s', async (code) => {
    await expect(preflightFailing('https://target.example:8443', errorWith(code))).rejects.toThrow(
      new UsageError(
        `--base-url: the TLS certificate of target.example:8443 is not trusted (${code}); NODE_EXTRA_CA_CERTS=FILE adds the CA that signed it`,
      ),
    )
  })
})

describe('http:// and a connection closed or answered with no HTTP: the scheme is named when the port speaks TLS', () => {
  test.each(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'HPE_INVALID_CONSTANT'])('%s', async (code) => {
    await expect(preflightFailing(`http://127.0.0.1:${tlsPort}`, errorWith(code))).rejects.toThrow(
      new UsageError(`--base-url: http:// but the server at 127.0.0.1:${tlsPort} speaks TLS; use https://`),
    )
  })

  test('a code that only holds one of those is left to the checks, though the port speaks TLS', async () => {
    for (const code of ['XUND_ERR_SOCKET', 'E_HPE_X'])
      await expect(preflightFailing(`http://127.0.0.1:${tlsPort}`, errorWith(code))).resolves.toEqual([
        `target http://127.0.0.1:${tlsPort}: answers, but not as HTTP the preflight can read (${code}); the checks judge it`,
      ])
  })
})

describe('no answer within --timeout', () => {
  test('every probe timed out, by its signal or its headers: the target is named unreachable', async () => {
    const timeout = Object.assign(new Error('timed out'), { name: 'TimeoutError' })
    await expect(
      preflightFailing('http://target.example', timeout, errorWith('UND_ERR_HEADERS_TIMEOUT'), timeout),
    ).rejects.toThrow(
      new TargetUnreachableError(
        'target http://target.example accepted connections but never answered (no response within 1000 ms, --timeout)',
      ),
    )
  })

  test('one probe that failed otherwise: left to the checks, each code named once', async () => {
    const timeout = Object.assign(new Error('timed out'), { name: 'TimeoutError' })
    await expect(
      preflightFailing('http://target.example', timeout, errorWith('UND_ERR_BODY_TIMEOUT'), timeout),
    ).resolves.toEqual([
      'target http://target.example: answers, but not as HTTP the preflight can read (TimeoutError, UND_ERR_BODY_TIMEOUT); the checks judge it',
    ])
  })
})

describe('probes that failed in different ways: the one that names a cause decides', () => {
  const reset = errorWith('ECONNRESET')
  const timeout = Object.assign(new Error('timed out'), { name: 'TimeoutError' })

  test('one probe refused the key with 401: the key is named', async () => {
    await expect(
      preflightFailing('http://target.example', reset, Object.assign(new Error('key refused'), { status: 401 })),
    ).rejects.toThrow(/^--api-key: the target refused the key with 401 on every operation the preflight read/)
  })

  test('one probe met plain HTTP over https://: the scheme is named', async () => {
    await expect(
      preflightFailing('https://target.example', timeout, errorWith('ERR_SSL_WRONG_VERSION_NUMBER'), reset),
    ).rejects.toThrow(
      new UsageError('--base-url: https:// but the server at target.example:443 speaks plain HTTP; use http://'),
    )
  })

  test('one probe closed over http:// on a port that speaks TLS: the scheme is named', async () => {
    await expect(preflightFailing(`http://127.0.0.1:${tlsPort}`, timeout, reset)).rejects.toThrow(
      new UsageError(`--base-url: http:// but the server at 127.0.0.1:${tlsPort} speaks TLS; use https://`),
    )
  })

  test('a connection closed over https://, on a port that speaks TLS, is left to the checks', async () => {
    await expect(preflightFailing(`https://127.0.0.1:${tlsPort}`, reset)).resolves.toEqual([
      `target https://127.0.0.1:${tlsPort}: answers, but not as HTTP the preflight can read (ECONNRESET); the checks judge it`,
    ])
  })
})

describe("the TLS handshake tried on an http:// target's port ends by itself", () => {
  test('a port that accepts and says nothing: no TLS within the connect timeout, left to the checks', async () => {
    const silent = await rawTarget(() => undefined)
    try {
      await expect(preflightFailing(silent.baseUrl, errorWith('ECONNRESET'))).resolves.toEqual([
        `target ${silent.baseUrl}: answers, but not as HTTP the preflight can read (ECONNRESET); the checks judge it`,
      ])
    } finally {
      await silent.close()
    }
  }, 10_000)

  test('a port nothing listens on: no TLS at once, not after the connect timeout', async () => {
    const closed = await rawTarget(() => undefined)
    await closed.close()
    const started = Date.now()
    const errors = [0, 1, 2].map(() => errorWith('ECONNRESET') as ProbeError)
    await expect(
      probesFailed(errors, new URL(closed.baseUrl), { connectTimeoutMs: 30_000, requestTimeoutMs: 1000 }),
    ).resolves.toHaveLength(1)
    expect(Date.now() - started, 'the refused connection ends the handshake').toBeLessThan(10_000)
  }, 20_000)
})
