import { join } from 'node:path'
import { summaryLines } from '../../reporters/console.js'
import { SIGNAL_EXIT_CODES } from '../../reporters/publish.js'
import { writeReports } from '../../reporters/write.js'
import { HAR_FILE } from '../har/write.js'
import { HarSpool } from '../traffic/har-spool.js'
import { TrafficJudgement } from '../traffic/judgement.js'
import { startProxyServer } from '../traffic/proxy-server.js'
import { UsageError } from '../core/errors.js'
import type { Flag } from './flags.js'
import {
  parseSubcommandArgs,
  reportFlags,
  subcommandHelp,
  trafficProfile,
  trafficProfileFlag,
} from './subcommand-args.js'

const flags: readonly Flag[] = [
  { name: 'upstream', kind: 'url', help: 'base URL of the deployment the proxy forwards to (required)' },
  {
    name: 'port',
    kind: 'int',
    min: 0,
    max: 65535,
    default: '0',
    help: 'port to listen on (0: any free port; the URL is printed)',
  },
  { name: 'host', kind: 'text', default: '127.0.0.1', help: 'address to listen on' },
  {
    name: 'max-requests',
    kind: 'int',
    min: 1,
    max: 100_000_000,
    help: 'stop after this many exchanges, write the reports and exit',
  },
  {
    name: 'timeout',
    kind: 'int',
    min: 100,
    max: 600_000,
    default: '30000',
    help: "bound on the upstream's answer in milliseconds: its head, and each pause in its body",
  },
  ...reportFlags,
  trafficProfileFlag,
]

export const proxyHelp = (): string =>
  subcommandHelp(
    'ipts-conformance proxy --upstream URL [flags]',
    'A validating reverse proxy: forwards every request and response unchanged and judges each exchange as check-har does.\nPrints {"url": …} when it listens; on SIGINT or SIGTERM, or after --max-requests, writes the reports and exchanges.har.\nExit: the verdict’s (0 or 1) after --max-requests; 130 after SIGINT, 143 after SIGTERM (the verdict is in the reports).',
    flags,
  )

export interface ProxyOptions {
  upstream: string
  port: number
  host: string
  reportDir: string
  maxRequests?: number
  timeoutMs: number
  strict: boolean
  minAssessed?: number
  profile?: string
}

export function parseProxyArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): ProxyOptions {
  const { values } = parseSubcommandArgs(argv, flags, 0, env)
  if (values.upstream === undefined) throw new UsageError('--upstream is required (the base URL to forward to)')
  return {
    upstream: values.upstream as string,
    port: values.port as number,
    host: values.host as string,
    reportDir: values['report-dir'] as string,
    maxRequests: values['max-requests'] as number | undefined,
    timeoutMs: values.timeout as number,
    strict: values.strict === true,
    minAssessed: values['min-assessed'] as number | undefined,
    profile: values.profile as string | undefined,
  }
}

/** The proxy until SIGINT or SIGTERM (or --max-requests), as the CLI runs it. */
export async function proxyUntilSignalled(options: ProxyOptions, env: NodeJS.ProcessEnv): Promise<number> {
  const stop = new AbortController()
  const onInt = () => stop.abort('SIGINT')
  const onTerm = () => stop.abort('SIGTERM')
  process.once('SIGINT', onInt).once('SIGTERM', onTerm)
  try {
    const verdict = await proxy(options, env, stop.signal)
    // Stopped by a signal, the proxy exits as a process that signal ended (130, 143); its verdict is in the reports.
    // --max-requests ends it with the verdict's code.
    return stop.signal.aborted ? SIGNAL_EXIT_CODES[stop.signal.reason as keyof typeof SIGNAL_EXIT_CODES] : verdict
  } finally {
    process.off('SIGINT', onInt).off('SIGTERM', onTerm)
  }
}

/** The same cap on a kept body as a run's (4 MiB): past it, the proxy forwards and judges the body as truncated. */
const MAX_BODY_BYTES = 4 * 1024 * 1024

/**
 * ipts-conformance proxy: forwards and judges until stopped (the signal) or --max-requests; writes the reports and the
 * HAR; returns the exit code.
 */
export async function proxy(options: ProxyOptions, env: NodeJS.ProcessEnv, stop: AbortSignal): Promise<number> {
  const judgement = new TrafficJudgement('proxy', options.upstream, await trafficProfile(options.profile))
  const spool = await HarSpool.create()
  let exchanges = 0
  const enough = new AbortController()
  const server = await startProxyServer({
    upstream: options.upstream,
    host: options.host,
    port: options.port,
    requestTimeoutMs: options.timeoutMs,
    maxBodyBytes: MAX_BODY_BYTES,
    onExchange(exchange, upstreamFailed) {
      if (upstreamFailed) judgement.upstreamFailed(exchange)
      else judgement.judge(exchange)
      spool.add(exchange)
      if (options.maxRequests !== undefined && ++exchanges >= options.maxRequests) enough.abort()
    },
    onMalformedRequest: () => judgement.malformedRequest(),
    backlog: () => spool.backlog(),
  })
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`)
  const done = AbortSignal.any([stop, enough.signal])
  if (!done.aborted) await new Promise((resolve) => done.addEventListener('abort', resolve, { once: true }))
  await server.close()
  const report = judgement.report(options.strict, options.minAssessed)
  const harPath = join(options.reportDir, HAR_FILE)
  const paths = [
    ...(await writeReports(report, options.reportDir, undefined, env.GITHUB_STEP_SUMMARY || undefined)),
    harPath,
  ]
  await spool.writeTo(harPath, judgement.secrets.list())
  process.stdout.write(`${summaryLines(report, paths).join('\n')}\n`)
  return report.summary.verdict === 'pass' ? 0 : 1
}
