import { readHarEntries } from '../har/read.js'
import { exchangeOf, type RecordedExchange } from '../har/to-exchange.js'
import { settingDefaults } from '../core/defaults.js'
import { BodyCollector, decodeUtf8, parsedResponse } from '../http/response-body.js'
import { RunSession, withSecretsRedacted } from '../runner/session.js'
import { TrafficJudgement } from '../traffic/judgement.js'
import {
  parseSubcommandArgs,
  reportFlags,
  subcommandHelp,
  trafficProfile,
  trafficProfileFlag,
} from './subcommand-args.js'

const flags = [...reportFlags, trafficProfileFlag]

export const checkHarHelp = (): string =>
  subcommandHelp(
    'ipts-conformance check-har FILE.har [flags]',
    'Judges recorded traffic offline: each entry to an operation of the contract by everything one exchange can show.\nChecks that need requests of their own are reported not assessed (recorded traffic).',
    flags,
  )

export interface CheckHarOptions {
  file: string
  reportDir: string
  strict: boolean
  minAssessed?: number
  baseline?: string
  profile?: string
}

export function parseCheckHarArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): CheckHarOptions {
  const { values, positionals } = parseSubcommandArgs(argv, flags, 1, env)
  return {
    file: positionals[0]!,
    reportDir: values['report-dir'] as string,
    strict: values.strict === true,
    minAssessed: values['min-assessed'] as number | undefined,
    baseline: values.baseline as string | undefined,
    profile: values.profile as string | undefined,
  }
}

/** ipts-conformance check-har: judges a HAR file; the run session writes the reports; returns the exit code. */
export async function checkHar(options: CheckHarOptions, env: NodeJS.ProcessEnv): Promise<number> {
  const session = await RunSession.open(options, {
    reportDir: options.reportDir,
    baseline: options.baseline,
    env,
    stdout: process.stdout,
  })
  const judgement = new TrafficJudgement(
    'har',
    `recorded traffic: ${options.file}`,
    await trafficProfile(options.profile),
  )
  return withSecretsRedacted(
    () => judgement.secrets.list(),
    async () => {
      // The file is read twice, an entry at a time, never held whole: every key and receipt of the file is learned
      // first,
      // before any evidence is kept, so that all of them are redacted everywhere.
      for await (const { exchange } of recordedExchanges(options.file)) judgement.learn(exchange)
      for await (const { exchange, bodyRecorded, senders } of recordedExchanges(options.file))
        judgement.judge(exchange, bodyRecorded, senders)
      return session.publish(session.report(judgement.findings()))
    },
  )
}

async function* recordedExchanges(file: string): AsyncGenerator<RecordedExchange> {
  for await (const entry of readHarEntries(file, 'check-har'))
    yield capped(await exchangeOf(entry), settingDefaults.maxBodyBytes)
}

/**
 * A recorded body over a run's cap (4 MiB) is judged as a run judges one: cut there, marked truncated, its start kept.
 */
export function capped(recorded: RecordedExchange, maxBodyBytes: number): RecordedExchange {
  const response = recorded.exchange.response
  if (!response || Buffer.byteLength(response.body) <= maxBodyBytes) return recorded
  const collector = new BodyCollector(maxBodyBytes)
  collector.add(Buffer.from(response.body))
  return {
    ...recorded,
    exchange: {
      ...recorded.exchange,
      response: parsedResponse(response.status, response.headers, decodeUtf8(collector.bytes()), true),
    },
  }
}
