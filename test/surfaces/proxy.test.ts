import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { gunzipSync } from 'node:zlib'
import { chromium, type Browser } from 'playwright-core'
import { Client, request } from 'undici'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { main } from '../../src/cli/main.js'
import { parseProxyArgs, proxy } from '../../src/cli/proxy.js'
import { operations } from '../../src/contract/operations.js'
import type { Har } from '../../src/har/types.js'
import { allowanceByName } from '../../src/reference/allowances/index.js'
import { faultByName } from '../../src/reference/faults/index.js'
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js'
import type { RefRequest } from '../../src/reference/types.js'
import type { Report } from '../../src/core/report.js'
import {
  CHROMIUM,
  chromiumSkipReason,
  LAUNCH_ARGS,
  recordBrowserTraffic,
  referenceOperationPaths,
} from '../support/browser.js'
import { specPath } from '../../src/core/package-root.js'
import { notAssessableWithout } from '../../src/profile/profile.js'
import { REFERENCE_PROFILE_FILE } from '../../src/runner/profile-of-run.js'
import { answering } from '../support/hostile-servers.js'
import { harValidator } from '../support/har-schema.js'
import { captureOutput } from '../support/output.js'
import { reportValidator } from '../support/report-schema.js'
import { REPORTS_AND_HAR } from '../support/reports.js'
import { failureSummary, idsWithStatus } from '../support/run.js'

const run = promisify(execFile)
const CURL = '/usr/bin/curl'

interface ProxyRun {
  url: string
  /** Stops the proxy as a signal would; resolves with the exit code and what it wrote. */
  stop(): Promise<Finished>
  /** Resolves when the proxy stops by itself (--max-requests). */
  finished: Promise<Finished>
}

interface Finished {
  code: number
  out: string
  report: Report
  har: Har
  files: { where: string; text: string }[]
}

/** Starts the proxy command in this process; its stdout is captured, the first line read for the URL. */
async function startProxy(args: string[]): Promise<ProxyRun> {
  const dir = mkdtempSync(join(tmpdir(), 'ipts-proxy-'))
  const { out } = captureOutput()
  const stop = new AbortController()
  const exited = proxy(parseProxyArgs([...args, '--report-dir', dir]), {}, stop.signal)
  const finished = exited.then((code) => {
    vi.restoreAllMocks()
    const names = readdirSync(dir)
    return {
      code,
      out: out.join(''),
      report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report,
      har: JSON.parse(readFileSync(join(dir, 'exchanges.har'), 'utf8')) as Har,
      files: names.map((name) => ({ where: name, text: readFileSync(join(dir, name), 'latin1') })),
    }
  })
  await vi.waitFor(() => expect(out.join('')).toContain('\n'), { timeout: 10_000 })
  const { url } = JSON.parse(out.join('').split('\n')[0]!) as { url: string }
  return { url, finished, stop: () => (stop.abort(), finished) }
}

function curl(args: string[]): Promise<{ stdout: string }> {
  return run(CURL, ['-sS', ...args])
}

function expectNoSecret(files: Finished['files'], secrets: readonly string[]): void {
  for (const { where, text } of files)
    for (const secret of secrets) expect(text.includes(secret), `a key or receipt in ${where}`).toBe(false)
}

