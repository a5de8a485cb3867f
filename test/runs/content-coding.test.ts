import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { codingsOf, decodeBody } from '../../src/http/content-coding.js'
import { harEntries } from '../../src/har/from-exchange.js'
import { exchangeOf } from '../../src/har/to-exchange.js'
import type { HarEntry } from '../../src/har/types.js'
import type { Exchange } from '../../src/http/exchange.js'
import type { Behaviour, RefResponse } from '../../src/reference/types.js'
import { harEntry } from '../support/har-entries.js'
import { outcomeWithBehaviours } from '../support/run.js'

const JSON_TEXT = '{"data":{"chainId":1}}'

/** A HAR entry of a GET /v1/config answered 200 with these headers and content. */
function entryWith(headers: Record<string, string>, content: HarEntry['response']['content'], status = 200): HarEntry {
  return harEntry({ url: 'http://127.0.0.1:9/v1/config', status, headers, content })
}

describe('content codings', () => {
  test('are read from Content-Encoding in the order applied, case and spaces aside, identity left out', () => {
    expect(codingsOf(['GZIP , identity', 'br'])).toEqual(['gzip', 'br'])
    expect(codingsOf(undefined)).toEqual([])
  })

  test('a chain is undone last first; a body cut at the cap as sent still gives its decoded start', async () => {
    expect(await decodeBody(gzipSync(brotliCompressSync(JSON_TEXT)), 'br, gzip', 1024)).toEqual({
      bytes: Buffer.from(JSON_TEXT),
      truncated: false,
      codings: ['br', 'gzip'],
    })
    const long = gzipSync(Buffer.from('x'.repeat(100_000)))
    const cut = await decodeBody(long.subarray(0, long.length - 20), 'gzip', 1_000_000, true)
    expect(cut).toMatchObject({ truncated: true })
    expect('bytes' in cut && cut.bytes.length).toBeGreaterThan(0)
  })
})

describe('a HAR entry in a content coding', () => {
  test('recorded as the bytes received (base64 of the gzip) is judged decoded', async () => {
    const { exchange } = await exchangeOf(
      entryWith(
        { 'content-encoding': 'gzip' },
        { size: 0, mimeType: 'application/json', encoding: 'base64', text: gzipSync(JSON_TEXT).toString('base64') },
      ),
    )
    expect(exchange.response?.json).toEqual({ data: { chainId: 1 } })
  })

  test('recorded decoded, as HAR 1.2 says, in base64 or as text, is taken as it is', async () => {
    const base64 = await exchangeOf(
      entryWith(
        { 'content-encoding': 'gzip' },
        { size: 0, mimeType: 'application/json', encoding: 'base64', text: Buffer.from(JSON_TEXT).toString('base64') },
      ),
    )
    const text = await exchangeOf(
      entryWith({ 'content-encoding': 'br' }, { size: 0, mimeType: 'application/json', text: JSON_TEXT }),
    )
    expect(base64.exchange.response?.json).toEqual({ data: { chainId: 1 } })
    expect(text.exchange.response?.json).toEqual({ data: { chainId: 1 } })
  })

  test('in a coding the suite cannot decode, or a redirect, is not judged', async () => {
    const zstd = await exchangeOf(
      entryWith(
        { 'content-encoding': 'zstd' },
        {
          size: 6,
          mimeType: 'application/json',
          encoding: 'base64',
          text: Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x80, 0xff]).toString('base64'),
        },
      ),
    )
    expect(zstd.exchange.response?.notJudged).toBe('a body in an unknown content coding zstd: not judged')
    const moved = await exchangeOf(entryWith({ location: '/v1/config/' }, { size: 0, mimeType: 'x-unknown' }, 308))
    expect(moved.exchange.response?.notJudged).toBe(
      'a 308 redirect: not judged (the request it leads to is judged by itself)',
    )
  })
})

describe("a run's HAR", () => {
  const exchange = (response: NonNullable<Exchange['response']>, redirects?: Exchange['redirects']): Exchange => ({
    request: { method: 'GET', url: 'http://127.0.0.1:9/v1/config', headers: {} },
    response,
    retries: [],
    durationMs: 1,
    ...(redirects ? { redirects } : {}),
  })

  test('records a decoded body beside the headers as sent, with the bytes saved; a body it could not decode is not recorded', () => {
    const [gzipped] = harEntries(
      exchange({
        status: 200,
        headers: { 'content-encoding': 'gzip' },
        body: JSON_TEXT,
        truncated: false,
        encodedBytes: 10,
      }),
      [],
      [],
      // Raw: the allowlist would keep the configuration's members, which the contract does not show, as stand-ins.
      true,
    )
    expect(gzipped!.response.content).toMatchObject({
      text: JSON_TEXT,
      size: JSON_TEXT.length,
      compression: JSON_TEXT.length - 10,
    })
    expect(gzipped!.response.bodySize).toBe(10)
    const [zstd] = harEntries(
      exchange({
        status: 200,
        headers: { 'content-encoding': 'zstd' },
        body: '',
        truncated: false,
        encodedBytes: 6,
        notJudged: 'a body in an unknown content coding zstd: not judged',
      }),
      [],
      [],
    )
    expect(zstd!.response.content).toEqual({
      size: 6,
      mimeType: 'x-unknown',
      comment: 'a body in an unknown content coding zstd: not judged',
    })
  })

  test('records each redirect followed as its own entry, the last answering the last Location', () => {
    const hop = {
      url: 'http://127.0.0.1:9/v1/config',
      response: { status: 308, headers: { location: '/v1/config/' }, body: '', truncated: false },
    }
    const entries = harEntries(exchange({ status: 200, headers: {}, body: JSON_TEXT, truncated: false }, [hop]), [], [])
    expect(entries.map((entry) => [entry.request.url, entry.response.status])).toEqual([
      ['http://127.0.0.1:9/v1/config', 308],
      ['http://127.0.0.1:9/v1/config/', 200],
    ])
  })
})

describe('a run meeting a response it cannot judge', () => {
  const onConfig = (name: string, edit: (response: RefResponse) => void): Behaviour => ({
    name,
    description: name,
    onResponse: (response, request) => (request.route?.operation === 'getConfig' ? edit(response) : undefined),
  })

  test('a body in a coding the client cannot decode: the check is not run, naming the coding, never failed', async () => {
    const zstd = onConfig('config-in-zstd', (response) => {
      response.encoded = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x80, 0xff])
      response.headers['content-encoding'] = 'zstd'
    })
    const outcome = await outcomeWithBehaviours(['config/answers-json'], [zstd])
    expect(outcome.status).toBe('not run')
    expect(outcome.reason).toBe('GET /v1/config got a body in an unknown content coding zstd: not judged')
  })

  test('a redirect to another origin: the check is not run, and the other origin gets no request', async () => {
    const seen: string[] = []
    const elsewhere = createServer((req, res) => (seen.push(req.url ?? ''), res.end('{}')))
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`
    try {
      const moved = onConfig('config-moved-elsewhere', (response) => {
        response.status = 302
        response.headers.location = `${origin}/collect`
      })
      const outcome = await outcomeWithBehaviours(['config/answers-json'], [moved])
      expect(outcome.status).toBe('not run')
      expect(outcome.reason).toMatch(
        /^GET \/v1\/config got a 302 redirect to another origin \(http:\/\/127\.0\.0\.1:\d+\): not followed/,
      )
      expect(seen, 'the other origin got a request').toEqual([])
    } finally {
      await new Promise((resolve) => elsewhere.close(resolve))
    }
  })
})
