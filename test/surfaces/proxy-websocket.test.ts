import { once } from 'node:events'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { WebSocket, WebSocketServer, type RawData } from 'ws'
import { parseProxyArgs, proxy } from '../../src/cli/proxy.js'
import { specPath } from '../../src/core/package-root.js'
import type { Report } from '../../src/core/report.js'
import type { Har, HarEntry } from '../../src/har/types.js'
import { faultByName } from '../../src/reference/faults/index.js'
import type { FaultName } from '../../src/reference/fault-names.js'
import { startReferenceServer } from '../../src/reference/server.js'
import { REFERENCE_PROFILE_FILE } from '../../src/runner/profile-of-run.js'
import { MESSAGES_RECORDED } from '../../src/traffic/websocket-messages.js'
import { harValidator } from '../support/har-schema.js'
import { captureOutput } from '../support/output.js'
import { reportValidator } from '../support/report-schema.js'
import { readerViews } from '../support/secret-encoders.js'

const API_KEY = 'ws-proxy-test-key-4f1c9a'
const RECEIPT = 'rcpt_7Qx2LmN9vB4kZ1sD'

interface Finished {
  report: Report
  har: Har
  files: { where: string; text: string }[]
}

/**
 * The proxy command in this process, forwarding to upstream, with args added (--profile); stop() ends it as a signal
 * would, and reads its files.
 */
async function startProxy(upstream: string, args: string[] = []): Promise<{ url: string; stop(): Promise<Finished> }> {
  const dir = mkdtempSync(join(tmpdir(), 'ipts-proxy-ws-'))
  const { out, restore } = captureOutput()
  const stop = new AbortController()
  const exited = proxy(parseProxyArgs(['--upstream', upstream, '--report-dir', dir, ...args]), {}, stop.signal)
  await vi.waitFor(() => expect(out.join('')).toContain('\n'), { timeout: 10_000 })
  const { url } = JSON.parse(out.join('').split('\n')[0]!) as { url: string }
  return {
    url,
    async stop() {
      stop.abort()
      await exited
      restore()
      const read = (name: string) => readFileSync(join(dir, name), 'utf8')
      return {
        report: JSON.parse(read('report.json')) as Report,
        har: JSON.parse(read('exchanges.har')) as Har,
        files: readdirSync(dir).map((where) => ({ where, text: read(where) })),
      }
    },
  }
}

const servers: { close(): unknown }[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) server.close()
  vi.restoreAllMocks()
})

