import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { packageRoot } from '../../src/core/package-root.js'
import type { Report } from '../../src/core/report.js'
import { FIXED_SEED } from '../support/run.js'
import { readWorkflow, runJob, type JobRun } from '../support/workflow.js'

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

/** Beside it: the published declarations refuse a check ID, fault or allowance name the catalogue does not have. */
const CONSUMER_TYPOS = `import type { RunOptions } from 'ipts-conformance'

// @ts-expect-error: no check has the ID auth/missing-kye
export const only: RunOptions['only'] = ['auth/missing-kye']
// @ts-expect-error: no check has the ID auth/missing-kye
export const waivers: RunOptions['waivers'] = [{ check: 'auth/missing-kye', reason: 'ticket 42' }]
// @ts-expect-error: no fault is named quota-retry-after-0, no allowance always-gzipped
export const reference: RunOptions['reference'] = { faults: ['quota-retry-after-0'], allowances: ['always-gzipped'] }
`

const NPM_ENV = { npm_config_audit: 'false', npm_config_fund: 'false', npm_config_prefer_offline: 'true' }
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, ...NPM_ENV } })

/** The one tarball the tests of this file install, packed once. */
let tarball: string
beforeAll(() => {
  const work = mkdtempSync(join(tmpdir(), 'ipts-tarball-'))
  // dist/ is built by the self-tests' global setup; --ignore-scripts packs it as it is rather than rebuild under other
  // tests' feet.
  tarball = join(
    work,
    npm(['pack', '--ignore-scripts', '--silent', '--pack-destination', work], packageRoot).trim().split('\n').at(-1)!,
  )
})

/** The size of a folder's files, as du --apparent-size counts it. */
function bytesIn(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0)
}

/** An empty project (package.json only) in a temporary folder, outside this repository (no node_modules above it). */
function emptyProject(name: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'ipts-consumer-')), name)
  mkdirSync(dir)
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }))
  return dir
}

