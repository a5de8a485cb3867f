import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { main } from '../../src/cli/main.js'
import { runConformance } from '../../src/runner/run.js'
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js'
import { captureOutput } from '../support/output.js'
import { startTlsServer } from '../support/tls-server.js'

/** A folder no one may create, root included (sysfs): the report folder a run could not write. */
const UNWRITABLE = '/sys/ipts-reports'
const onLinux = process.platform === 'linux'

let reference: ReferenceServer
let tls: Awaited<ReturnType<typeof startTlsServer>>
let tlsPort: number
const seen: string[] = []

beforeAll(async () => {
  reference = await startReferenceServer({
    behaviours: [
      { name: 'count', description: 'counts the requests', onResponse: (_, request) => void seen.push(request.path) },
    ],
  })
  tls = await startTlsServer()
  tlsPort = tls.port
})

afterAll(async () => {
  await reference.close()
  await tls.close()
})

async function cli(argv: string[]): Promise<{ code: number; out: string; lines: string[] }> {
  const { out, err } = captureOutput()
  const code = await main(argv, {})
  vi.restoreAllMocks()
  return { code, out: out.join(''), lines: err.join('').trimEnd().split('\n') }
}

const reportDir = () => mkdtempSync(join(tmpdir(), 'ipts-preflight-'))
const port = () => new URL(reference.baseUrl).port

/** A run with a key the reference does not know, its reports to dir. */
const runWithUnknownKey = (dir: string) =>
  cli(['--base-url', reference.baseUrl, '--api-key', 'not-a-key-of-this-deployment', '--report-dir', dir])

/** The command (a run, or doctor) given https:// for the reference's plain-HTTP port: exit 2, the one line naming it. */
async function expectHttpsRefused(command: string[]): Promise<void> {
  const { code, out, lines } = await cli([
    ...command,
    '--base-url',
    reference.baseUrl.replace('http:', 'https:'),
    '--api-key',
    reference.data.apiKey,
    '--report-dir',
    reportDir(),
  ])
  expect(code).toBe(2)
  expect(out).toBe('')
  expect(lines).toEqual([
    `ipts-conformance: --base-url: https:// but the server at 127.0.0.1:${port()} speaks plain HTTP; use http://`,
  ])
}

describe('the preflight names what would otherwise be blamed on the deployment: exit 2, one line each, no check run', () => {
  test('https:// against a plain-HTTP port', async () => {
    await expectHttpsRefused([])
  })

  test('http:// against a TLS port', async () => {
    const { code, lines } = await cli([
      '--base-url',
      `http://127.0.0.1:${tlsPort}`,
      '--api-key',
      'any-key',
      '--report-dir',
      reportDir(),
    ])
    expect(code).toBe(2)
    expect(lines).toEqual([
      `ipts-conformance: --base-url: http:// but the server at 127.0.0.1:${tlsPort} speaks TLS; use https://`,
    ])
  })

  test('a key the deployment refuses everywhere is named, and only the three probes reached it', async () => {
    seen.length = 0
    const dir = reportDir()
    const { code, lines } = await runWithUnknownKey(dir)
    expect(code).toBe(2)
    expect(lines).toEqual([
      'ipts-conformance: --api-key: the target refused the key with 401 on every operation the preflight read (GET /v1/config, /v1/vault, /v1/markets): check the key and that it belongs to this deployment',
    ])
    expect(seen.sort()).toEqual(['/v1/config', '/v1/markets', '/v1/vault'])
    expect(readdirSync(dir), 'no report: nothing was judged').toEqual([])
  })

  test.skipIf(!onLinux)(
    'an unwritable report folder is named before the first request, with every other problem at once',
    async () => {
      seen.length = 0
      const { code, lines } = await runWithUnknownKey(UNWRITABLE)
      expect(code).toBe(2)
      expect(lines).toEqual([
        `ipts-conformance: the report folder ${UNWRITABLE} cannot be written (EPERM): the reports would be lost after the run`,
        expect.stringMatching(/^ipts-conformance: --api-key: the target refused the key with 401 on every operation/),
      ])
    },
  )

  test('a dead target is named at once', async () => {
    const { code, lines } = await cli([
      '--base-url',
      'http://127.0.0.1:9',
      '--api-key',
      'any-key',
      '--report-dir',
      reportDir(),
    ])
    expect(code).toBe(2)
    expect(lines).toEqual(['ipts-conformance: target http://127.0.0.1:9 is unreachable (ECONNREFUSED)'])
  })

  test('through the API: one UsageError naming the key, before any check', async () => {
    seen.length = 0
    const error = await runConformance({
      settings: { baseUrl: reference.baseUrl, apiKey: 'not-a-key-of-this-deployment' },
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({
      name: 'UsageError',
      message: expect.stringMatching(/^--api-key: the target refused the key with 401 on every operation/),
    })
    expect(seen).toHaveLength(3)
  })
})

describe('doctor: the preflight alone', () => {
  test('exit 0 with what it found, against a deployment that accepts the key; no check is sent', async () => {
    seen.length = 0
    const dir = reportDir()
    const { code, out, lines } = await cli([
      'doctor',
      '--base-url',
      reference.baseUrl,
      '--api-key',
      reference.data.apiKey,
      '--report-dir',
      dir,
    ])
    expect(code, lines.join('\n')).toBe(0)
    expect(out.trimEnd().split('\n')).toEqual([
      `report folder ${dir}: writable`,
      expect.stringMatching(
        new RegExp(
          `^target ${reference.baseUrl}: answers \\(GET /v1/(config|vault|markets): 200, the key accepted\\)$`,
        ),
      ),
      'profile: none (the facts the contract leaves "not shown" are reported not assessable)',
      `ready: a run against ${reference.baseUrl} with these flags can start`,
    ])
    expect(out).not.toContain(reference.data.apiKey)
    expect(seen).toHaveLength(3)
    expect(readdirSync(dir), 'the probe file is removed').toEqual([])
  })

  test('exit 2 with the one line a run would stop with', async () => {
    await expectHttpsRefused(['doctor'])
  })
})
