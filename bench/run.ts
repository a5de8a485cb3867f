import { execSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { availableParallelism, cpus, loadavg } from 'node:os'
import { packageRoot } from '../src/core/package-root.js'
import { withGeneratedSection } from '../src/docs/generated-section.js'
import { startReferenceServer } from '../src/reference/server.js'
import { runConformance, type RunOptions } from '../src/runner/run.js'
import type { Report } from '../src/core/report.js'
import type { CheckId } from '../src/contract/catalogue-ids.js'
import { measureProxy } from './proxy.js'
import { DISTINCT_KEY_EVERY, measureProxyRss } from './proxy-rss.js'
import { measureCheckHarRss } from './check-har-rss.js'
import { measureSoak } from './soak.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { recorded, replay, type RecordedRequest } from './replay.js'
import { peakRssOfDefaultRun, startupMs } from './startup.js'

/**
 * `npm run bench`: the suite's own cost against the embedded reference, under added latency, and under a quota; the
 * proxy's cost.
 */

/** Taken before the bench sends anything: what else the machine was doing. */
const LOAD_AT_START = loadavg()
const CONCURRENCY = 8
const LATENCY_MS = 120
const QUOTA = { limit: 15, windowMs: 1000 }
const AIM = 1.25
/**
 * Requests sent directly and through the proxy for throughput and latency, and the exchanges of the long proxy run for
 * memory.
 */
const PROXY_REQUESTS = 4000
const PROXY_LONG_RUN = 10_000
/**
 * The proxy's RSS after the first and after the last of these exchanges: bounded memory means within 20% of each other.
 */
const PROXY_RSS_EARLY = 10_000
const PROXY_RSS_LATE = 200_000
/** The size of the HAR check-har reads for its peak memory (aim: under 500 MB of RSS). */
const LARGE_HAR_BYTES = 500 * 1024 * 1024
/**
 * The memory figures, runnable alone: `npm run bench -- --only proxy-rss,check-har-rss,soak`; the soak's duration with
 * `--soak-duration 10m` (the figure in docs/benchmark.md), else SOAK_DURATION_MS. The soak has a table of its own.
 */
const MEMORY_FIGURES = ['proxy-rss', 'check-har-rss', 'soak'] as const
/** A soak short enough for every `npm run bench`, yet with more than its first minute to compare it with. */
const SOAK_DURATION_MS = 3 * 60_000
/** The soak's pace: requests per second (the CLI's default is 2; more rounds in the same time show growth sooner). */
const SOAK_RATE = 10 /** Where the table goes, between its markers: the benchmark's page of the documentation. */
const BENCHMARK_DOC = join(packageRoot, 'docs', 'benchmark.md')

const settings = {
  seed: 20261122,
  runs: 25,
  concurrency: CONCURRENCY,
  cursorParam: 'cursor',
  limitParam: 'limit',
  maxPages: 1000,
  connectTimeoutMs: 5000,
  requestTimeoutMs: 10_000,
  maxBodyBytes: 4 * 1024 * 1024,
  probeRateLimit: false,
} satisfies RunOptions['settings']

interface Measured {
  report: Report
  wallMs: number
  requests: RecordedRequest[]
  statuses: number[]
}

async function measure(reference: RunOptions['reference'] = {}, only?: CheckId[]): Promise<Measured> {
  const requests: RecordedRequest[] = []
  const statuses: number[] = []
  const started = performance.now()
  const report = await runConformance({
    settings,
    only,
    reference: {
      ...reference,
      record: (request, response) => (requests.push(recorded(request)), statuses.push(response.status)),
    },
  })
  return { report, wallMs: performance.now() - started, requests, statuses }
}

const LARGE_BODY_BYTES = 50 * 1024 * 1024

/** A target on 127.0.0.1 whose every answer declares and streams a 50 MB body, respecting back-pressure. */
async function largeBodyTarget(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const chunk = Buffer.alloc(64 * 1024, 0x20)
  const server = createServer((_, res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'x-request-id': 'bench-large-body',
      'content-length': LARGE_BODY_BYTES,
    })
    let sent = 0
    const pump = () => {
      while (sent < LARGE_BODY_BYTES && !res.destroyed) {
        sent += chunk.length
        if (!res.write(chunk)) return void res.once('drain', pump)
      }
      res.end()
    }
    res.on('error', () => res.destroy())
    pump()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => (server.closeAllConnections(), new Promise<void>((resolve) => server.close(() => resolve()))),
  }
}