/** An upstream that answers each request with what it received: method, path, headers and body. */
async function echoServer(): Promise<{ url: string; server: Server }> {
  const server = createServer(
    answering(async (req, res) => {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'echo-server-1' })
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      )
    }),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe.skipIf(!existsSync(CURL) && !process.env.CI)('the proxy with curl', () => {
  let reference: ReferenceServer
  const seen: RefRequest[] = []

  beforeAll(async () => {
    reference = await startReferenceServer({
      behaviours: [
        {
          name: 'seen',
          description: 'records each request',
          onRequest: (request) => void seen.push({ ...request, headers: { ...request.headers } }),
        },
      ],
    })
  })

  afterAll(async () => {
    await reference?.close()
  })

  test('forwards each request unchanged, X-API-Key included, and answers what the upstream answered; the reports follow on stop', async () => {
    const proxy = await startProxy(['--upstream', reference.baseUrl])
    const paths = referenceOperationPaths(reference)
    const through = await Promise.all(
      paths.map((path) =>
        curl([
          '-i',
          '-H',
          `X-API-Key: ${reference.data.apiKey}`,
          '-H',
          'X-Request-ID: curl-request.1',
          `${proxy.url}${path}`,
        ]),
      ),
    )
    const direct = await Promise.all(
      paths.map((path) =>
        curl([
          '-H',
          `X-API-Key: ${reference.data.apiKey}`,
          '-H',
          'X-Request-ID: curl-request.1',
          `${reference.baseUrl}${path}`,
        ]),
      ),
    )
    through.forEach(({ stdout }, i) => {
      expect(stdout, paths[i]).toMatch(/^HTTP\/1\.1 200 /)
      expect(stdout.slice(stdout.indexOf('\r\n\r\n') + 4), `${paths[i]}: the body the upstream answered`).toBe(
        direct[i]!.stdout,
      )
    })
    const forwarded = seen.filter((r) => r.headers['x-request-id'] === 'curl-request.1').slice(0, paths.length)
    for (const r of forwarded)
      expect(r.headers['x-api-key'], `${r.path}: the key reached the upstream`).toBe(reference.data.apiKey)
    const { code, report, har, files } = await proxy.stop()
    expect(code, failureSummary(report)).toBe(0)
    expect(report.traffic).toMatchObject({ source: 'proxy', exchanges: paths.length, judged: paths.length })
    const validReport = reportValidator()
    expect(validReport(report), JSON.stringify(validReport.errors?.slice(0, 3))).toBe(true)
    expect(har.log.entries).toHaveLength(paths.length)
    const validate = harValidator()
    expect(validate(har), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true)
    expect(files.map((f) => f.where).sort()).toEqual(REPORTS_AND_HAR)
    expectNoSecret(files, [reference.data.apiKey, ...reference.data.intents.map((i) => i.receipt)])
    expect(har.log.entries[0]!.request.headers.find((h) => h.name === 'x-api-key')?.value).toBe('$IPTS_API_KEY')
    const markets = har.log.entries.find((entry) => new URL(entry.request.url).pathname === '/v1/markets')!
    expect(JSON.parse(markets.response.content.text!).data, 'the members the contract names, kept as they are').toEqual(
      expect.arrayContaining([expect.objectContaining({ id: expect.any(String) })]),
    )
  })

  test('forwards method, headers and body as they are, and streams the response', async () => {
    const echo = await echoServer()
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const streaming = createServer(
      answering(async (_, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'stream-server-1' })
        res.write('{"data":"first part ')
        await released
        res.end('and the rest"}')
      }),
    )
    await new Promise<void>((resolve) => streaming.listen(0, '127.0.0.1', resolve))
    const proxyToEcho = await startProxy(['--upstream', echo.url])
    try {
      const { stdout } = await curl([
        '-X',
        'POST',
        '-H',
        'X-API-Key: a-key-for-the-echo',
        '-H',
        'X-Custom: one',
        '-H',
        'content-type: application/json',
        '--data',
        '{"order":1}',
        `${proxyToEcho.url}/v1/anything?q=1`,
      ])
      const echoed = JSON.parse(stdout) as {
        method: string
        url: string
        headers: Record<string, string>
        body: string
      }
      expect(echoed).toMatchObject({ method: 'POST', url: '/v1/anything?q=1', body: '{"order":1}' })
      expect(echoed.headers).toMatchObject({
        'x-api-key': 'a-key-for-the-echo',
        'x-custom': 'one',
        'content-type': 'application/json',
      })
      const finished = await proxyToEcho.stop()
      expect(finished.report.traffic).toMatchObject({ exchanges: 1, otherV1: 1, judged: 0 })

      const proxyToStream = await startProxy([
        '--upstream',
        `http://127.0.0.1:${(streaming.address() as AddressInfo).port}`,
      ])
      const answer = await request(`${proxyToStream.url}/v1/config`)
      const reader = answer.body[Symbol.asyncIterator]()
      const first = await reader.next()
      expect(String(first.value), 'the first part arrived while the upstream still held the rest').toBe(
        '{"data":"first part ',
      )
      release()
      let rest = ''
      for (let next = await reader.next(); !next.done; next = await reader.next()) rest += String(next.value)
      expect(rest).toBe('and the rest"}')
      await proxyToStream.stop()
    } finally {
      release()
      echo.server.close()
      streaming.close()
    }
  })

  test('answers a request it cannot parse with 400, forwards nothing, and counts it in the report', async () => {
    const seen: string[] = []
    const recording = await startReferenceServer({
      behaviours: [
        { name: 'record', description: 'records', onResponse: (_, request) => void seen.push(request.path) },
      ],
    })
    try {
      const proxy = await startProxy(['--upstream', recording.baseUrl])
      const { port } = new URL(proxy.url)
      for (const raw of [
        'GARBAGE REQUEST LINE\r\n\r\n',
        'GET /v1/config HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n',
      ]) {
        const answer = await new Promise<string>((resolve) => {
          const socket = connect(Number(port), '127.0.0.1', () => socket.write(raw))
          let text = ''
          socket.on('data', (chunk) => (text += chunk))
          socket.on('close', () => resolve(text))
        })
        expect(answer).toMatch(/^HTTP\/1\.1 400 /)
      }
      const { report } = await proxy.stop()
      expect(seen, 'nothing was forwarded').toEqual([])
      expect(report.traffic?.malformedRequests).toBe(2)
      expect(reportValidator()(report), 'valid against specs/report.schema.json').toBe(true)
    } finally {
      await recording.close()
    }
  })

  test('ends as a run does (the run session): --baseline names a check fixed since a previous report, and the verdict is painted on a terminal', async () => {
    const reference = await startReferenceServer()
    const baseline = join(mkdtempSync(join(tmpdir(), 'ipts-proxy-baseline-')), 'report.json')
    writeFileSync(baseline, JSON.stringify({ checks: [{ id: 'shapes/vault-members', status: 'failed' }] }))
    const terminal = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY')
    Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true })
    try {
      const proxy = await startProxy(['--upstream', reference.baseUrl, '--max-requests', '1', '--baseline', baseline])
      await curl(['-H', `X-API-Key: ${reference.data.apiKey}`, `${proxy.url}/v1/vault`])
      const { code, out, report } = await proxy.finished
      expect(code).toBe(0)
      expect(report.checks.find((c) => c.id === 'shapes/vault-members')?.status).toBe('passed')
      expect(out).toMatch(/^\x1b\[32mPASS\x1b\[0m: /m)
      expect(out).toMatch(/^ {2}fixed 1: shapes\/vault-members$/m)
    } finally {
      if (terminal) Object.defineProperty(process.stdout, 'isTTY', terminal)
      else delete (process.stdout as { isTTY?: boolean }).isTTY
      await reference.close()
    }
  })

  test('stops by itself after --max-requests, and exits 1 when what it forwarded breaks a MUST', async () => {
    const faulty = await startReferenceServer({ behaviours: [faultByName('vault-updated-block-as-number')!] })
    try {
      const proxy = await startProxy(['--upstream', faulty.baseUrl, '--max-requests', '2'])
      await curl(['-H', `X-API-Key: ${faulty.data.apiKey}`, `${proxy.url}/v1/vault`])
      await curl(['-H', `X-API-Key: ${faulty.data.apiKey}`, `${proxy.url}/v1/config`])
      const { code, report } = await proxy.finished
      expect(code).toBe(1)
      expect(report.traffic?.exchanges).toBe(2)
      expect(idsWithStatus(report, 'failed')).toEqual(['shapes/vault-members'])
    } finally {
      await faulty.close()
    }
  })

  test("passes a gzip'd response to its client unchanged, and judges it decoded; the HAR records the decoded text beside the headers as sent", async () => {
    const gzipping = await startReferenceServer({ behaviours: [allowanceByName('always-gzip')!] })
    try {
      const proxy = await startProxy(['--upstream', gzipping.baseUrl, '--max-requests', '1'])
      const answer = await request(`${proxy.url}/v1/vault`, { headers: { 'x-api-key': gzipping.data.apiKey } })
      const sent = Buffer.from(await answer.body.arrayBuffer())
      expect(answer.headers['content-encoding']).toBe('gzip')
      expect(Number(answer.headers['content-length']), 'the bytes as the upstream sent them').toBe(sent.length)
      expect(JSON.parse(gunzipSync(sent).toString())).toHaveProperty('data')
      const { code, report, har } = await proxy.finished
      expect(code, failureSummary(report)).toBe(0)
      expect(report.traffic).toMatchObject({ exchanges: 1, judged: 1 })
      const { content, headers } = har.log.entries[0]!.response
      expect(headers).toContainEqual({ name: 'content-encoding', value: 'gzip' })
      expect(JSON.parse(content.text!)).toHaveProperty('data')
      expect(content.compression).toBe(content.size - sent.length)
    } finally {
      await gzipping.close()
    }
  })

  test('holds each exchange to --profile: a market status the profile does not list fails its rule, which is not assessable without it', async () => {
    const faulty = await startReferenceServer({ behaviours: [faultByName('market-status-halted')!] })
    const judged = async (profileArgs: string[]) => {
      const proxy = await startProxy(['--upstream', faulty.baseUrl, '--max-requests', '1', ...profileArgs])
      await curl(['-H', `X-API-Key: ${faulty.data.apiKey}`, `${proxy.url}/v1/markets`])
      return proxy.finished
    }
    try {
      const held = await judged(['--profile', specPath(REFERENCE_PROFILE_FILE)])
      expect(held.code).toBe(1)
      expect(idsWithStatus(held.report, 'failed')).toEqual(['every-response/market-status-listed'])
      const without = await judged([])
      expect(without.code).toBe(0)
      expect(without.report.checks.find((c) => c.id === 'every-response/market-status-listed')).toMatchObject({
        status: 'skipped',
        reason: notAssessableWithout('marketStatuses'),
      })
    } finally {
      await faulty.close()
    }
  })

  test('answers 502 with an error body when the upstream does not answer, and the report says so', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const proxy = await startProxy(['--upstream', `http://127.0.0.1:${port}`])
    const { stdout } = await curl(['-i', `${proxy.url}/v1/config`])
    expect(stdout).toMatch(/^HTTP\/1\.1 502 /)
    expect(JSON.parse(stdout.slice(stdout.indexOf('\r\n\r\n') + 4))).toMatchObject({
      code: 'upstream_unreachable',
      error: expect.stringContaining('ECONNREFUSED'),
    })
    const { code, report, har } = await proxy.stop()
    expect(code).toBe(1)
    expect(report.errors.join('\n')).toMatch(
      /the upstream did not answer 1 request; the client got a 502 from the proxy/,
    )
    expect(har.log.entries[0]!.response.status, 'no response from the upstream, as Chromium records one').toBe(0)
  })
})

