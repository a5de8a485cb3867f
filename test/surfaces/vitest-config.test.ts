import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { parseCli } from '../../src/cli/options.js'
import { isUserFixable, UsageError } from '../../src/core/errors.js'
import { packageRoot } from '../../src/core/package-root.js'
import type { Report } from '../../src/core/report.js'
import { FIXED_SEED } from '../support/run.js'
import { startReferenceServer } from '../../src/reference/server.js'

const VITEST = join(packageRoot, 'node_modules', 'vitest', 'vitest.mjs')

/** The environment of `npx vitest run` in these tests: the given IPTS_* variables over a fixed seed and 10 runs. */
const vitestEnv = (dir: string, env: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  NO_COLOR: '1',
  CI: 'true',
  IPTS_REPORT_DIR: dir,
  IPTS_SEED: String(FIXED_SEED),
  IPTS_RUNS: '10',
  ...env,
})

/**
 * `npx vitest run ARGS` in the project root, as a team runs it, with only the given IPTS_* variables set; output() is
 * what it printed so far.
 */
function spawnVitest(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; output(): string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ipts-vitest-'))
  const child = spawn(process.execPath, [VITEST, 'run', ...args], { cwd: packageRoot, env: vitestEnv(dir, env) })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  return { child, output: () => output, dir }
}

/** vitest run to its end: its exit code, everything it printed, and its report folder. */
function vitestRun(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string; dir: string }> {
  const { child, output, dir } = spawnVitest(args, env)
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output: output(), dir })))
}

/**
 * Vite bundles the config with rolldown, which prints a PLUGIN_TIMINGS notice before the config runs when that build
 * takes over 3 s (a loaded machine): the notice is the bundler's, not ours, and says nothing about the suite.
 */
const withoutBundlerNotice = (output: string) =>
  output.replace(/^.*\[PLUGIN_TIMINGS\][\s\S]*?(?=^ipts-conformance:)/m, '')

const reportIn = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report
const failed = (report: Report) => report.checks.filter((c) => c.status === 'failed').map((c) => c.id)

