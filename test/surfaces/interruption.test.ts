import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { constants, tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { packageRoot } from '../../src/core/package-root.js'
import type { Report } from '../../src/core/report.js'
import { startReferenceServer } from '../../src/reference/server.js'
import { failureSummary, runAgainstReference } from '../support/run.js'
import { REPORTS_AND_HAR } from '../support/reports.js'
import { writeReports } from '../../reporters/write.js'
import { SOAK_ROUND } from '../../src/engine/resample.js'

const BIN = join(packageRoot, 'bin', 'ipts-conformance.js')

/** A deployment that answers every request, slowly, with an empty object; counts what it was sent. */
async function slowTarget(delayMs: number): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  let requests = 0
  const server: Server = createServer((_, response) => {
    requests++
    setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'), delayMs)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () => new Promise((resolve) => server.closeAllConnections() === undefined && server.close(() => resolve())),
  }
}

const readReport = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report

/** A report the signal interrupted: marked so, and each check it cut off not run with the signal as the reason. */
function expectInterrupted(report: Report, signal: 'SIGINT' | 'SIGTERM'): void {
  expect(report.interrupted?.by).toBe(signal)
  const notRun = report.checks.filter((c) => c.status === 'not run')
  expect(notRun.length, 'checks the signal cut off').toBeGreaterThan(0)
  for (const check of notRun) {
    expect(check.interrupted, check.id).toBe(true)
    expect(check.reason, check.id).toMatch(new RegExp(`^interrupted by ${signal}`))
  }
}

describe('a run interrupted by a signal, through the bin', () => {
  test.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: stops sending, writes every report marked interrupted, the checks not ended not run, and exits %i',
    async (signal, exitCode) => {
      const target = await slowTarget(200)
      const dir = mkdtempSync(join(tmpdir(), 'ipts-interrupted-'))
      try {
        const child = spawn(process.execPath, [BIN, '--base-url', target.url, '--report-dir', dir], {
          env: { PATH: process.env.PATH, IPTS_API_KEY: 'interrupted-run-key-0001' },
          stdio: ['ignore', 'pipe', 'pipe'],
        })
        let out = ''
        child.stdout.on('data', (chunk) => (out += chunk))
        child.stderr.on('data', (chunk) => (out += chunk))
        const exited = once(child, 'exit') as Promise<[number | null, string | null]>
        // Signalled once the checks are under way (their requests reach the target), as a user's Ctrl-C would be.
        await expect.poll(target.requests, { timeout: 30_000, interval: 50 }).toBeGreaterThan(10)
        child.kill(signal)
        const [code] = await exited
        expect(code, out).toBe(exitCode)
        expectInterrupted(readReport(dir), signal)
        expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain(`INTERRUPTED by ${signal} after `)
        expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain(
          `<property name="interrupted" value="INTERRUPTED by ${signal} after `,
        )
        expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain(`INTERRUPTED by ${signal} after `)
        expect(
          JSON.parse(readFileSync(join(dir, 'exchanges.har'), 'utf8')).log.entries.length,
          'the exchanges sent before the signal',
        ).toBeGreaterThan(0)
        expect(out).toMatch(
          new RegExp(`^INTERRUPTED by ${signal} after \\d+ of \\d+ checks: the verdict covers only what ran`, 'm'),
        )
      } finally {
        await target.close()
      }
    },
  )
})

