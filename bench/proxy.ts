import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { Pool } from 'undici'
import { packageRoot } from '../src/core/package-root.js'
import type { RecordedRequest } from './replay.js'

/**
 * What the proxy costs: throughput through it against direct, the latency it adds, and the peak memory of a long run.
 */
export interface ProxyFigures {
  requests: number
  directPerSecond: number
  proxiedPerSecond: number
  /** Through a forwarding proxy that does nothing else: what is left of the ratio to direct is the judging's cost. */
  barePerSecond: number
  addedP50Ms: number
  addedP99Ms: number
  longRunExchanges: number
  longRunPeakRssMiB: number
  longRunExitCode: number | null
}

interface Timed {
  wallMs: number
  latenciesMs: number[]
}

/**
 * Sends the requests round-robin, `concurrency` at a time, bodies read and dropped; returns the wall time and each
 * request's latency.
 */
async function send(
  baseUrl: string,
  requests: readonly RecordedRequest[],
  count: number,
  concurrency: number,
): Promise<Timed> {
  const pool = new Pool(baseUrl, { connections: concurrency })
  const latenciesMs: number[] = []
  let next = 0
  const started = performance.now()
  const worker = async () => {
    while (next < count) {
      const { path, headers } = requests[next++ % requests.length]!
      const sent = performance.now()
      const { body } = await pool.request({ method: 'GET', path, headers })
      await body.arrayBuffer()
      latenciesMs.push(performance.now() - sent)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  const wallMs = performance.now() - started
  await pool.destroy()
  return { wallMs, latenciesMs }
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/**
 * A proxy in a process of its own (under GNU time for its peak resident memory) that prints {"url": …} when it listens
 * and exits by itself after the exchanges it was told; the traffic is sent from this process.
 */
async function proxied<T>(
  script: string,
  args: readonly string[],
  traffic: (proxyUrl: string) => Promise<T>,
): Promise<{ result: T; peakRssMiB: number; exitCode: number | null }> {
  const child = spawn('/usr/bin/time', ['-f', 'peak-rss-kib %M', process.execPath, script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += String(chunk)))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const lines = createInterface({ input: child.stdout })
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve)
    void exited.then((code) => reject(new Error(`the proxy exited ${code} before listening: ${stderr}`)))
  })
  lines.on('line', () => undefined)
  const { url } = JSON.parse(first) as { url: string }
  const result = await traffic(url)
  const exitCode = await exited
  const kib = Number(/peak-rss-kib (\d+)/.exec(stderr)?.[1] ?? NaN)
  return { result, peakRssMiB: kib / 1024, exitCode }
}

/**
 * The suite's proxy as a user starts it (the bin), in front of the upstream until it has forwarded maxRequests
 * exchanges.
 */
async function suiteProxy<T>(
  upstream: string,
  maxRequests: number,
  traffic: (proxyUrl: string) => Promise<T>,
): ReturnType<typeof proxied<T>> {
  const reportDir = mkdtempSync(join(tmpdir(), 'ipts-bench-proxy-'))
  try {
    return await proxied(
      join(packageRoot, 'bin', 'ipts-conformance.js'),
      ['proxy', '--upstream', upstream, '--max-requests', String(maxRequests), '--report-dir', reportDir],
      traffic,
    )
  } finally {
    rmSync(reportDir, { recursive: true, force: true })
  }
}

export async function measureProxy(
  upstream: string,
  requests: readonly RecordedRequest[],
  concurrency: number,
  count: number,
  longRun: number,
): Promise<ProxyFigures> {
  await send(upstream, requests, Math.min(count, 500), concurrency) // warm-up
  const direct = await send(upstream, requests, count, concurrency)
  const bare = await proxied(join(packageRoot, 'dist', 'bench', 'bare-proxy.js'), [upstream, String(count)], (url) =>
    send(url, requests, count, concurrency),
  )
  const through = await suiteProxy(upstream, count, (url) => send(url, requests, count, concurrency))
  const long = await suiteProxy(upstream, longRun, (url) => send(url, requests, longRun, concurrency))
  return {
    requests: count,
    directPerSecond: (count / direct.wallMs) * 1000,
    proxiedPerSecond: (count / through.result.wallMs) * 1000,
    barePerSecond: (count / bare.result.wallMs) * 1000,
    addedP50Ms: percentile(through.result.latenciesMs, 50) - percentile(direct.latenciesMs, 50),
    addedP99Ms: percentile(through.result.latenciesMs, 99) - percentile(direct.latenciesMs, 99),
    longRunExchanges: longRun,
    longRunPeakRssMiB: long.peakRssMiB,
    longRunExitCode: long.exitCode,
  }
}