/**
 * The peak growth of resident memory while a run goes against a 50 MB body (the suite's workers are threads of this
 * process).
 */
async function largeBodyMemory(): Promise<{ growth: number; wallMs: number }> {
  const target = await largeBodyTarget()
  const before = process.memoryUsage.rss()
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50)
  const started = performance.now()
  try {
    await runConformance({
      settings: {
        ...settings,
        baseUrl: target.baseUrl,
        apiKey: 'bench-key',
        restrictedApiKey: 'bench-restricted-key',
        trader: `0x${'11'.repeat(20)}`,
        intent: { hash: `0x${'ab'.repeat(32)}`, receipt: 'bench-receipt-a' },
        secondIntent: { hash: `0x${'cd'.repeat(32)}`, receipt: 'bench-receipt-b' },
      },
    })
    return { growth: Math.max(peak, process.memoryUsage.rss()) - before, wallMs: performance.now() - started }
  } finally {
    clearInterval(sampler)
    await target.close()
  }
}

/**
 * A bound the ideal ignores: no run is shorter than its longest check, whose requests go one after another (a
 * property's inputs).
 */
function longestCheck(report: Report): { id: string; ms: number } {
  const longest = [...report.checks].sort((a, b) => (b.durationMs ?? 0) - (a.durationMs ?? 0))[0]
  return { id: longest?.id ?? 'none', ms: longest?.durationMs ?? 0 }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`
const outcomes = (report: Report) =>
  report.checks
    .map((c) => `${c.id}=${c.status === 'skipped' && c.id.startsWith('every-response/') ? 'passed' : c.status}`)
    .sort()

/**
 * The memory figures of long-running work, in a table of their own (the `benchmark-memory` section): the proxy's RSS
 * after 10,000 and after 200,000 exchanges of the suite's own requests through it against the reference, and the peak
 * RSS of check-har reading a 500 MB HAR made of a run's own exchanges. Generated files go to a temporary folder,
 * removed after.
 */
async function memoryFigures(only: readonly string[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'ipts-bench-memory-'))
  const harPath = join(dir, 'run.har')
  const requests: RecordedRequest[] = []
  await runConformance({ settings, harPath, reference: { record: (request) => requests.push(recorded(request)) } })
  const rows: [string, string, string][] = [['figure', 'measured', 'against']]
  try {
    if (only.includes('proxy-rss')) {
      const reference = await startReferenceServer()
      try {
        const { early, late } = await measureProxyRss(
          reference.baseUrl,
          requests,
          CONCURRENCY,
          PROXY_RSS_EARLY,
          PROXY_RSS_LATE,
        )
        rows.push([
          `proxy RSS after ${early.exchanges} and after ${late.exchanges} exchanges (a run's ${requests.length} requests, round-robin; one in ${DISTINCT_KEY_EVERY} with an API key never seen before)`,
          `${early.rssMiB.toFixed(0)} MiB, ${late.rssMiB.toFixed(0)} MiB: ${ratio(late.rssMiB, early.rssMiB)}`,
          'aim: within 1.20×',
        ])
      } finally {
        await reference.close()
      }
    }
    if (only.includes('check-har-rss')) {
      const har = measureCheckHarRss(harPath, LARGE_HAR_BYTES)
      rows.push([
        `check-har of a ${har.fileMiB.toFixed(0)} MiB HAR (${har.entries} entries, a run's exchanges repeated)`,
        `peak RSS ${har.peakRssMiB.toFixed(0)} MiB in ${seconds(har.wallMs)}`,
        `aim: under 500 MB; exit code ${har.exitCode}`,
      ])
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
  const line = (row: readonly string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`
  return [
    `Measured by \`npm run bench -- --only ${only.join(',')}\` on ${availableParallelism()} CPUs, Node ${process.version}; load average ${LOAD_AT_START.map((l) => l.toFixed(1)).join(', ')} at the start:`,
    '',
    [line(rows[0]!), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)].join('\n'),
  ].join('\n')
}

function writeMemoryFigures(table: string, section = 'benchmark-memory'): void {
  console.log(table)
  writeFileSync(
    BENCHMARK_DOC,
    withGeneratedSection(readFileSync(BENCHMARK_DOC, 'utf8'), section, table, 'docs/benchmark.md'),
  )
}

/**
 * A soak of the bin against the embedded reference (bench/soak.ts): RSS after its first minute and at its end, CPU
 * time per request; in a table of its own (the `benchmark-soak` section).
 */
