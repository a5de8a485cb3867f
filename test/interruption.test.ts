import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { packageRoot } from '../src/core/package-root.js'
import type { Report } from '../src/core/report.js'
import { runAgainstReference } from './support/run.js'
import { writeReports } from '../reporters/write.js'

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
        const report = readReport(dir)
        expect(report.interrupted?.by).toBe(signal)
        const notRun = report.checks.filter((c) => c.status === 'not run')
        expect(notRun.length, 'checks the signal cut off').toBeGreaterThan(0)
        for (const check of notRun) {
          expect(check.interrupted, check.id).toBe(true)
          expect(check.reason, check.id).toMatch(new RegExp(`^interrupted by ${signal}`))
        }
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

describe('a run the API caller aborts', () => {
  test('resolves with a report marked interrupted: the checks not ended are not run, none failed for it', async () => {
    const stop = new AbortController()
    let answered = 0
    const record = () => {
      if (++answered === 20) stop.abort()
    }
    const report = await runAgainstReference({ latencyMs: 20, record }, {}, { signal: stop.signal })
    expect(report.interrupted?.by).toBe('abort')
    expect(
      report.summary.failed,
      report.checks
        .filter((c) => c.status === 'failed')
        .map((c) => `${c.id}: ${c.reason}`)
        .join('\n'),
    ).toBe(0)
    const notRun = report.checks.filter((c) => c.status === 'not run')
    expect(notRun.length).toBeGreaterThan(0)
    expect(notRun.every((c) => c.interrupted && c.reason?.startsWith('interrupted: the caller aborted the run'))).toBe(
      true,
    )
    expect(report.summary.verdict, 'the verdict of what ran: the plain reference fails nothing').toBe('pass')
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
    expect(report.interrupted?.by).toBe('max-duration')
    expect(
      report.summary.failed,
      report.checks
        .filter((c) => c.status === 'failed')
        .map((c) => `${c.id}: ${c.reason}`)
        .join('\n'),
    ).toBe(0)
    const notRun = report.checks.filter((c) => c.status === 'not run')
    expect(notRun.length).toBeGreaterThan(0)
    for (const check of notRun) {
      expect(check.interrupted, check.id).toBe(true)
      expect(check.reason, check.id).toMatch(/the run's time bound \(--max-duration\) had passed/)
    }
    expect(report.summary.verdict).toBe('pass')
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
