import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { main, subcommands } from '../../src/cli/main.js'
import { parseCli } from '../../src/cli/options.js'
import { runConformance } from '../../src/runner/run.js'
import { captureOutput, cliRun } from '../support/output.js'
import { packageJson } from '../../src/core/package-root.js'
import { FIXED_SEED } from '../support/run.js'

/** A file where a report folder is asked for: found before the run, not after it. */
const REPORT_DIR_FILE = join(mkdtempSync(join(tmpdir(), 'ipts-report-dir-')), 'a-file')
writeFileSync(REPORT_DIR_FILE, 'not a folder')

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the command line', () => {
  test('runs the suite against the embedded reference and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-cli-'))
    const { out } = captureOutput()
    // A long --timeout: a timeout against the embedded reference would be the load of a shared machine, not a finding.
    const code = await main(['--report-dir', dir, '--seed', String(FIXED_SEED), '--timeout', '60000'], {})
    vi.restoreAllMocks()
    expect(code, out.join('')).toBe(0)
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))
    expect(report.summary.verdict).toBe('pass')
    expect(report.summary.passed).toBeGreaterThan(0)
    expect(report.seed).toBe(FIXED_SEED)
  })

  test('exits 1 and names the failing check when a fault is switched on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-cli-'))
    const { out } = captureOutput()
    const code = await main(
      // The check the fault breaks, alone: the exit code and the line naming it are the run's, whatever it selects.
      [
        '--report-dir',
        dir,
        '--seed',
        String(FIXED_SEED),
        '--fault',
        'market-paused-as-string',
        '--check',
        'shapes/market-members',
      ],
      {},
    )
    vi.restoreAllMocks()
    expect(code).toBe(1)
    expect(out.join('')).toMatch(/^failed shapes\/market-members /m)
  })

  test.each([
    [['--base-url', 'http://127.0.0.1:9', '--api-key', 'some-key'], /unreachable/],
    [['--trader', 'nope'], /--trader/],
    [['--intent-hash', '0x12'], /--intent-hash/],
    [['--base-url', 'ftp://example.test'], /--base-url/],
    [['--runs', 'many'], /--runs/],
    [['--concurrency', '0'], /--concurrency/],
    [['--bogus'], /unknown flag --bogus/],
    [['--intent-hash', `0x${'a'.repeat(64)}`], /--intent-receipt is required/],
    [['--config', '/nonexistent/ipts.yaml'], /--config/],
    [
      ['--check', 'auth/missing-kye'],
      /^ipts-conformance: --check: no check has the ID "auth\/missing-kye" \(closest: auth\/missing-key, /,
    ],
    [['--check', 'no/such-check'], /--check: no check has the ID "no\/such-check"/],
    [
      ['--fault', 'no-such-fault'],
      /unknown reference fault no-such-fault \(ipts-conformance reference --list names them all\)/,
    ],
    [['bogus'], /unknown subcommand "bogus"/],
    [['help', 'bogus'], /unknown subcommand "bogus"/],
    [
      ['profile', 'bogus'],
      /^ipts-conformance: profile: unknown subcommand "bogus" \(one of: init \[FILE\], validate FILE; see ipts-conformance help profile\)$/,
    ],
    [['--runs', '-1'], /^ipts-conformance: --runs must be from 1 to 10000, got -1$/],
    [
      ['--base-url', '--trader', `0x${'a'.repeat(40)}`],
      /^ipts-conformance: --base-url needs a value \(one that begins with - is written --base-url=VALUE\)$/,
    ],
    [['run', 'extra'], /unexpected argument "extra"/],
    [['--report-dir', REPORT_DIR_FILE], /--report-dir must name a folder, but .* is a file/],
    [['--report-dir', join(REPORT_DIR_FILE, 'reports')], /--report-dir must name a folder, but .* is a file/],
    [['check-har', REPORT_DIR_FILE, '--report-dir', REPORT_DIR_FILE], /--report-dir must name a folder/],
    [['compare', REPORT_DIR_FILE, REPORT_DIR_FILE, '--report-dir', REPORT_DIR_FILE], /--report-dir must name a folder/],
  ])('%j exits 2 with one line', async (argv, pattern) => {
    const { out, err } = captureOutput()
    const code = await main(argv as string[], {})
    vi.restoreAllMocks()
    expect(code).toBe(2)
    expect(out.join('')).toBe('')
    const lines = err.join('').trimEnd().split('\n')
    expect(lines, 'one line, no stack trace').toHaveLength(1)
    expect(lines[0]).toMatch(pattern)
  })

  test('a bad value names where it came from: the environment variable, or the config file and its key', async () => {
    const config = join(mkdtempSync(join(tmpdir(), 'ipts-config-')), 'ipts.yaml')
    writeFileSync(config, 'runs: lots\n')
    const { err } = captureOutput()
    expect(await main([], { IPTS_RUNS: '-1' })).toBe(2)
    expect(await main(['--config', config], {})).toBe(2)
    vi.restoreAllMocks()
    expect(parseCli(['--runs', '3', '--config', config], {}).run.settings.runs, 'a flag wins over the file').toBe(3)
    const lines = err.join('').trimEnd().split('\n')
    expect(lines.slice(0, 2)).toEqual([
      'ipts-conformance: IPTS_RUNS must be from 1 to 10000, got -1',
      `ipts-conformance: runs in ${config} must be a whole number, got "lots"`,
    ])
  })

  test('each subcommand has its own --help; the top-level help lists the subcommands', async () => {
    const { out } = captureOutput()
    expect(await main(['reference', '--help'], {})).toBe(0)
    const referenceHelp = out.splice(0).join('')
    expect(await main(['reference', 'sign', '--help'], {})).toBe(0)
    const signHelp = out.splice(0).join('')
    expect(await main(['--help'], {})).toBe(0)
    const topLevel = out.splice(0).join('')
    vi.restoreAllMocks()
    expect(referenceHelp).toMatch(/^Usage: ipts-conformance reference/)
    expect(referenceHelp).toContain('--fault')
    expect(referenceHelp).not.toContain('--base-url')
    expect(referenceHelp, "the server's help tells of its signer").toContain('reference sign intent|cancellation')
    // The signer is loaded without the server (a profile's writes start it once for each body): its help is its own.
    expect(signHelp).toMatch(/^ipts-conformance reference sign intent\|cancellation \[HASH\] prints/)
    expect(signHelp).not.toContain('--fault')
    // Each subcommand on a line of its own, with what it does beside its name.
    for (const name of subcommands.map((s) => s.name)) expect(topLevel).toMatch(new RegExp(`^  ${name} +\\S`, 'm'))
  })

  test("the top-level help: its title, the subcommands aligned beside what each does, the run's help, the exit codes", async () => {
    const { out } = captureOutput()
    expect(await main(['--help'], {})).toBe(0)
    expect(await main(['run', '--help'], {})).toBe(0)
    vi.restoreAllMocks()
    const [topLevel, runHelp] = out.map((text) => text.split('\n'))
    const width = Math.max(...subcommands.map((s) => s.name.length))
    expect(subcommands.some((s) => s.name.length < width)).toBe(true)
    expect(topLevel!.slice(0, 4 + subcommands.length)).toEqual([
      `ipts-conformance ${packageJson.version}: conformance suite for the Indexed-Protocol Trading Service REST interface`,
      '',
      'Subcommands (ipts-conformance help SUBCOMMAND, or SUBCOMMAND --help, for each):',
      ...subcommands.map((s) => `  ${s.name.padEnd(width)}  ${s.summary}`),
      '',
    ])
    // The run's own help (its usage, flags and --help line) but its --help line, which the top level says its own way.
    const runLines = runHelp!.slice(0, -3)
    expect(runHelp!.slice(-3)).toEqual(['  --help, -h', '      print this help', ''])
    expect(topLevel!.slice(4 + subcommands.length, 4 + subcommands.length + runLines.length)).toEqual(runLines)
    expect(topLevel!.slice(4 + subcommands.length + runLines.length)).toEqual([
      '  --help, -h',
      '      print this help (also: ipts-conformance help [SUBCOMMAND])',
      '  --version',
      '      print the version',
      '',
      'Exit codes: 0 no MUST check failed (nor a SHOULD check, with --strict); 1 a check failed; 2 a usage error, or the preflight found the run could not judge the deployment (an unreachable target, the wrong scheme, a refused key, an unwritable report folder).',
      '',
    ])
  })

  test('an unknown subcommand names every subcommand; reference and reference sign run through main', async () => {
    const { out, err } = captureOutput()
    expect(await main(['bogus'], {})).toBe(2)
    expect(await main(['reference', '--list'], {})).toBe(0)
    const list = out.splice(0).join('')
    expect(await main(['reference', 'sign', 'intent'], {})).toBe(0)
    const signed = out.splice(0).join('')
    vi.restoreAllMocks()
    expect(err.join('')).toBe(
      `ipts-conformance: unknown subcommand "bogus" (one of ${subcommands.map((s) => s.name).join(', ')}; see --help)\n`,
    )
    expect(list).toMatch(/^Faults \(each breaks exactly the checks it names\):\n/)
    expect(signed).toMatch(/^\{.*\}\n$/)
    expect(Object.keys(JSON.parse(signed) as object).length).toBeGreaterThan(0)
  })

  test('prints the write plan before the first write, and a line for each round of a soak', async () => {
    const writes = await cliRun(['--allow-writes', '--check', 'writes/missing-key-refused', '--seed', '1'])
    expect(writes.code, writes.err).toBe(0)
    expect(writes.out).toMatch(
      /^Writes \(--allow-writes\): 1 checks send at most \d+ submissions, each of which may create an order, to:\n {2}\S/m,
    )
    // A soak reads again only for the rules judged across responses: one of them is the check the run selects.
    const soak = await cliRun(['--check', 'relations/request-id-unique', '--duration', '1s', '--seed', '1'])
    expect(soak.code, soak.err).toBe(0)
    expect(soak.out).toMatch(/^soak: round 1 done, \d+ s of 1 s, \d+ requests, \d+ rules? with findings so far$/m)
    expect(writes.out, 'no soak, no round line').not.toMatch(/^soak: /m)
  })

  test('a run through the API that may write sends its writes without an onWritePlan to show them to', async () => {
    const report = await runConformance({
      settings: { allowWrites: true, seed: FIXED_SEED },
      only: ['writes/missing-key-refused'],
    })
    expect(report.checks.find((c) => c.id === 'writes/missing-key-refused')?.status).toBe('passed')
  })

  test('-h, help and help SUBCOMMAND print the help that --help prints', async () => {
    const { out } = captureOutput()
    const printed = async (argv: string[]) => {
      expect(await main(argv, {}), argv.join(' ')).toBe(0)
      return out.splice(0).join('')
    }
    const topLevel = await printed(['--help'])
    const reference = await printed(['reference', '--help'])
    const [short, word, subShort, subWord] = [
      await printed(['-h']),
      await printed(['help']),
      await printed(['reference', '-h']),
      await printed(['help', 'reference']),
    ]
    vi.restoreAllMocks()
    expect(topLevel).toMatch(/^ipts-conformance \d/)
    expect(short, '-h').toBe(topLevel)
    expect(word, 'help').toBe(topLevel)
    expect(subShort, 'reference -h').toBe(reference)
    expect(subWord, 'help reference').toBe(reference)
  })

  test('profile without a subcommand lists its subcommands, as profile --help does', async () => {
    const { out, err } = captureOutput()
    expect(await main(['profile'], {})).toBe(0)
    const alone = out.splice(0).join('')
    expect(await main(['help', 'profile'], {})).toBe(0)
    const help = out.splice(0).join('')
    vi.restoreAllMocks()
    expect(err.join('')).toBe('')
    expect(alone).toMatch(/^Usage: ipts-conformance profile SUBCOMMAND\n[\s\S]*Subcommands:\n {2}init \[FILE\]\n/)
    expect(help.startsWith(alone.trimEnd()), 'help profile adds only the --help line').toBe(true)
  })

  test('a negative number after a flag is its value', () => {
    expect(parseCli(['--seed', '-5'], {}).run.settings.seed).toBe(-5)
  })

  test('--help and --version exit 0', async () => {
    const { out } = captureOutput()
    expect(await main(['--help'], {})).toBe(0)
    expect(await main(['--version'], {})).toBe(0)
    vi.restoreAllMocks()
    expect(out.join('')).toContain('--base-url')
    expect(out.join('')).toMatch(/^\d+\.\d+\.\d+$/m)
  })
})

