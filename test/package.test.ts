import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { packageRoot } from '../src/core/package-root.js'
import { FIXED_SEED } from './support/run.js'

const TSC = join(packageRoot, 'node_modules', 'typescript', 'bin', 'tsc')

/** What a team writes: the example of docs/vitest-and-api.md, under moduleResolution nodenext. */
const CONSUMER = `import { runConformance, writeReports, type Report } from 'ipts-conformance'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const report: Report = await runConformance({ settings: { seed: ${FIXED_SEED}, runs: 5 } })
const paths: string[] = await writeReports(report, 'conformance-report')
const schema = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('ipts-conformance/specs/report.schema.json')), 'utf8')) as { title: string }
console.log(JSON.stringify({ verdict: report.summary.verdict, checks: report.checks.length, paths, schema: schema.title }))
`

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' },
  })

describe('the packed tarball, installed into a TypeScript project', () => {
  test('typechecks import { runConformance } from "ipts-conformance" under nodenext, and runs it with plain node', () => {
    const work = mkdtempSync(join(tmpdir(), 'ipts-consumer-'))
    // dist/ is built by the self-tests' global setup; --ignore-scripts packs it as it is rather than rebuild under
    // other tests' feet.
    const tarball = npm(['pack', '--ignore-scripts', '--silent', '--pack-destination', work], packageRoot)
      .trim()
      .split('\n')
      .at(-1)!
    const consumer = join(work, 'consumer')
    execFileSync('mkdir', [consumer])
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          outDir: 'out',
          types: ['node'],
          typeRoots: [join(packageRoot, 'node_modules', '@types')],
        },
      }),
    )
    writeFileSync(join(consumer, 'main.ts'), CONSUMER)
    npm(['install', '--prefer-offline', '--omit=dev', join(work, tarball)], consumer)
    execFileSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: consumer, encoding: 'utf8' })
    const out = execFileSync(process.execPath, ['out/main.js'], {
      cwd: consumer,
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    })
    const result = JSON.parse(out.trim().split('\n').at(-1)!)
    expect(result.verdict).toBe('pass')
    expect(result.checks).toBeGreaterThan(60)
    expect(result.paths).toHaveLength(4)
    expect(result.schema).toBe('ipts-conformance report.json')
    expect(readFileSync(join(consumer, 'conformance-report', 'report.json'), 'utf8')).toContain('"verdict": "pass"')
  }, 600_000)
})