async function soakFigures(argv: readonly string[]): Promise<string> {
  const soak = await measureSoak(soakDurationMs(argv), SOAK_RATE)
  const rows = [
    ['figure', 'measured', 'against'],
    [
      `soak of ${Math.round(soak.durationMs / 1000)} s at ${soak.rate}/s against the embedded reference (${soak.rounds} rounds, ${soak.soakRequests} requests)`,
      `RSS ${soak.rssAfterMinuteMiB.toFixed(0)} MiB after the first minute, ${soak.rssAtEndMiB.toFixed(0)} MiB at the end: ${ratio(soak.rssAtEndMiB, soak.rssAfterMinuteMiB)}`,
      `aim: within 1.20×; CPU time ${soak.cpuMsPerRequest.toFixed(2)} ms per request after the first minute; exit code ${soak.exitCode}`,
    ],
  ]
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
  const line = (row: readonly string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`
  return [
    `Measured by \`npm run bench -- --only soak${argv.includes('--soak-duration') ? ` --soak-duration ${argv[argv.indexOf('--soak-duration') + 1]}` : ''}\` on ${availableParallelism()} CPUs, Node ${process.version}; load average ${LOAD_AT_START.map((l) => l.toFixed(1)).join(', ')} at the start:`,
    '',
    [line(rows[0]!), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)].join('\n'),
  ].join('\n')
}

/** `--only a,b`: those memory figures alone; undefined without the flag. */
function onlyFigures(argv: readonly string[]): string[] | undefined {
  const at = argv.indexOf('--only')
  if (at < 0) return undefined
  const named = (argv[at + 1] ?? '').split(',').filter(Boolean)
  const unknown = named.find((name) => !(MEMORY_FIGURES as readonly string[]).includes(name))
  if (named.length === 0 || unknown !== undefined)
    throw new Error(
      `--only takes one or more of ${MEMORY_FIGURES.join(', ')}, comma-separated; got ${JSON.stringify(argv[at + 1] ?? '')}`,
    )
  return named
}

/** `--soak-duration 10m` (minutes or seconds): the soak's duration; SOAK_DURATION_MS without it. */
function soakDurationMs(argv: readonly string[]): number {
  const at = argv.indexOf('--soak-duration')
  if (at < 0) return SOAK_DURATION_MS
  const given = /^(\d+)(s|m)$/.exec(argv[at + 1] ?? '')
  if (!given || Number(given[1]) * (given[2] === 'm' ? 60 : 1) <= 60)
    throw new Error(
      `--soak-duration takes a duration over a minute, such as 10m or 90s; got ${JSON.stringify(argv[at + 1] ?? '')}`,
    )
  return Number(given[1]) * (given[2] === 'm' ? 60_000 : 1000)
}