describe('a selection of checks', () => {
  test('with an ID no check has is refused by the API too, naming the closest, before any request', async () => {
    // @ts-expect-error: a JavaScript caller's typo, which tsc refuses (test/meta/catalogue-types.test.ts)
    await expect(runConformance({ only: ['config/answers-object'] })).rejects.toThrow(
      /^only: no check has the ID "config\/answers-object" \(closest: config\/answers-json, /,
    )
  })

  test('from IPTS_CHECK names the variable', () => {
    expect(() => parseCli([], { IPTS_CHECK: 'auth/missing-kye' })).toThrow(
      /^IPTS_CHECK: no check has the ID "auth\/missing-kye" \(closest: auth\/missing-key, /,
    )
  })
})

describe('settings', () => {
  test('flags win over the environment, the environment over the config file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-config-'))
    const file = join(dir, 'ipts.yaml')
    writeFileSync(
      file,
      'runs: 3\nconcurrency: 2\nseed: 11\nwaivers:\n  - check: shapes/market-members\n    reason: vendor ticket 42\n',
    )
    const options = parseCli(['--config', file, '--runs', '9'], { IPTS_RUNS: '5', IPTS_CONCURRENCY: '4' })
    expect(options.run.settings.runs).toBe(9)
    expect(options.run.settings.concurrency).toBe(4)
    expect(options.run.settings.seed).toBe(11)
    expect(options.run.waivers).toEqual([{ check: 'shapes/market-members', reason: 'vendor ticket 42' }])
  })

  test('an unknown setting in the config file is a usage error naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-config-'))
    const file = join(dir, 'ipts.yaml')
    writeFileSync(file, 'bogus: 1\n')
    expect(() => parseCli(['--config', file], {})).toThrow(/unknown setting "bogus"/)
    writeFileSync(file, 'concurency: 2\n')
    expect(() => parseCli(['--config', file], {})).toThrow(
      /unknown setting "concurency" in \S+ \(closest: concurrency, /,
    )
  })

  test('a config file that is not YAML is one line: the file, the line, the column and what is wrong', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ipts-config-')), 'ipts.yaml')
    writeFileSync(file, 'runs: 3\ncheck: [auth/missing-key,\n')
    expect(() => parseCli(['--config', file], {})).toThrow(
      new RegExp(
        `^--config: ${file} is not valid YAML at line 3, column 1: Flow sequence in block collection must be sufficiently indented and end with a \\]$`,
      ),
    )
  })
})
