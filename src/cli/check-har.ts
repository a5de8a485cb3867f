import { summaryLines } from '../../reporters/console.js'
import { colourFor } from '../../reporters/progress.js'
import { writeReports } from '../../reporters/write.js'
import { readHar } from '../har/read.js'
import { exchangeOf } from '../har/to-exchange.js'
import { TrafficJudgement } from '../traffic/judgement.js'
import { parseSubcommandArgs, reportFlags, subcommandHelp, trafficProfile, trafficProfileFlag } from './subcommand-args.js'

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
  profile?: string
}

export function parseCheckHarArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): CheckHarOptions {
  const { values, positionals } = parseSubcommandArgs(argv, flags, 1, env)
  return { file: positionals[0]!, reportDir: values['report-dir'] as string, strict: values.strict === true, profile: values.profile as string | undefined }
}

/** ipts-conformance check-har: judges a HAR file and writes the reports; returns the exit code. */
export async function checkHar(options: CheckHarOptions, env: NodeJS.ProcessEnv): Promise<number> {
  const entries = await readHar(options.file, 'check-har')
  const judgement = new TrafficJudgement('har', `recorded traffic: ${options.file}`, await trafficProfile(options.profile))
  const recorded = await Promise.all(entries.map((entry) => exchangeOf(entry)))
  // Every key and receipt of the file is learned before any evidence is kept, so that all of them are redacted everywhere.
  for (const { exchange } of recorded) judgement.learn(exchange)
  for (const { exchange, bodyRecorded } of recorded) judgement.judge(exchange, bodyRecorded)
  const report = judgement.report(options.strict)
  const paths = await writeReports(report, options.reportDir, undefined, env.GITHUB_STEP_SUMMARY || undefined)
  process.stdout.write(`${summaryLines(report, paths, undefined, colourFor(process.stdout, env)).join('\n')}\n`)
  return report.summary.verdict === 'pass' ? 0 : 1
}