describe('a soak interrupted by SIGINT, through the bin', () => {
  test('writes every report marked interrupted with the rounds it did, every check judged, and exits 130', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-soak-interrupted-'))
    // The embedded reference as target; a soak far longer than the test, at a pace that ends a round in seconds.
    const child = spawn(process.execPath, [BIN, '--duration', '2h', '--rate', '50', '--report-dir', dir], {
      env: { PATH: process.env.PATH, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.stderr.on('data', (chunk) => (out += chunk))
    const exited = once(child, 'exit') as Promise<[number | null, string | null]>
    // Signalled once two rounds are done, as a user's Ctrl-C would be.
    await expect.poll(() => out, { timeout: 240_000, interval: 100 }).toMatch(/^soak: round 2 done, /m)
    child.kill('SIGINT')
    const [code] = await exited
    expect(code, out).toBe(130)
    const report = readReport(dir)
    expect(report.interrupted?.by).toBe('SIGINT')
    expect(report.resampling).toMatchObject({ kind: 'soak' })
    const { rounds, requests, durationMs } = report.resampling!
    const reported = [...out.matchAll(/^soak: round (\d+) done, /gm)].map((match) => Number(match[1]))
    expect(rounds, 'the rounds done: those the console reported, and the one the signal cut').toBeGreaterThanOrEqual(
      Math.max(...reported),
    )
    expect(rounds).toBeLessThanOrEqual(Math.max(...reported) + 1)
    expect(report.resampling!.timeline?.at(-1)?.last, 'the timeline ends with the last round').toBe(rounds)
    expect(requests).toBeGreaterThan(0)
    expect(
      report.checks.filter((c) => c.status === 'not run').map((c) => c.id),
      'every check ended before the soak began',
    ).toEqual([])
    const line = `INTERRUPTED by SIGINT after ${report.checks.filter((c) => c.concern !== 'every-response').length} of ${report.checks.filter((c) => c.concern !== 'every-response').length} checks and ${rounds} soak rounds (${Math.round(durationMs / 1000)} s): the verdict covers only what ran (0 not run)`
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain(line)
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain(`<property name="interrupted" value="${line}"/>`)
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain(line)
    expect(out).toContain(line)
    expect(readdirSync(dir).sort()).toEqual(REPORTS_AND_HAR)
    const soakEntries = (
      JSON.parse(readFileSync(join(dir, 'exchanges.har'), 'utf8')) as { log: { entries: { _checks?: string[] }[] } }
    ).log.entries.filter((entry) => entry._checks?.some((sender) => sender.startsWith(SOAK_ROUND)))
    expect(soakEntries.length, "the soak's exchanges before the signal").toBeGreaterThan(0)
  })
})

/** The processes below pid, as Linux lists each one's children. */
function descendants(pid: number): number[] {
  const children = (): number[] => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number)
    } catch {
      return []
    }
  }
  return children().flatMap((child) => [child, ...descendants(child)])
}

/**
 * `npx --no-install ipts-conformance ARGS` from the repository's root, as a user of a clone (or of the installed
 * package) starts it; npx leads a process group of its own.
 */