describe.skipIf(chromiumSkipReason)(
  `the proxy with Chromium${chromiumSkipReason ? ` (skipped: ${chromiumSkipReason})` : ''}`,
  () => {
    let browser: Browser

    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS })
    })

    afterAll(async () => {
      await browser?.close()
    })

    test('judges the operations Chromium loads through it from the reference', async () => {
      const reference = await startReferenceServer()
      try {
        const proxy = await startProxy(['--upstream', reference.baseUrl])
        await recordBrowserTraffic(
          browser,
          proxy.url,
          reference,
          join(mkdtempSync(join(tmpdir(), 'ipts-proxy-browser-')), 'browser.har'),
        )
        const { code, report, files } = await proxy.stop()
        expect(code, failureSummary(report)).toBe(0)
        expect(report.traffic?.judged, 'the navigation and every operation').toBe(operations().length + 1)
        expect(report.checks.find((c) => c.id === 'shapes/vault-members')?.status).toBe('passed')
        expectNoSecret(files, [reference.data.apiKey, ...reference.data.intents.map((i) => i.receipt)])
      } finally {
        await reference.close()
      }
    })
  },
)

describe('the proxy command', () => {
  test('judges the relations across the exchanges it forwards: an x-request-id given twice fails, with the connection of the second', async () => {
    // An upstream that gives every response the same request ID, as a replica whose counter restarted would.
    const upstream = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req-0000000000000001' })
      res.end('{"data":{}}')
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    const clients: Client[] = []
    try {
      const proxied = await startProxy(['--upstream', `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`])
      // Each request on a connection of its own: the proxy accepts the first, then the second.
      for (const path of ['/v1/config', '/v1/vault']) {
        const client = new Client(proxied.url)
        clients.push(client)
        const { body } = await client.request({ method: 'GET', path })
        await body.text()
      }
      for (const client of clients) await client.close()
      const { report, har } = await proxied.stop()
      const unique = report.checks.find((c) => c.id === 'relations/request-id-unique')!
      expect(unique.status, unique.reason).toBe('failed')
      expect(unique.samples).toEqual({ showed: 1, of: 2 })
      const { sample } = unique.evidence!
      expect(sample?.round, 'traffic no run made: round 0').toBe(0)
      expect(sample?.connection?.number, 'the second connection the proxy accepted').toBe(2)
      expect(unique.evidence!.request?.url).toMatch(/\/v1\/vault$/)
      // The HAR names each entry's connection by the client's port, as the report does.
      const [first, second] = har.log.entries
      expect(second!.connection).toBe(String(sample!.connection!.port))
      expect(first!.connection).not.toBe(second!.connection)
      expect(reportValidator()(report), 'valid against specs/report.schema.json').toBe(true)
    } finally {
      await Promise.all(clients.map((client) => client.destroy()))
      await new Promise((resolve) => upstream.close(resolve))
    }
  })

  test.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)(
    'on %s writes the reports and the HAR and exits %i, as a process the signal ended',
    async (signal, exitCode) => {
      const reference = await startReferenceServer()
      const dir = mkdtempSync(join(tmpdir(), 'ipts-proxy-signal-'))
      const { out } = captureOutput()
      try {
        const exited = main(['proxy', '--upstream', reference.baseUrl, '--report-dir', dir], {})
        await vi.waitFor(() => expect(out.join('')).toContain('\n'), { timeout: 10_000 })
        const { url } = JSON.parse(out.join('').split('\n')[0]!) as { url: string }
        expect(out.join('').split('\n')[0], 'one JSON line with the URL').toBe(JSON.stringify({ url }))
        await request(`${url}/v1/vault`, { headers: { 'x-api-key': reference.data.apiKey } }).then(({ body }) =>
          body.text(),
        )
        // Delivered to the listeners as the signal would be, without signalling the test process itself.
        process.emit(signal)
        expect(await exited).toBe(exitCode)
        expect(
          (JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report).summary.verdict,
          'the verdict of the traffic it judged',
        ).toBe('pass')
        expect(readdirSync(dir).sort()).toEqual(REPORTS_AND_HAR)
        expect(process.listenerCount(signal), 'the handler is removed once the proxy has stopped').toBe(0)
      } finally {
        vi.restoreAllMocks()
        await reference.close()
      }
    },
  )
})

describe('proxy usage', () => {
  test('without --upstream: exit 2 and one line', async () => {
    const { err } = captureOutput()
    expect(await main(['proxy'], {})).toBe(2)
    expect(err.join('')).toMatch(/^ipts-conformance: --upstream is required[^\n]*\n$/)
  })
})
