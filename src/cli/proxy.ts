import { join } from 'node:path'
import { HAR_FILE } from '../har/write.js'
import { RunSession, withSecretsRedacted } from '../runner/session.js'
import { HarSpool } from '../traffic/har-spool.js'
import { TrafficJudgement } from '../traffic/judgement.js'
import { startProxyServer } from '../traffic/proxy-server.js'
import { UsageError } from '../core/errors.js'
import { settingDefaults } from '../core/defaults.js'
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
    'A validating reverse proxy: forwards every request and response unchanged and judges each exchange as check-har does.\nWebSocket upgrades are tunnelled, their messages recorded in exchanges.har and judged against --profile’s realtime section.\nPrints {"url": …} when it listens; on SIGINT or SIGTERM, or after --max-requests, writes the reports and exchanges.har.\nExit: the verdict’s (0 or 1) after --max-requests; 130 after SIGINT, 143 after SIGTERM (the verdict is in the reports).',
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
  baseline?: string
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
    baseline: values.baseline as string | undefined,
    profile: values.profile as string | undefined,
  }
}

/**
 * ipts-conformance proxy: forwards and judges until SIGINT or SIGTERM, --max-requests, or the caller's stop (in
 * process); the run session writes the reports and the HAR. Returns the exit code: 130 or 143 after the signal, as a
 * process it ended (the verdict is in the reports), else the verdict's.
 */
export async function proxy(options: ProxyOptions, env: NodeJS.ProcessEnv, stop?: AbortSignal): Promise<number> {
  const session = await RunSession.open(options, {
    reportDir: options.reportDir,
    baseline: options.baseline,
    env,
    stdout: process.stdout,
  })
  const judgement = new TrafficJudgement('proxy', options.upstream, await trafficProfile(options.profile))
  const signals = session.stopOnSignals()
  try {
    return await withSecretsRedacted(
      () => judgement.secrets.list(),
      async () => {
        const spool = await HarSpool.create(judgement.secrets)
        let exchanges = 0
        const enough = new AbortController()
        const server = await startProxyServer({
          upstream: options.upstream,
          host: options.host,
          port: options.port,
          requestTimeoutMs: options.timeoutMs,
          // The same cap on a kept body as a run's: past it, the proxy forwards and judges the body as truncated.
          maxBodyBytes: settingDefaults.maxBodyBytes,
          onExchange(exchange, upstreamFailed) {
            spool.add(upstreamFailed ? judgement.upstreamFailed(exchange) : judgement.judge(exchange))
            if (options.maxRequests !== undefined && ++exchanges >= options.maxRequests) enough.abort()
          },
          onChannel(exchange) {
            judgement.channel(exchange)
            spool.add(exchange)
            if (options.maxRequests !== undefined && ++exchanges >= options.maxRequests) enough.abort()
          },
          onMalformedRequest: () => judgement.malformedRequest(),
          backlog: () => spool.backlog(),
        })
        process.stdout.write(`${JSON.stringify({ url: server.url })}\n`)
        const done = AbortSignal.any([signals.signal, enough.signal, ...(stop ? [stop] : [])])
        if (!done.aborted) await new Promise((resolve) => done.addEventListener('abort', resolve, { once: true }))
        await server.close()
        const harPath = join(options.reportDir, HAR_FILE)
        return session.publish(session.report(judgement.findings()), {
          path: harPath,
          write: () => spool.writeTo(harPath, judgement.secrets.list()),
        })
      },
    )
  } finally {
    signals.release()
  }
}
