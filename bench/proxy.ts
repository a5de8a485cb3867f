import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { Pool } from 'undici'
import { packageRoot } from '../src/package-root.js'
import type { RecordedRequest } from './replay.js'

/** What the proxy costs: throughput through it against direct, the latency it adds, and the peak memory of a long run. */
export interface ProxyFigures {
  requests: number
  directPerSecond: number
  proxiedPerSecond: number
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

/** Sends the requests round-robin, `concurrency` at a time, bodies read and dropped; returns the wall time and each request's latency. */
async function send(baseUrl: string, requests: readonly RecordedRequest[], count: number, concurrency: number): Promise<Timed> {
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
 * The proxy as a user starts it (the bin, a process of its own, under GNU time for its peak resident memory), in front of
 * the upstream until it has forwarded maxRequests exchanges; the traffic is sent from this process.
 */
async function proxied<T>(upstream: string, maxRequests: number, traffic: (proxyUrl: string) => Promise<T>): Promise<{ result: T; peakRssMiB: number; exitCode: number | null }> {
  const reportDir = mkdtempSync(join(tmpdir(), 'ipts-bench-proxy-'))
  const child = spawn('/usr/bin/time', ['-f', 'peak-rss-kib %M', process.execPath, join(packageRoot, 'bin', 'ipts-conformance.js'), 'proxy', '--upstream', upstream, '--max-requests', String(maxRequests), '--report-dir', reportDir], { stdio: ['ignore', 'pipe', 'pipe'] })
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
  rmSync(reportDir, { recursive: true, force: true })
  const kib = Number(/peak-rss-kib (\d+)/.exec(stderr)?.[1] ?? NaN)
  return { result, peakRssMiB: kib / 1024, exitCode }
}

export async function measureProxy(upstream: string, requests: readonly RecordedRequest[], concurrency: number, count: number, longRun: number): Promise<ProxyFigures> {
  await send(upstream, requests, Math.min(count, 500), concurrency) // warm-up
  const direct = await send(upstream, requests, count, concurrency)
  const through = await proxied(upstream, count, (url) => send(url, requests, count, concurrency))
  const long = await proxied(upstream, longRun, (url) => send(url, requests, longRun, concurrency))
  return {
    requests: count,
    directPerSecond: (count / direct.wallMs) * 1000,
    proxiedPerSecond: (count / through.result.wallMs) * 1000,
    addedP50Ms: percentile(through.result.latenciesMs, 50) - percentile(direct.latenciesMs, 50),
    addedP99Ms: percentile(through.result.latenciesMs, 99) - percentile(direct.latenciesMs, 99),
    longRunExchanges: longRun,
    longRunPeakRssMiB: long.peakRssMiB,
    longRunExitCode: long.exitCode,
  }
}
