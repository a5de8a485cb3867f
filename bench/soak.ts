import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { packageRoot } from '../src/core/package-root.js'
import type { Report } from '../src/core/report.js'

/** What a soak of the bin against the embedded reference cost: memory after its first minute and at its end, CPU. */
export interface SoakFigures {
  durationMs: number
  rate: number
  rounds: number
  /** Requests of the soak's rounds (each attempt one); the checks before it sent more. */
  soakRequests: number
  /** RSS of the process (suite and embedded reference) once the soak had run a minute, and after its last round. */
  rssAfterMinuteMiB: number
  rssAtEndMiB: number
  /** CPU time (user and system) of the process between those two moments, per request sent between them. */
  cpuMsPerRequest: number
  exitCode: number | null
}

/** A soak's progress line (reporters/progress.ts): its round and the requests its rounds sent so far. */
const PROGRESS = /^soak: round (\d+) done, .*?, (\d+) requests/

/** The process's resident memory (VmRSS) in MiB and its CPU time (utime and stime) in ms, from /proc. */
function usage(pid: number): { rssMiB: number; cpuMs: number } {
  const kib = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN)
  // Fields 14 and 15 of /proc/PID/stat, after the command name in parentheses; in clock ticks (100 a second on Linux).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ')
  return { rssMiB: kib / 1024, cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 }
}

/**
 * The bin as a user starts a soak (`--duration`, `--rate`, the embedded reference as target) in a process of its own:
 * its memory and CPU read from /proc at the first round that ends after the soak's first minute, and at its last
 * round. The report folder is removed after.
 */
export async function measureSoak(durationMs: number, rate: number): Promise<SoakFigures> {
  const reportDir = mkdtempSync(join(tmpdir(), 'ipts-bench-soak-'))
  const child = spawn(
    process.execPath,
    [
      join(packageRoot, 'bin', 'ipts-conformance.js'),
      '--duration',
      `${Math.round(durationMs / 1000)}s`,
      '--rate',
      String(rate),
      '--report-dir',
      reportDir,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NO_COLOR: '1' } },
  )
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  let soakStarted: number | undefined
  let minute: { requests: number; rssMiB: number; cpuMs: number } | undefined
  let last: { requests: number; rssMiB: number; cpuMs: number } | undefined
  try {
    for await (const line of createInterface({ input: child.stdout })) {
      const progress = PROGRESS.exec(line)
      if (!progress) continue
      const now = { requests: Number(progress[2]), ...usage(child.pid!) }
      soakStarted ??= Date.now()
      if (!minute && Date.now() - soakStarted >= 60_000) minute = now
      last = now
    }
    const exitCode = await exited
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as Report
    if (!minute || !last || !report.resampling) throw new Error('the soak ended before its first minute was over')
    return {
      durationMs,
      rate,
      rounds: report.resampling.rounds,
      soakRequests: report.resampling.requests,
      rssAfterMinuteMiB: minute.rssMiB,
      rssAtEndMiB: last.rssMiB,
      cpuMsPerRequest: (last.cpuMs - minute.cpuMs) / Math.max(1, last.requests - minute.requests),
      exitCode,
    }
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
    await exited
    rmSync(reportDir, { recursive: true, force: true })
  }
}
