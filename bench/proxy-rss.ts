import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { Pool } from 'undici'
import { packageRoot } from '../src/core/package-root.js'
import type { RecordedRequest } from './replay.js'

/**
 * The proxy's resident memory after a first and a last count of exchanges: whether it stays bounded however long it
 * runs.
 */
export interface ProxyRssFigures {
  early: { exchanges: number; rssMiB: number }
  late: { exchanges: number; rssMiB: number }
}

/** The resident memory of a process now (Linux: VmRSS of /proc/PID/status), in MiB. */
function rssMiB(pid: number): number {
  const kib = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN)
  return kib / 1024
}

/**
 * Every this many exchanges, one sends an API key of its own, never seen before: the proxy learns each, so what it
 * remembers of keys is measured too (it keeps the most recent 512).
 */
export const DISTINCT_KEY_EVERY = 10

/**
 * Sends `count` requests round-robin from the set, `concurrency` at a time, bodies read and dropped; `sent`: how many
 * were sent before.
 */
async function sendRequests(
  pool: Pool,
  requests: readonly RecordedRequest[],
  sent: number,
  count: number,
  concurrency: number,
): Promise<void> {
  let next = sent
  const end = sent + count
  const worker = async () => {
    while (next < end) {
      const n = next++
      const { path, headers: recorded } = requests[n % requests.length]!
      const headers =
        n % DISTINCT_KEY_EVERY === 0
          ? { ...recorded, 'x-api-key': `ipts_bench_distinct_${n.toString(16).padStart(8, '0')}` }
          : recorded
      const { body } = await pool.request({ method: 'GET', path, headers })
      await body.arrayBuffer()
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
}

/**
 * The proxy as a user starts it (the bin, a process of its own) in front of the upstream: its RSS once `early`
 * exchanges
 * have gone through, and again after `late`; then it is killed (the HAR of 200,000 exchanges it would write is not what
 * is measured) and its report folder removed.
 */
export async function measureProxyRss(
  upstream: string,
  requests: readonly RecordedRequest[],
  concurrency: number,
  early: number,
  late: number,
): Promise<ProxyRssFigures> {
  const reportDir = mkdtempSync(join(tmpdir(), 'ipts-bench-proxy-rss-'))
  const child = spawn(
    process.execPath,
    [join(packageRoot, 'bin', 'ipts-conformance.js'), 'proxy', '--upstream', upstream, '--report-dir', reportDir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    const lines = createInterface({ input: child.stdout })
    const first = await new Promise<string>((resolve) => lines.once('line', resolve))
    lines.on('line', () => undefined)
    const { url } = JSON.parse(first) as { url: string }
    const pool = new Pool(url, { connections: concurrency })
    await sendRequests(pool, requests, 0, early, concurrency)
    const earlyRss = rssMiB(child.pid!)
    await sendRequests(pool, requests, early, late - early, concurrency)
    const lateRss = rssMiB(child.pid!)
    await pool.close()
    return { early: { exchanges: early, rssMiB: earlyRss }, late: { exchanges: late, rssMiB: lateRss } }
  } finally {
    child.kill('SIGKILL')
    await exited
    rmSync(reportDir, { recursive: true, force: true })
  }
}