/** A ws server on 127.0.0.1 that answers each message as `echo:` + it, as text or binary as it came. */
async function echoingServer(options: { perMessageDeflate?: boolean } = {}): Promise<{ url: string; seen: string[] }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, ...options })
  servers.push(server)
  await once(server, 'listening')
  const seen: string[] = []
  server.on('connection', (socket) => {
    socket.on('message', (data: RawData, isBinary) => {
      seen.push(String(data))
      socket.send(isBinary ? Buffer.concat([Buffer.from('echo:'), data as Buffer]) : `echo:${String(data)}`, {
        binary: isBinary,
      })
    })
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

/** Opens a ws client through the proxy, sends each message in turn, waiting for its answer, and closes. */
async function converse(url: string, messages: (string | Buffer)[], headers: Record<string, string> = {}) {
  const client = new WebSocket(url.replace(/^http/, 'ws'), { headers })
  await once(client, 'open')
  const answers: string[] = []
  for (const message of messages) {
    client.send(message)
    const [data] = (await once(client, 'message')) as [RawData]
    answers.push(String(data))
  }
  client.close(1000, 'done')
  await once(client, 'close')
  return answers
}

function upgradeEntry(har: Har): HarEntry {
  const entries = har.log.entries.filter((entry) => entry.response.status === 101)
  expect(entries).toHaveLength(1)
  return entries[0]!
}

function expectNoSecret(files: Finished['files'], secrets: readonly string[]): void {
  for (const { where, text } of files)
    for (const secret of secrets) expect(text.includes(secret), `a key or receipt in ${where}`).toBe(false)
}

describe('the proxy and WebSocket upgrades', () => {
  test.each([
    ['without an extension', false],
    ['with permessage-deflate', true],
  ])(
    'passes the messages both ways unchanged (%s), and the HAR holds them in order, typed as Chromium types them',
    async (_, perMessageDeflate) => {
      const upstream = await echoingServer({ perMessageDeflate })
      const proxied = await startProxy(upstream.url)
      const sent = ['first', 'second: ünïcode', Buffer.from([0, 1, 2, 255])]
      const answers = await converse(`${proxied.url}/v1/stream?topic=a`, sent, { 'x-api-key': API_KEY })
      expect(upstream.seen, 'the server got what the client sent').toEqual(sent.map(String))
      expect(answers, 'the client got what the server answered').toEqual(sent.map((m) => `echo:${String(m)}`))
      const { report, har, files } = await proxied.stop()
      const entry = upgradeEntry(har)
      expect(entry.request.url).toMatch(/\/v1\/stream\?topic=a$/)
      expect(entry.request.headers).toContainEqual({ name: 'x-api-key', value: '$IPTS_API_KEY' })
      expect(entry._webSocketMessages!.map(({ type, opcode, data }) => ({ type, opcode, data }))).toEqual([
        { type: 'send', opcode: 1, data: 'first' },
        { type: 'receive', opcode: 1, data: 'echo:first' },
        { type: 'send', opcode: 1, data: 'second: ünïcode' },
        { type: 'receive', opcode: 1, data: 'echo:second: ünïcode' },
        { type: 'send', opcode: 2, data: Buffer.from([0, 1, 2, 255]).toString('base64') },
        { type: 'receive', opcode: 2, data: Buffer.from([...Buffer.from('echo:'), 0, 1, 2, 255]).toString('base64') },
        { type: 'send', opcode: 8, data: '1000 done' },
        { type: 'receive', opcode: 8, data: '1000 done' },
      ])
      const times = entry._webSocketMessages!.map(({ time }) => time)
      expect(times, 'seconds since the epoch, in order').toEqual([...times].sort((a, b) => a - b))
      expect(times[0]! * 1000).toBeGreaterThanOrEqual(Date.parse(entry.startedDateTime))
      expect(entry.comment, 'nothing left out').toBeUndefined()
      const validHar = harValidator()
      expect(validHar(har), JSON.stringify(validHar.errors?.slice(0, 3))).toBe(true)
      expect(report.traffic?.channels).toEqual({ opened: 1, messages: 8 })
      const validReport = reportValidator()
      expect(validReport(report), JSON.stringify(validReport.errors?.slice(0, 3))).toBe(true)
      expectNoSecret(files, [API_KEY])
    },
  )

  test("a receipt in the upgrade's URL is a finding with the request, and appears nowhere but as its placeholder, in the messages either", async () => {
    const upstream = await echoingServer()
    const proxied = await startProxy(upstream.url)
    await converse(`${proxied.url}/v1/channels/intent:42?receipt=${RECEIPT}`, [
      `{"open":"intent:42","receipt":"${RECEIPT}"}`,
      Buffer.from(RECEIPT),
    ])
    const { report, har, files } = await proxied.stop()
    const breaches = report.traffic?.clientRuleBreaches ?? []
    expect(breaches.map(({ requirement }) => requirement)).toEqual(['RCPT-HANDLING'])
    expect(breaches[0]!.message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/channels\/intent:42\?receipt=\$IPTS_INTENT_RECEIPT /,
    )
    expect(breaches[0]!.message).toContain('"not placed in a public URL"')
    const messages = upgradeEntry(har)._webSocketMessages!
    expect(messages[0]!.data).toBe('{"open":"intent:42","receipt":"$IPTS_INTENT_RECEIPT"}')
    for (const { data } of messages)
      for (const view of readerViews(data)) expect(view.includes(RECEIPT), `the receipt in ${data}`).toBe(false)
    expectNoSecret(files, [RECEIPT])
  })

  test("judges a channel's messages against --profile's realtime section: under channel-event-kind-unlisted its snapshot event fails realtime/messages-as-stated, named; the plain reference passes; the receipt only in the message is still redacted", async () => {
    /** Through the proxy: a ticket, the WebSocket, subscribing to an intent's channel with its receipt, 2 answers */
    const channelThroughProxy = async (faults: FaultName[]) => {
      const reference = await startReferenceServer({ behaviours: faults.map((name) => faultByName(name)!) })
      servers.push(reference)
      const proxied = await startProxy(reference.baseUrl, ['--profile', specPath(REFERENCE_PROFILE_FILE)])
      const [intent] = reference.data.intents
      const channel = `intent:${intent!.hash}`
      const issued = await request(`${proxied.url}/v1/realtime/tickets`, {
        method: 'POST',
        headers: { 'x-api-key': reference.data.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ channel }),
      })
      expect(issued.statusCode).toBe(201)
      const { ticket } = ((await issued.body.json()) as { data: { ticket: string } }).data
      const client = new WebSocket(`${proxied.url.replace(/^http/, 'ws')}/v1/realtime?ticket=${ticket}`)
      await once(client, 'open')
      const received: { type: string; kind?: string }[] = []
      const twoAnswers = new Promise<void>((resolve) =>
        client.on('message', (data: RawData) => received.push(JSON.parse(String(data))) === 2 && resolve()),
      )
      client.send(JSON.stringify({ type: 'subscribe', channel, receipt: intent!.receipt }))
      await twoAnswers
      client.close(1000, 'done')
      await once(client, 'close')
      const finished = await proxied.stop()
      const outcome = (id: string) => finished.report.checks.find((check) => check.id === id)
      expectNoSecret(finished.files, [reference.data.apiKey, intent!.receipt])
      const subscribe = upgradeEntry(finished.har)._webSocketMessages![0]!
      expect(JSON.parse(subscribe.data)).toEqual({ type: 'subscribe', channel, receipt: '$IPTS_INTENT_RECEIPT' })
      expect(outcome('realtime/receipt-in-no-url')?.status, 'the receipt went in a message, not a URL').toBe('passed')
      return { received, messagesAsStated: outcome('realtime/messages-as-stated')! }
    }

    const faulty = await channelThroughProxy(['channel-event-kind-unlisted'])
    expect(faulty.received.map(({ type, kind }) => `${type} ${kind ?? ''}`)).toEqual(['subscribed ', 'event snapshot'])
    expect(faulty.messagesAsStated.status).toBe('failed')
    expect(faulty.messagesAsStated.reason).toMatch(
      /message 3 of the WebSocket, ".*\\"kind\\":\\"snapshot\\".*", is an event of kind "snapshot" at \/kind, not one of the kinds the profile states/,
    )
    const plain = await channelThroughProxy([])
    expect(plain.received.map(({ type }) => type)).toEqual(['subscribed', 'event'])
    expect(plain.messagesAsStated.status, plain.messagesAsStated.reason).toBe('passed')
  })

  test('an upgrade the upstream refuses reaches the client as the upstream answered it, and is recorded as an exchange', async () => {
    const upstream = new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      verifyClient: (_, verdict) => verdict(false, 403, 'Forbidden', { 'x-refusal': 'no ticket' }),
    })
    servers.push(upstream)
    await once(upstream, 'listening')
    const proxied = await startProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`)
    const client = new WebSocket(`${proxied.url.replace(/^http/, 'ws')}/v1/stream`)
    client.on('error', () => undefined)
    const [, response] = (await once(client, 'unexpected-response')) as [unknown, IncomingMessage]
    let body = ''
    for await (const chunk of response) body += String(chunk)
    expect(response.statusCode).toBe(403)
    expect(response.headers['x-refusal']).toBe('no ticket')
    expect(body).toBe('Forbidden')
    client.terminate()
    const { report, har } = await proxied.stop()
    expect(har.log.entries.map((entry) => entry.response.status)).toEqual([403])
    expect(report.traffic).toMatchObject({ exchanges: 1 })
    expect(report.traffic?.channels).toBeUndefined()
  })

  test('an upgrade the upstream does not answer gets the client a 502 with an error body; a channel still open when the proxy stops is closed and recorded', async () => {
    const closed = createServer()
    closed.listen(0, '127.0.0.1')
    await once(closed, 'listening')
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const unanswered = await startProxy(`http://127.0.0.1:${port}`)
    const refused = new WebSocket(`${unanswered.url.replace(/^http/, 'ws')}/v1/stream`)
    refused.on('error', () => undefined)
    const [, response] = (await once(refused, 'unexpected-response')) as [unknown, IncomingMessage]
    let body = ''
    for await (const chunk of response) body += String(chunk)
    expect(response.statusCode).toBe(502)
    expect(JSON.parse(body)).toMatchObject({
      code: 'upstream_unreachable',
      error: expect.stringContaining('ECONNREFUSED'),
    })
    const { report } = await unanswered.stop()
    expect(report.errors.join('\n')).toMatch(/the upstream did not answer 1 request/)

    const upstream = await echoingServer()
    const proxied = await startProxy(upstream.url)
    const client = new WebSocket(proxied.url.replace(/^http/, 'ws'))
    await once(client, 'open')
    client.send('still open')
    await once(client, 'message')
    const clientClosed = once(client, 'close')
    const { har } = await proxied.stop()
    await clientClosed
    expect(upgradeEntry(har)._webSocketMessages!.map(({ type, data }) => `${type} ${data}`)).toEqual([
      'send still open',
      'receive echo:still open',
    ])
  })

  test('a client that half-closes its connection: the upstream is told, its answer still reaches the client, and the channel is recorded once both have closed', async () => {
    const upstream = await echoingServer()
    const proxied = await startProxy(upstream.url)
    const socket = connect(Number(new URL(proxied.url).port), '127.0.0.1')
    await once(socket, 'connect')
    let received = ''
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')))
    socket.write(
      'GET /v1/stream HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    )
    await vi.waitFor(() => expect(received).toMatch(/^HTTP\/1\.1 101 /))
    // A text frame "hello", masked with a key of zeros, then the end of what the client sends.
    socket.end(Buffer.concat([Buffer.from([0x81, 0x85, 0, 0, 0, 0]), Buffer.from('hello')]))
    await once(socket, 'close')
    expect(received, "the server's answer came after the client had half-closed").toContain('echo:hello')
    const { har } = await proxied.stop()
    expect(upgradeEntry(har)._webSocketMessages!.map(({ type, data }) => `${type} ${data}`)).toEqual([
      'send hello',
      'receive echo:hello',
    ])
  })

  test('garbage frames either way and a flood cost the proxy bounded records and no crash: the tunnel goes on, the HAR says what it left out', async () => {
    // An upstream that upgrades anything and then writes garbage and closes, echoing nothing.
    const raw: Server = createServer((_, res) => res.writeHead(404).end())
    raw.on('upgrade', (_, socket: Socket) => {
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n')
      socket.write(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x13, 0x37]))
      socket.on('data', (chunk) => socket.write(chunk))
    })
    servers.push(raw)
    raw.listen(0, '127.0.0.1')
    await once(raw, 'listening')
    const proxied = await startProxy(`http://127.0.0.1:${(raw.address() as AddressInfo).port}`)
    const { port } = new URL(proxied.url)
    const socket = connect(Number(port), '127.0.0.1')
    await once(socket, 'connect')
    socket.write(
      'GET /v1/stream HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    )
    let received = Buffer.alloc(0)
    socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])))
    // Unmasked frames from a client are a protocol error: garbage to the server's parser; the bytes still go through.
    const garbage = Buffer.concat([Buffer.from([0x81, 0x05]), Buffer.from('hello')])
    socket.write(garbage)
    await vi.waitFor(() => expect(received.includes(garbage), 'the garbage came back through the tunnel').toBe(true))
    expect(received.includes(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x13, 0x37]))).toBe(true)
    socket.destroy()
    const answer = await request(`${proxied.url}/v1/config`)
    await answer.body.text()
    expect(answer.statusCode, 'the proxy still answers').toBe(404)

    // A flood: more messages than a channel records.
    const upstream = await echoingServer()
    const floodProxy = await startProxy(upstream.url)
    const flood = Array.from({ length: MESSAGES_RECORDED + 50 }, (_, i) => `m${i}`)
    const client = new WebSocket(floodProxy.url.replace(/^http/, 'ws'))
    await once(client, 'open')
    let echoed = 0
    const all = new Promise<void>((resolve) => client.on('message', () => ++echoed === flood.length && resolve()))
    for (const message of flood) client.send(message)
    await all
    client.close()
    await once(client, 'close')
    const garbled = await proxied.stop()
    const flooded = await floodProxy.stop()

    const unread = upgradeEntry(garbled.har)
    expect(unread._webSocketMessages).toEqual([])
    expect(unread.comment).toMatch(/the client's frames were not read on: .*MASK/i)
    expect(unread.comment).toMatch(/the server's frames were not read on: /)
    const recorded = upgradeEntry(flooded.har)
    expect(recorded._webSocketMessages).toHaveLength(MESSAGES_RECORDED)
    expect(recorded._webSocketMessages![0]).toMatchObject({ type: 'send', data: 'm0' })
    expect(recorded.comment).toBe(
      `${2 * flood.length + 2 - MESSAGES_RECORDED} messages past the first ${MESSAGES_RECORDED} (or past ${4 * 1024 * 1024} bytes) not recorded`,
    )
    expect(flooded.report.traffic?.channels).toEqual({ opened: 1, messages: MESSAGES_RECORDED })
  })
})