describe('the packed tarball, installed into a TypeScript project', () => {
  test('typechecks import { runConformance } from "ipts-conformance" under nodenext, and runs it with plain node', () => {
    const consumer = emptyProject('consumer')
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
    writeFileSync(join(consumer, 'typos.ts'), CONSUMER_TYPOS)
    npm(['install', '--omit=dev', tarball], consumer)
    expect(
      existsSync(join(consumer, 'node_modules', 'vitest')),
      'vitest, an optional peer dependency, is not installed',
    ).toBe(false)
    expect(bytesIn(join(consumer, 'node_modules')), 'the production install, the package included').toBeLessThan(
      15 * 2 ** 20,
    )
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

describe('the vitest preset (ipts-conformance/vitest), from the packed tarball', () => {
  const VITEST = join(packageRoot, 'node_modules', 'vitest')
  const RUN_ENV = { PATH: process.env.PATH, NO_COLOR: '1', CI: 'true', IPTS_SEED: String(FIXED_SEED), IPTS_RUNS: '5' }

  test('a project with the one-line vitest.config.mjs and vitest beside the package runs the suite with npx vitest run; without vitest, one line says to install it, exit 2', () => {
    const consumer = emptyProject('vitest-consumer')
    writeFileSync(join(consumer, 'vitest.config.mjs'), "export { default } from 'ipts-conformance/vitest'\n")
    npm(['install', tarball], consumer)

    // vitest run from elsewhere (as npx runs it from its cache) while the project has none beside the package.
    const without = spawnSync(process.execPath, [join(VITEST, 'vitest.mjs'), 'run'], {
      cwd: consumer,
      env: RUN_ENV,
      encoding: 'utf8',
    })
    expect(without.status, without.stderr).toBe(2)
    expect(`${without.stdout}${without.stderr}`.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^ipts-conformance: the vitest mode needs vitest installed beside ipts-conformance: npm install --save-dev vitest@'\^4\.\d+\.\d+'$/,
      ),
    ])

    const version = JSON.parse(readFileSync(join(VITEST, 'package.json'), 'utf8')).version as string
    npm(['install', '--save-dev', `vitest@${version}`], consumer)
    const run = spawnSync('npx', ['--no-install', 'vitest', 'run'], {
      cwd: consumer,
      env: { ...RUN_ENV, ...NPM_ENV },
      encoding: 'utf8',
    })
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0)
    expect(run.stdout, "the test files are the package's own").toMatch(/dist\/suites\/auth\.test\.js/)
    const reportDir = join(consumer, 'conformance-report')
    for (const file of ['report.json', 'report.md', 'junit.xml', 'report.html', 'exchanges.har'])
      expect(existsSync(join(reportDir, file)), file).toBe(true)
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as Report
    expect(report.target.embedded).toBe(true)
    expect(report.seed).toBe(FIXED_SEED)
    expect(report.summary.verdict).toBe('pass')
    expect(report.checks.filter((c) => c.status === 'passed').length, 'checks passed').toBeGreaterThan(60)
  }, 600_000)
})

describe('examples/conformance.yml, its shell steps run as written', () => {
  const workflow = readWorkflow(join(packageRoot, 'examples', 'conformance.yml'))
  // The runner's own environment; no deployment's variable or secret is set, so each run targets the embedded
  // reference.
  // The runs are narrowed to the auth checks (IPTS_CHECK, as an environment's variable could): what this proves is the
  // steps; the whole suite from the tarball runs in the tests above.
  const IPTS_CHECK = 'auth/missing-key,auth/unknown-key,auth/query-key-not-accepted'
  const runner = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NO_COLOR: '1',
    CI: 'true',
    IPTS_SEED: String(FIXED_SEED),
    IPTS_CHECK,
    ...NPM_ENV,
  }
  const failedStep = (job: JobRun) => job.steps.find((step) => step.code !== 0)

  test('installs from a pinned source: a git URL at a full commit SHA', () => {
    expect(workflow.env?.IPTS_CONFORMANCE).toMatch(/^git\+https:\/\/.+\.git#[0-9a-f]{40}$/)
  })

  test('each deployment of the matrix is installed, run and kept; the next day compares with its previous report; compare lines them up', () => {
    const day = () => ({ current: mkdtempSync(join(tmpdir(), 'ipts-artefacts-')) })
    const first = { ...day(), previous: mkdtempSync(join(tmpdir(), 'ipts-artefacts-')) }
    const deployments = workflow.jobs.conformance!.strategy!.matrix!.deployment as string[]
    const install = { IPTS_CONFORMANCE: tarball }
    for (const deployment of deployments) {
      const job = runJob(
        workflow,
        'conformance',
        { matrix: { deployment }, vars: {}, secrets: {} },
        first,
        runner,
        install,
      )
      expect(failedStep(job), deployment).toBeUndefined()
      expect(job.steps.map((step) => step.name)).toEqual(['Install ipts-conformance', 'Run the conformance suite'])
      expect(existsSync(join(job.runnerTemp, 'ipts', 'node_modules', 'vitest')), 'vitest is not installed').toBe(false)
      const report = JSON.parse(
        readFileSync(join(first.current, `conformance-report-${deployment}`, 'report.json'), 'utf8'),
      ) as Report
      expect(report.summary.verdict).toBe('pass')
      expect(report.target.embedded).toBe(true)
      expect(report.checks.filter((c) => c.status === 'passed').map((c) => c.id)).toEqual(
        expect.arrayContaining(IPTS_CHECK.split(',')),
      )
      expect(readFileSync(job.stepSummary, 'utf8'), 'report.md in the job summary').toMatch(/^## /m)
    }

    const compare = runJob(workflow, 'compare', {}, first, runner, install)
    expect(failedStep(compare)).toBeUndefined()
    const comparison = readFileSync(join(compare.workspace, 'comparison', 'compare.md'), 'utf8')
    for (const deployment of deployments) expect(comparison).toContain(`conformance-report-${deployment}`)
    expect(readFileSync(compare.stepSummary, 'utf8')).toBe(comparison)

    const next = { ...day(), previous: first.current }
    const again = runJob(
      workflow,
      'conformance',
      { matrix: { deployment: deployments[0]! }, vars: {}, secrets: {} },
      next,
      runner,
      install,
    )
    expect(failedStep(again)).toBeUndefined()
    expect(readFileSync(join(next.current, `conformance-report-${deployments[0]}`, 'report.md'), 'utf8')).toContain(
      '### Compared with the baseline',
    )
  }, 900_000)
})