async function main(): Promise<void> {
  const only = onlyFigures(process.argv.slice(2))
  if (only) {
    const memory = only.filter((name) => name !== 'soak')
    if (memory.length > 0) writeMemoryFigures(await memoryFigures(memory))
    if (only.includes('soak')) writeMemoryFigures(await soakFigures(process.argv.slice(2)), 'benchmark-soak')
    return
  }
  await measure({}, []) // warms up vitest's transform cache and the JIT, so that startup below is what every run pays
  const startup = await measure({}, [])
  const plain = await measure()
  const reference = await startReferenceServer()
  const rawMs = await replay(reference.baseUrl, plain.requests, CONCURRENCY)
  const proxyFigures = await measureProxy(
    reference.baseUrl,
    plain.requests,
    CONCURRENCY,
    PROXY_REQUESTS,
    PROXY_LONG_RUN,
  ).finally(() => reference.close())
  const slow = await measure({ latencyMs: LATENCY_MS })
  const idealMs = (slow.requests.length * LATENCY_MS) / CONCURRENCY
  const limited = await measure({ quota: QUOTA })
  const cliStartup = startupMs()
  const memory = await peakRssOfDefaultRun(settings.seed)
  const plainOutcomes = outcomes(plain.report)
  const large = await largeBodyMemory()
  const falseFailures = limited.report.checks.filter((c) => c.status === 'failed').map((c) => c.id)
  const changed = outcomes(limited.report).filter((o) => !plainOutcomes.includes(o))

  const rows: [string, string, string, string][] = [
    ['scenario', 'requests', 'wall time', 'against'],
    ['startup and teardown (no checks)', String(startup.requests.length), seconds(startup.wallMs), ''],
    [
      'full suite',
      String(plain.requests.length),
      seconds(plain.wallMs),
      `raw undici loop ${seconds(rawMs)}: ${ratio(plain.wallMs, rawMs)}; without startup ${ratio(plain.wallMs - startup.wallMs, rawMs)}`,
    ],
    [
      `full suite, ${LATENCY_MS} ms latency`,
      String(slow.requests.length),
      seconds(slow.wallMs),
      `ideal ${seconds(idealMs)}: ${ratio(slow.wallMs, idealMs)}; without startup ${ratio(slow.wallMs - startup.wallMs, idealMs)}`,
    ],
    ['  its longest check', '', seconds(longestCheck(slow.report).ms), longestCheck(slow.report).id],
    ['CLI start-up: node bin/ipts-conformance.js --help (median of 5)', '', seconds(cliStartup.bin), ''],
    [
      'CLI start-up: npm start -- --help (median of 5, dist fresh)',
      '',
      seconds(cliStartup.npmStart),
      `${ratio(cliStartup.npmStart, cliStartup.bin)} the bin's`,
    ],
    ['peak memory (RSS) of a default CLI run', '', `${memory.peakMb.toFixed(0)} MB`, `exit code ${memory.exitCode}`],
    [
      `full suite, quota ${QUOTA.limit}/s per key`,
      String(limited.requests.length),
      seconds(limited.wallMs),
      `${limited.statuses.filter((s) => s === 429).length} answered 429; false failures: ${falseFailures.length}; outcomes changed: ${changed.length}`,
    ],
    [
      'full suite, every body 50 MB',
      '',
      seconds(large.wallMs),
      `peak resident memory growth ${Math.round(large.growth / 1024 / 1024)} MiB (bodies are cut at ${settings.maxBodyBytes / 1024 / 1024} MiB)`,
    ],
  ]
  const p = proxyFigures
  rows.push(
    [
      `through the proxy, concurrency ${CONCURRENCY}`,
      String(p.requests),
      `${p.proxiedPerSecond.toFixed(0)} req/s`,
      `direct ${p.directPerSecond.toFixed(0)} req/s: ${(p.proxiedPerSecond / p.directPerSecond).toFixed(2)} of direct (aim: at least 0.5); a bare forwarding proxy ${p.barePerSecond.toFixed(0)} req/s: ${(p.proxiedPerSecond / p.barePerSecond).toFixed(2)} of it; added latency p50 ${p.addedP50Ms.toFixed(2)} ms, p99 ${p.addedP99Ms.toFixed(2)} ms`,
    ],
    [
      `proxy, ${p.longRunExchanges} exchanges`,
      String(p.longRunExchanges),
      `peak RSS ${p.longRunPeakRssMiB.toFixed(0)} MiB`,
      `the proxy process as a whole (GNU time); exit code ${p.longRunExitCode}`,
    ],
  )
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
  const line = (row: readonly string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`
  const table = [
    `Measured by one \`npm run bench\` on ${availableParallelism()} CPUs (${cpus()[0]?.model.trim()}), Node ${process.version}, ${execSync('uname -sr').toString().trim()}; load average ${LOAD_AT_START.map((l) => l.toFixed(1)).join(', ')} at the start (other work on the machine slows every figure):`,
    `concurrency ${CONCURRENCY}, runs ${settings.runs}, seed ${settings.seed}; aim: within ${AIM}× of the raw loop and of the ideal.`,
    '',
    [line(rows[0]!), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)].join('\n'),
  ].join('\n')
  console.log(table)
  writeFileSync(
    BENCHMARK_DOC,
    withGeneratedSection(readFileSync(BENCHMARK_DOC, 'utf8'), 'benchmark', table, 'docs/benchmark.md'),
  )
  writeMemoryFigures(await memoryFigures(MEMORY_FIGURES.filter((name) => name !== 'soak')))
  writeMemoryFigures(await soakFigures(process.argv.slice(2)), 'benchmark-soak')
  console.log(`\nthe tables are written into ${BENCHMARK_DOC}`)
  if (falseFailures.length > 0) console.log(`\nfalse failures under the quota: ${falseFailures.join(', ')}`)
  if (changed.length > 0) console.log(`outcomes that changed under the quota: ${changed.join(', ')}`)
  const failedPlain = plain.report.checks.filter((c) => c.status === 'failed').map((c) => c.id)
  if (failedPlain.length > 0) console.log(`\nthe plain reference failed checks (a defect): ${failedPlain.join(', ')}`)
  process.exitCode = falseFailures.length > 0 || failedPlain.length > 0 ? 1 : 0
}

await main()