describe('npx vitest run (the top-level vitest.config.ts)', () => {
  test('runs the suite against the embedded reference, writes the four reports and exchanges.har, and exits 0', async () => {
    const { code, output, dir } = await vitestRun([], {})
    expect(code, output).toBe(0)
    for (const file of ['report.json', 'report.md', 'junit.xml', 'report.html', 'exchanges.har'])
      expect(existsSync(join(dir, file)), file).toBe(true)
    const report = reportIn(dir)
    expect(report.target.embedded).toBe(true)
    expect(report.seed).toBe(FIXED_SEED)
    expect(report.summary.verdict).toBe('pass')
    expect(report.checks.filter((c) => c.status === 'passed').length, 'checks passed').toBeGreaterThan(60)
  })

  test('with -t and a fault that fails only a SHOULD check: the check fails and the exit code follows the verdict, 0', async () => {
    const { code, output, dir } = await vitestRun(['-t', 'query string'], { IPTS_FAULT: 'query-key-accepted' })
    const report = reportIn(dir)
    expect(failed(report)).toEqual(['auth/query-key-not-accepted'])
    expect(report.summary.verdict).toBe('pass')
    expect(code, output).toBe(0)
  })

  test("carries the coverage of the workers' responses into the report, and IPTS_MIN_ASSESSED fails a run that assessed less: exit 1, saying why", async () => {
    const { code, output, dir } = await vitestRun(['-t', 'query string'], { IPTS_MIN_ASSESSED: '100' })
    const report = reportIn(dir)
    expect(failed(report), 'no check failed').toEqual([])
    const { summary, operations } = report.coverage
    expect(summary).toMatchObject({ minimum: 100 })
    expect(summary.assessed).toBeGreaterThan(0)
    expect(summary.assessed).toBeLessThan(summary.observable)
    const seen = operations.reduce((sum, op) => sum + Object.values(op.statuses).reduce((n, count) => n + count, 0), 0)
    expect(seen, 'the responses the worker saw').toBeGreaterThan(0)
    expect(operations.reduce((sum, op) => sum + op.judged, 0)).toBe(seen)
    expect(report.summary.verdict).toBe('fail')
    expect(output).toMatch(/^FAIL: .*below the 100% --min-assessed asks for$/m)
    expect(code, output).toBe(1)
  })

  test('with a file path, only that concern runs; writes are sent only with IPTS_ALLOW_WRITES=1: the plan is printed and a MUST write fault fails its checks, exit 1; with any other value none is sent', async () => {
    // A run's time bound is also its signing command's: on a loaded machine a start of the signer took over 10 s.
    const writing = await vitestRun(['suites/writes.test.ts'], {
      IPTS_ALLOW_WRITES: '1',
      IPTS_FAULT: 'replay-creates-second-order',
      IPTS_TIMEOUT: '60000',
    })
    expect(writing.output).toMatch(/Writes \(--allow-writes\): 12 checks send at most 33 submissions/)
    const written = reportIn(writing.dir)
    expect(failed(written), writing.output.slice(-3000)).toEqual([
      'writes/replay-creates-no-second-order',
      'writes/key-reuse-with-another-body-refused',
    ])
    expect(new Set(written.checks.filter((c) => !c.id.startsWith('every-response/')).map((c) => c.concern))).toEqual(
      new Set(['writes']),
    )
    expect(writing.code, writing.output).toBe(1)
    const reading = await vitestRun(['suites/writes.test.ts'], { IPTS_ALLOW_WRITES: 'true' })
    expect(reading.output).not.toMatch(/Writes \(--allow-writes\)/)
    expect(
      reportIn(reading.dir)
        .checks.filter((c) => c.id.startsWith('writes/'))
        .map((c) => c.status),
    ).toEqual(Array(11).fill('skipped'))
  })

  // A value the settings refuse, and a target that does not answer: the config's two ways to a mistake a user fixes.
  test.each([
    [{ IPTS_RUNS: '-1' }, /^ipts-conformance: IPTS_RUNS must be from 1 to 10000, got -1$/],
    [
      { IPTS_BASE_URL: 'http://127.0.0.1:1', IPTS_API_KEY: 'some-key' },
      /^ipts-conformance: target http:\/\/127\.0\.0\.1:1 is unreachable \(ECONNREFUSED\)$/,
    ],
  ])('with %j prints one line and exits 2, as the CLI does', async (env, line) => {
    const { code, output } = await vitestRun([], env)
    expect(code, output).toBe(2)
    expect(withoutBundlerNotice(output).trim().split('\n'), 'one line, no stack trace').toEqual([
      expect.stringMatching(line),
    ])
  })

  // The config reads its settings with parseCli and prints each line of a UsageError as the one above: the other
  // refusals of a variable are that error's message, shown here without a vitest process each.
  test.each([
    [{ IPTS_BASE_URL: 'notaurl' }, /^IPTS_BASE_URL must be an absolute http\(s\) URL, got "notaurl"$/],
    [{ IPTS_CHECK: 'no/such-check' }, /^IPTS_CHECK: no check has the ID "no\/such-check" \(closest: /],
    [{ IPTS_BASE_URL: '' }, /^IPTS_BASE_URL is set but empty/],
    [{ IPTS_BASE_URL: 'http://127.0.0.1:1' }, /^--api-key \(or IPTS_API_KEY\) is required with IPTS_BASE_URL/],
  ])('with %j the settings are refused in one line, as the CLI refuses them', (env, line) => {
    const refusal = (() => {
      try {
        parseCli([], vitestEnv(mkdtempSync(join(tmpdir(), 'ipts-vitest-')), env))
      } catch (error) {
        return error
      }
    })()
    expect(refusal).toBeInstanceOf(UsageError)
    expect(isUserFixable(refusal), 'printed by the config, not thrown').toBe(true)
    expect((refusal as UsageError).message.split('\n'), 'one line').toEqual([expect.stringMatching(line)])
  })
})

describe('npx vitest run interrupted by a signal', () => {
  test.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: writes every report at once from the checks ended so far, marked interrupted, the others not run, and exits %i',
    async (signal, exitCode) => {
      // A slowed reference, so that the signal comes while checks are still under way.
      const reference = await startReferenceServer({ latencyMs: 100 })
      try {
        const { data } = reference
        const { child, output, dir } = spawnVitest(['--reporter=verbose'], {
          IPTS_BASE_URL: reference.baseUrl,
          IPTS_API_KEY: data.apiKey,
          IPTS_RESTRICTED_API_KEY: data.restrictedApiKey,
          IPTS_TRADER: data.trader,
        })
        const exited = once(child, 'exit') as Promise<[number | null, string | null]>
        // vitest's verbose reporter prints each test as it ends: signalled once a few have.
        const ended = () =>
          [...output().matchAll(/^ +✓ suites\/\S+ > (\S+) > (.+?)(?: \d+ms)?$/gm)].map(
            ([, concern, title]) => `${concern} > ${title}`,
          )
        await expect.poll(() => ended().length, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(3)
        const passedBefore = ended()
        child.kill(signal)
        const [code] = await exited
        expect(code, output()).toBe(exitCode)
        const report = reportIn(dir)
        expect(report.interrupted?.by).toBe(signal)
        const passed = new Set(
          report.checks.filter((c) => c.status === 'passed').map((c) => `${c.concern} > ${c.title}`),
        )
        for (const test of passedBefore) expect(passed.has(test), `${test}, ended before the signal`).toBe(true)
        const notRun = report.checks.filter((c) => c.status === 'not run')
        expect(notRun.length, 'checks the signal cut off').toBeGreaterThan(0)
        for (const check of notRun)
          expect(check, check.id).toMatchObject({ interrupted: true, reason: `interrupted by ${signal}` })
        expect(report.summary.verdict, 'the verdict of what ran: the plain reference fails nothing').toBe('pass')
        for (const file of ['report.md', 'junit.xml', 'report.html'])
          expect(readFileSync(join(dir, file), 'utf8'), file).toContain(`INTERRUPTED by ${signal} after `)
        expect(output()).toMatch(
          new RegExp(`^INTERRUPTED by ${signal} after \\d+ of \\d+ checks: the verdict covers only what ran`, 'm'),
        )
      } finally {
        await reference.close()
      }
    },
  )
})
