import { compareWithBaseline, readBaseline } from '../../reporters/baseline.js'
import { summaryLines } from '../../reporters/console.js'
import { colourFor, createProgress } from '../../reporters/progress.js'
import { writeReports } from '../../reporters/write.js'
import { allChecks } from '../checks/index.js'
import { redact, secretsOf, type Secret } from '../http/secrets.js'
import { packageJson } from '../package-root.js'
import { runConformance } from '../runner/run.js'
import { helpText, parseCli } from './options.js'

/** Runs the CLI and returns its exit code; the only caller of process.exit is the bin script. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let secrets: Secret[] = []
  try {
    const options = parseCli(argv, env)
    secrets = secretsOf(options.run.settings)
    if (options.help) {
      process.stdout.write(`${helpText(packageJson.version)}\n`)
      return 0
    }
    if (options.version) {
      process.stdout.write(`${packageJson.version}\n`)
      return 0
    }
    const baseline = options.baseline ? await readBaseline(options.baseline) : undefined
    const progress = createProgress(process.stdout, env, allChecks.length)
    let report
    try {
      report = await runConformance({ ...options.run, onCheck: progress.onCheck })
    } finally {
      progress.end()
    }
    const comparison = baseline && compareWithBaseline(baseline, options.baseline!, report)
    const paths = await writeReports(report, options.reportDir, comparison, env.GITHUB_STEP_SUMMARY || undefined)
    process.stdout.write(`${summaryLines(report, paths, comparison, colourFor(process.stdout, env)).join('\n')}\n`)
    return report.summary.verdict === 'pass' ? 0 : 1
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'IPTS_USAGE' || code === 'IPTS_TARGET_UNREACHABLE') {
      process.stderr.write(`ipts-conformance: ${redact((error as Error).message, secrets)}\n`)
      return 2
    }
    process.stderr.write(`ipts-conformance: internal error: ${redact((error as Error)?.message ?? String(error), secrets)}\n`)
    return 1
  }
}