function viaNpx(args: readonly string[], env: NodeJS.ProcessEnv): { child: ChildProcess; output(): string } {
  const child = spawn('npx', ['--no-install', 'ipts-conformance', ...args], {
    cwd: packageRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  return { child, output: () => output }
}

/**
 * Signals npx, to its whole process group as a terminal's Ctrl-C does, or to npx alone as `kill` or a CI cancel does;
 * waits for npx and the bin it started to end. Returns npx's exit as a shell reports it (128 + the signal's number for
 * a process a signal ended).
 */
async function signalNpx(
  child: ChildProcess,
  signal: 'SIGINT' | 'SIGTERM',
  to: 'its process group' | 'npx alone',
): Promise<number | null> {
  const launched = descendants(child.pid!)
  expect(launched.length, 'npx started the bin').toBeGreaterThan(0)
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
  process.kill(to === 'its process group' ? -child.pid! : child.pid!, signal)
  const [code, endedBy] = await exited
  const alive = () => launched.filter((pid) => existsSync(`/proc/${pid}`)).length
  await expect.poll(alive, { timeout: 30_000, interval: 100, message: 'the bin npx started ends too' }).toBe(0)
  return endedBy ? 128 + constants.signals[endedBy] : code
}

/**
 * npx runs the bin through `sh -c`, and passes a signal sent to npx alone to that shell only. dash (Debian's sh) ends
 * on a SIGTERM without passing it on, and the bin takes the end of its launcher for that SIGTERM
 * (src/runner/session.ts);
 * a SIGINT dash holds until the bin ends, so only one sent to the process group (a terminal's Ctrl-C) reaches the bin.
 */
const npxSignals = [
  ['SIGINT', 'its process group', 130],
  ['SIGTERM', 'npx alone', 143],
] as const

describe.skipIf(process.platform !== 'linux')('launched through npx, signalled', () => {
  test.each(npxSignals)(
    'a run: %s sent to %s, npx exits %i as documented, and the bin writes every report marked interrupted',
    async (signal, to, exitCode) => {
      const target = await slowTarget(200)
      const dir = mkdtempSync(join(tmpdir(), 'ipts-npx-interrupted-'))
      try {
        const { child, output } = viaNpx(['--base-url', target.url, '--report-dir', dir], {
          IPTS_API_KEY: 'interrupted-run-key-0001',
        })
        await expect.poll(target.requests, { timeout: 60_000, interval: 50 }).toBeGreaterThan(10)
        expect(await signalNpx(child, signal, to), output()).toBe(exitCode)
        expectInterrupted(readReport(dir), signal)
        expect(readdirSync(dir).sort()).toEqual(REPORTS_AND_HAR)
      } finally {
        await target.close()
      }
    },
  )

  test.each(npxSignals)(
    'the proxy: %s sent to %s, npx exits %i as documented, and the proxy writes its reports and the HAR',
    async (signal, to, exitCode) => {
      const reference = await startReferenceServer()
      const dir = mkdtempSync(join(tmpdir(), 'ipts-npx-proxy-'))
      try {
        const { child, output } = viaNpx(['proxy', '--upstream', reference.baseUrl, '--report-dir', dir], {})
        await expect.poll(() => output().includes('\n'), { timeout: 60_000, interval: 50 }).toBe(true)
        const { url } = JSON.parse(output().split('\n')[0]!) as { url: string }
        expect((await fetch(`${url}/v1/vault`, { headers: { 'x-api-key': reference.data.apiKey } })).status).toBe(200)
        expect(await signalNpx(child, signal, to), output()).toBe(exitCode)
        const report = readReport(dir)
        expect(report.traffic?.exchanges, 'the exchange it forwarded').toBe(1)
        expect(report.summary.verdict).toBe('pass')
        expect(readdirSync(dir).sort()).toEqual(REPORTS_AND_HAR)
      } finally {
        await reference.close()
      }
    },
  )
})

/**
 * A run cut short by the API caller or by its time bound: marked so, each check it cut off not run with the reason,
 * none failed for it; the verdict is that of what ran (the plain reference fails nothing).
 */
function expectCutShort(report: Report, by: 'abort' | 'max-duration', reason: RegExp): void {
  expect(report.interrupted?.by).toBe(by)
  expect(report.summary.failed, failureSummary(report)).toBe(0)
  const notRun = report.checks.filter((c) => c.status === 'not run')
  expect(notRun.length).toBeGreaterThan(0)
  for (const check of notRun) {
    expect(check.interrupted, check.id).toBe(true)
    expect(check.reason, check.id).toMatch(reason)
  }
  expect(report.summary.verdict, 'the verdict of what ran: the plain reference fails nothing').toBe('pass')
}

describe('a run the API caller aborts', () => {
  test('resolves with a report marked interrupted: the checks not ended are not run, none failed for it', async () => {
    const stop = new AbortController()
    let answered = 0
    const record = () => {
      if (++answered === 20) stop.abort()
    }
    const report = await runAgainstReference({ latencyMs: 20, record }, {}, { signal: stop.signal })
    expectCutShort(report, 'abort', /^interrupted: the caller aborted the run/)
  })
  test('an AbortSignal already aborted runs no check', async () => {
    let answered = 0
    const report = await runAgainstReference({ record: () => answered++ }, {}, { signal: AbortSignal.abort() })
    expect(
      report.checks
        .filter((c) => c.concern !== 'every-response')
        .every((c) => c.status === 'not run' || c.status === 'skipped'),
    ).toBe(true)
    expect(report.summary.passed).toBe(0)
    expect(answered, 'only the reachability probe and the profile reach the target').toBeLessThan(5)
  })
})

describe('a run cut by --max-duration', () => {
  test('the checks it cut off are not run with the reason, never failed; the verdict is that of what ran', async () => {
    const report = await runAgainstReference({ latencyMs: 50 }, { maxDurationMs: 1500 })
    expectCutShort(report, 'max-duration', /the run's time bound \(--max-duration\) had passed/)
  })
})

describe('a report folder found unwritable only when the reports are written', () => {
  test('one line naming the folder, and no partial report left behind', async () => {
    const report = await runAgainstReference({}, {}, { only: ['envelope/data'] })
    const parent = mkdtempSync(join(tmpdir(), 'ipts-unwritable-'))
    writeFileSync(join(parent, 'a-file'), 'not a folder')
    await expect(writeReports(report, join(parent, 'a-file', 'reports'))).rejects.toThrow(
      /^cannot write the reports to .*a-file\/reports \(ENOTDIR\); no report was written$/,
    )
    // A folder whose last file cannot be put in place: the files written before it are not left behind.
    const dir = join(parent, 'reports')
    mkdirSync(join(dir, 'report.html'), { recursive: true })
    await expect(writeReports(report, dir)).rejects.toThrow(/^cannot write the reports to /)
    expect(readdirSync(dir), 'only the folder in the way').toEqual(['report.html'])
  })
})
