import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, onTestFinished, test } from 'vitest'
import { HttpClient } from '../../src/http/client.js'
import { defaultRetryPolicy } from '../../src/http/retry.js'
import { answering } from '../support/hostile-servers.js'

/** One attempt as the server received it: the bytes of the body and the key, in full. */
interface Received {
  method: string
  key: string | undefined
  body: string
}

type Answer = (response: ServerResponse, request: IncomingMessage) => void

/** A server on 127.0.0.1 that reads each request whole, records it, and answers it with the next scripted answer. */
async function scriptedServer(answers: Answer[]): Promise<{ baseUrl: string; received: Received[] }> {
  const received: Received[] = []
  const server = createServer(
    answering(async (request, response) => {
      const chunks: Buffer[] = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      received.push({
        method: request.method ?? '',
        key: request.headers['idempotency-key'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      })
      const answer = answers[Math.min(received.length, answers.length) - 1]!
      answer(response, request)
    }),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))))
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received }
}

const json =
  (status: number, headers: Record<string, string> = {}): Answer =>
  (response) => {
    response.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'scripted-1', ...headers })
    response.end(status < 300 ? '{"data":{"id":"w1"}}' : '{"error":"scripted"}')
  }
/**
 * The request was read in full, then the connection is cut without an answer: the client cannot know whether it was
 * taken.
 */
const resetAfterReading: Answer = (_, request) => request.socket.destroy()
const neverAnswer: Answer = () => undefined

function client(baseUrl: string, requestTimeoutMs = 5000): HttpClient {
  const http = new HttpClient({
    baseUrl,
    concurrency: 2,
    connectTimeoutMs: 2000,
    requestTimeoutMs,
    maxBodyBytes: 1 << 20,
    retryPolicy: { ...defaultRetryPolicy, backoffBaseMs: 20, backoffCapMs: 50 },
  })
  onTestFinished(() => http.close())
  return http
}

const WRITE = {
  method: 'POST',
  path: '/v1/intents',
  body: '{"kind":"intent","nonce":"1","signature":"0xab"}',
  headers: { 'content-type': 'application/json', 'idempotency-key': 'key-0123456789' },
}

describe('a write sent by the suite (ERR-CLIENT-RETRY, IDEM-SAME-BODY)', () => {
  test('after a connection cut once the request was read, and after a 503, is sent again only with its original body and key, waiting out Retry-After', async () => {
    const { baseUrl, received } = await scriptedServer([
      resetAfterReading,
      json(503, { 'retry-after': '1' }),
      json(202),
    ])
    const exchange = await client(baseUrl).request(WRITE)
    expect(exchange.response?.status).toBe(202)
    expect(received, 'every attempt the server received').toEqual(
      Array.from({ length: 3 }, () => ({ method: 'POST', key: WRITE.headers['idempotency-key'], body: WRITE.body })),
    )
    expect(
      exchange.retries.map((r) => r.status),
      'the attempts: no response, then the 503',
    ).toEqual([0, 503])
    expect(exchange.retries[1]!.waitedMs, 'Retry-After: 1 waited out').toBeGreaterThanOrEqual(1000)
    expect(exchange.request.body).toBe(WRITE.body)
  })

  test('after a timeout is sent again once, as it was, and then given up', async () => {
    const { baseUrl, received } = await scriptedServer([neverAnswer])
    const exchange = await client(baseUrl, 300).request(WRITE)
    expect(exchange.error?.code).toBe('TIMEOUT')
    expect(received, 'the write and its one retry').toEqual([
      { method: 'POST', key: WRITE.headers['idempotency-key'], body: WRITE.body },
      { method: 'POST', key: WRITE.headers['idempotency-key'], body: WRITE.body },
    ])
  })

  test('after a 429 is sent again as it was; after a 502 it is not sent again, though a safe read is', async () => {
    const limited = await scriptedServer([json(429, { 'retry-after': '1', 'x-ratelimit-scope': 'api-key' }), json(202)])
    expect((await client(limited.baseUrl).request(WRITE)).response?.status).toBe(202)
    expect(limited.received.map((r) => `${r.key} ${r.body}`)).toEqual([
      `${WRITE.headers['idempotency-key']} ${WRITE.body}`,
      `${WRITE.headers['idempotency-key']} ${WRITE.body}`,
    ])

    const failing = await scriptedServer([json(502), json(202)])
    const write = await client(failing.baseUrl).request(WRITE)
    expect(write.response?.status, 'the 502 is the answer').toBe(502)
    expect(failing.received).toHaveLength(1)
    const read = await client(failing.baseUrl).get({ path: '/v1/config' })
    expect(read.response?.status, 'a read after the 502 is retried').toBe(202)
  })

  test('a refusal (4xx) is never retried, with the same key or another', async () => {
    const { baseUrl, received } = await scriptedServer([json(400), json(202)])
    expect((await client(baseUrl).request(WRITE)).response?.status).toBe(400)
    expect(received).toHaveLength(1)
  })
})
