import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { validateFlag, type Flag } from '../../src/cli/flags.js'
import { flags, parseCli, RAW_RECORD_WARNING, runHelp } from '../../src/cli/options.js'
import { reportFlags, trafficProfileFlag } from '../../src/cli/subcommand-args.js'
import { behaviourFlags, switchedOnBehaviours } from '../../src/runner/options.js'
import { numberProblem, validateRunOptions, valueProblem } from '../../src/runner/validate-options.js'

/**
 * The values a run's inputs are judged with, just inside and just outside each edge: the control characters a value
 * must not hold, a URL's scheme, query and fragment, a receipt's length, a number's bounds, a duration's units and
 * bounds, and the form of a replay path. A value outside is one clear line naming it, never a silent default.
 */

/** A folder of this file's own, for the config and profile files its tests read. */
const DIR = mkdtempSync(join(tmpdir(), 'ipts-input-edges-'))
let files = 0
/** A file in DIR holding `text`, under a name of its own unless one is given. */
function fileWith(text: string, name = `file-${++files}.yaml`): string {
  const file = join(DIR, name)
  writeFileSync(file, text)
  return file
}
const HASH = `0x${'a'.repeat(64)}`
const ADDRESS = `0x${'c'.repeat(40)}`

describe('valueProblem', () => {
  test.each([
    ['key\u001f', 'holds a control character (U+001F), copied in with the value?'],
    ['key\u007f', 'holds a control character (U+007F), copied in with the value?'],
    ['key\u0000', 'holds a control character (U+0000), copied in with the value?'],
    ['key ~', undefined],
    ['key\u0080', undefined],
  ])('a secret %j: %s', (text, problem) => {
    expect(valueProblem('secret', text)).toBe(problem)
  })

  test('free text may hold a control character', () => {
    expect(valueProblem('text', 'a\tb')).toBeUndefined()
  })

  test.each([
    ['http://127.0.0.1:8080', undefined],
    ['https://example.test/base', undefined],
    ['ftp://example.test', 'must be an http or https URL, got ftp:'],
    ['https://example.test/?a=1', 'must not carry a query or fragment'],
    ['https://example.test/#top', 'must not carry a query or fragment'],
    ['example.test', 'must be an absolute http(s) URL, got "example.test"'],
  ])('a URL %j: %s', (text, problem) => {
    expect(valueProblem('url', text)).toBe(problem)
  })

  test.each([
    ['', 'must be 1 to 512 characters'],
    ['r', undefined],
    ['r'.repeat(512), undefined],
    ['r'.repeat(513), 'must be 1 to 512 characters'],
  ])('a receipt of %#: %s', (text, problem) => {
    expect(valueProblem('receipt', text)).toBe(problem)
  })
})

describe('numberProblem', () => {
  test.each([
    [0, 'must be from 1 to 64, got 0'],
    [1, undefined],
    [64, undefined],
    [65, 'must be from 1 to 64, got 65'],
    [1.5, 'must be a whole number, got 1.5'],
  ])('%s against 1 to 64: %s', (value, problem) => {
    expect(numberProblem(value, { min: 1, max: 64 })).toBe(problem)
  })
})

describe('validateFlag', () => {
  const runs: Flag = { name: 'runs', kind: 'int', help: '', min: 1, max: 10 }
  const duration: Flag = { name: 'duration', kind: 'duration', help: '', min: 1000, max: 7_200_000 }
  const seed: Flag = { name: 'seed', kind: 'int', help: '', min: -5, max: 5 }

  test.each([
    [runs, '1', 1],
    [runs, '10', 10],
    [seed, '-5', -5],
    [duration, '1s', 1000],
    [duration, '90s', 90_000],
    [duration, '10m', 600_000],
    [duration, '2h', 7_200_000],
  ] as const)('--%s %s is %s', (flag, text, value) => {
    expect(validateFlag(flag, text)).toBe(value)
  })

  test.each([
    [runs, '0', '--runs must be from 1 to 10, got 0'],
    [runs, '11', '--runs must be from 1 to 10, got 11'],
    [runs, '1.5', '--runs must be a whole number, got "1.5"'],
    [seed, '-6', '--seed must be from -5 to 5, got -6'],
    [duration, '0s', '--duration must be from 1 s to 2 h, got "0s"'],
    [duration, '121m', '--duration must be from 1 s to 2 h, got "121m"'],
    [duration, '3h', '--duration must be from 1 s to 2 h, got "3h"'],
    [duration, '90sx', '--duration must be a duration such as 90s, 10m or 2h, got "90sx"'],
    [duration, '90', '--duration must be a duration such as 90s, 10m or 2h, got "90"'],
    [duration, '1d', '--duration must be a duration such as 90s, 10m or 2h, got "1d"'],
  ] as const)('--%s %s is refused', (flag, text, message) => {
    expect(() => validateFlag(flag, text)).toThrow(message)
  })
})

describe('a replay path', () => {
  const replay = (replayPath: string) => () =>
    validateRunOptions({ settings: { replayPath, seed: 1 }, only: ['auth/missing-key'] })

  test.each(['coverage:0', 'coverage:12', '7', '12', '3:0:1', '12:10:3'])('%j is one a report prints', (path) => {
    expect(replay(path)).not.toThrow()
  })

  test.each(['coverage:', 'coverage:x', '3:', ':3', '3::1', 'x', '3:0:1 '])('%j is refused, named', (path) => {
    expect(replay(path)).toThrow(`settings.replayPath must be a path a report prints`)
  })
})

describe("the API's options, each refused by one line that names it", () => {
  const refusal = (options: Parameters<typeof validateRunOptions>[0]) => {
    try {
      validateRunOptions(options)
    } catch (error) {
      return (error as Error).message
    }
    return undefined
  }

  test.each([
    [{ settings: { apiKey: 7 as unknown as string } }, 'settings.apiKey must be a string, got number'],
    [{ settings: { runs: '5' as unknown as number } }, 'settings.runs must be a whole number, got string'],
    [
      { settings: { intent: { hash: 'x', receipt: 'r' } } },
      'settings.intent hash must be 0x followed by 64 hex digits',
    ],
    [{ settings: { secondIntent: { hash: HASH, receipt: '' } } }, 'settings.secondIntent receipt must be 1 to 512'],
    [{ reference: { receipts: ['r', ''] } }, 'reference.receipts 2 must be 1 to 512 characters'],
    [{ only: [] }, 'only names no check: a run of none would pass on nothing'],
    [{ waivers: [{ check: 'auth/missing-key', reason: ' ' }] }, 'waiver 1 needs a non-empty reason'],
    [
      {
        waivers: [
          { check: 'auth/missing-key', reason: 'r' },
          { check: 'auth/nope', reason: 'r' },
        ],
      },
      'waiver 2: ',
    ],
    [{ minAssessed: 101 }, 'minAssessed must be a percentage from 0 to 100, got 101'],
    [{ minAssessed: -1 }, 'minAssessed must be a percentage from 0 to 100, got -1'],
    [{ minAssessed: '50' as unknown as number }, 'minAssessed must be a percentage from 0 to 100, got 50'],
    [{ settings: { maxWrites: 3 } }, 'settings.maxWrites bounds writes, which only settings.allowWrites sends'],
    [{ settings: { replayPath: '7', seed: 1 } }, 'settings.replayPath needs settings.seed and exactly one only'],
    [
      { settings: { baseUrl: 'http://127.0.0.1:1' }, reference: { faults: ['f'] } },
      'reference.faults applies only to the embedded reference server',
    ],
    [
      { settings: { baseUrl: 'http://127.0.0.1:1' }, reference: { allowances: ['a'] } },
      'reference.allowances applies only to the embedded reference server',
    ],
    [{ settings: { baseUrl: 'http://127.0.0.1:1' } }, 'settings.apiKey is required with settings.baseUrl'],
    [{ settings: { intent: null as never } }, 'settings.intent hash must be 0x followed by 64 hex digits'],
    [{ waivers: [null as never] }, 'waiver 1 needs a non-empty reason'],
    [{ settings: { intent: { hash: HASH } as never } }, 'settings.intent receipt must be 1 to 512 characters'],
    [{ settings: { cursorParam: '' } }, 'settings.cursorParam must not be empty'],
    [{ settings: { limitParam: '' } }, 'settings.limitParam must not be empty'],
    [{ settings: { replayPath: '' } }, 'settings.replayPath must not be empty'],
    [{ settings: { restrictedApiKey: 'k\u0001' } }, 'settings.restrictedApiKey holds a control character'],
    [{ settings: { restrictedApiKey: '' } }, 'settings.restrictedApiKey must not be empty'],
    [{ settings: { secondTrader: '0xbad' } }, 'settings.secondTrader must be 0x followed by 40 hex digits'],
  ] as [Parameters<typeof validateRunOptions>[0], string][])('%j: %s', (options, message) => {
    expect(refusal(options)?.slice(0, message.length)).toBe(message)
  })

  test.each([
    { settings: { intent: { hash: HASH, receipt: 'r' } }, reference: { receipts: ['r'] } },
    { only: ['auth/missing-key'] as never, waivers: [{ check: 'auth/missing-key', reason: 'r' }] },
    { minAssessed: 0 },
    { minAssessed: 100 },
    { settings: { maxWrites: 3, allowWrites: true } },
    { settings: { baseUrl: 'http://127.0.0.1:1', apiKey: 'k' } },
    { settings: { baseUrl: 'http://127.0.0.1:1' }, only: ['auth/missing-key'] as never },
  ] as Parameters<typeof validateRunOptions>[0][])('%j is taken', (options) => {
    expect(refusal(options)).toBeUndefined()
  })
})

describe('a config file, each mistake refused by one line that names the file', () => {
  const parsed = (text: string) => parseCli(['--config', fileWith(text)], {})

  test.each([
    ['- a list\n', 'must hold a mapping of settings'],
    ['just text\n', 'must hold a mapping of settings'],
    ['allow-writes: true\n', 'is not read: writes are sent only with --allow-writes on the command line'],
    ['config: other.yaml\n', 'unknown setting "config"'],
    ['waivers: auth/missing-key\n', 'must be a list of {check, reason}'],
    ['waivers:\n  - check: auth/missing-key\n', 'waiver 1 in '],
    ['waivers:\n  - check: auth/missing-key\n    reason: " "\n', 'needs a check ID and a non-empty reason'],
    ['runs: [1, 2]\n', ' must be a single value, got a list'],
    ['runs: {a: 1}\n', ' must be a single value, got a mapping'],
    ['rnus: 3\n', 'unknown setting "rnus" in '],
    ['waiver: []\n', '(closest: waivers'],
    ['waivers:\n  - check: 5\n    reason: r\n', 'needs a check ID and a non-empty reason'],
  ])('%j: %s', (text, message) => {
    expect(() => parsed(text)).toThrow(message)
  })

  test('an unknown setting is named with the three closest, never config itself', () => {
    expect(() => parsed('rnus: 3\n')).toThrow(/ \(closest: runs, [\w-]+, [\w-]+\)$/)
    expect(() => parsed('confg: x\n')).toThrow(
      / \(closest: (?!config\b)[\w-]+, (?!config\b)[\w-]+, (?!config\b)[\w-]+\)$/,
    )
  })

  test('an unreadable file is named with its error code', () => {
    expect(() => parseCli(['--config', join(DIR, 'none.yaml')], {})).toThrow(
      /^--config: cannot read \S+none\.yaml \(ENOENT\)$/,
    )
  })

  test('an empty file gives nothing; a list flag takes a YAML list or a comma-separated text', () => {
    expect(parsed('').run.waivers).toEqual([])
    expect(parsed('baseline: "  "\n').notices).toEqual([
      expect.stringMatching(/^baseline in \S+ is set but empty: not given$/),
    ])
    expect(parsed('check: [auth/missing-key, auth/unknown-key]\n').run.only).toEqual([
      'auth/missing-key',
      'auth/unknown-key',
    ])
    expect(parsed('check: auth/missing-key,auth/unknown-key\n').run.only).toEqual([
      'auth/missing-key',
      'auth/unknown-key',
    ])
  })

  test("a config file's profile is a mapping, or the path of a profile file; empty, it is not given", () => {
    const profile = fileWith('profile:\n  marketStatuses: [open]\n')
    expect(parsed(`profile: ${profile}\n`).run.profile).toMatchObject({ source: profile })
    expect(parsed('profile:\n').notices).toEqual([
      expect.stringMatching(/^profile in \S+ is set but empty: not given$/),
    ])
  })

  test('the file is named in the command that reproduces the run, quoted for a shell where it must be', () => {
    const plain = fileWith('runs: 3\n')
    expect(parseCli(['--config', plain], {}).run.settings.shapingFlags).toEqual([`--config ${plain}`])
    const spaced = fileWith('runs: 3\n', "it's here.yaml")
    expect(parseCli(['--config', spaced], {}).run.settings.shapingFlags).toEqual([
      `--config '${spaced.replace(/'/g, `'\\''`)}'`,
    ])
  })
})

describe('the flags that go in pairs or name a file', () => {
  test.each([
    [['--intent-hash', HASH], '--intent-receipt is required with --intent-hash'],
    [['--intent-receipt', 'r'], '--intent-hash is required with --intent-receipt'],
    [['--second-intent-hash', HASH], '--second-intent-receipt is required with --second-intent-hash'],
  ])('%j: %s', (argv, message) => {
    expect(() => parseCli(argv, {})).toThrow(message)
  })

  test('an intent is its hash and receipt together', () => {
    expect(parseCli(['--intent-hash', HASH, '--intent-receipt', 'r'], {}).run.settings.intent).toEqual({
      hash: HASH,
      receipt: 'r',
    })
  })

  test('a profile file is read, named as given, and goes into the command that reproduces the run', () => {
    const file = fileWith('profile:\n  marketStatuses: [open]\n')
    const { run } = parseCli(['--profile', file], {})
    expect(run.profile).toMatchObject({ source: file, baseDir: DIR, values: { marketStatuses: ['open'] } })
    expect(run.settings.shapingFlags).toEqual([`--profile ${file}`])
  })
})

describe('what the command line makes of its flags', () => {
  test('each boolean is false unless given; --allow-writes only on the command line, never from a variable', () => {
    const none = parseCli([], {})
    expect(none.run.settings).toMatchObject({ probeRateLimit: false, rawRecord: false, allowWrites: false })
    expect(none.run.reference).toBeUndefined()
    expect(none.notices).toEqual([])
    const all = parseCli(['--probe-rate-limit', '--raw-record', '--allow-writes'], {})
    expect(all.run.settings).toMatchObject({ probeRateLimit: true, rawRecord: true, allowWrites: true })
    expect(all.notices).toEqual([RAW_RECORD_WARNING])
    expect(RAW_RECORD_WARNING).toMatch(/^warning: --raw-record: the reports and the HAR keep every /)
    expect(none.run.waivers).toEqual([])
    expect(parseCli([], { IPTS_PROBE_RATE_LIMIT: '1', IPTS_ALLOW_WRITES: '1' }).run.settings).toMatchObject({
      probeRateLimit: true,
      allowWrites: false,
    })
  })

  test('faults and allowances make the embedded reference of the run', () => {
    expect(parseCli(['--fault', 'f1,f2'], {}).run.reference).toEqual({ faults: ['f1', 'f2'], allowances: undefined })
    expect(parseCli(['--allowance', 'a1'], {}).run.reference).toEqual({ faults: undefined, allowances: ['a1'] })
  })

  test("a config file's profile mapping is the run's profile, unless --profile names a file", () => {
    const config = fileWith('profile:\n  marketStatuses: [open]\n')
    expect(parseCli(['--config', config], {}).run.profile).toEqual({
      values: { marketStatuses: ['open'] },
      baseDir: dirname(config),
      source: `the profile of ${config}`,
    })
    const profile = fileWith('profile:\n  marketStatuses: [closed]\n')
    const both = parseCli(['--config', config, '--profile', profile], {})
    expect(both.run.profile).toMatchObject({ source: profile, values: { marketStatuses: ['closed'] } })
    expect(both.run.settings.shapingFlags).toEqual([`--config ${config}`, `--profile ${profile}`])
  })

  test('a value refused is named by where it came from: flag, variable or config file', () => {
    const config = fileWith('runs: 0\n')
    expect(() => parseCli(['--config', config], {})).toThrow(`runs in ${config} must be from 1 to 10000, got 0`)
    expect(() => parseCli(['--config', config], { IPTS_RUNS: '-2' })).toThrow(/^IPTS_RUNS must be from 1/)
    expect(() => parseCli(['--config', config, '--runs', '0'], { IPTS_RUNS: '3' })).toThrow(/^--runs must be from 1/)
  })
})

describe('the faults and allowances a run switches on', () => {
  test('as the report names them, and as flags of the CLI', () => {
    const options = { reference: { faults: ['f1', 'f2'], allowances: ['a1'] } } as never
    expect(switchedOnBehaviours(options)).toEqual(['fault f1', 'fault f2', 'allowance a1'])
    expect(behaviourFlags(options)).toEqual(['--fault f1', '--fault f2', '--allowance a1'])
    expect(switchedOnBehaviours({})).toEqual([])
  })
})

describe('the inputs of a deployment, each held to its kind', () => {
  test.each([
    ['--trader', 'trader'],
    ['--second-trader', 'secondTrader'],
  ] as const)('%s takes an address and refuses anything else', (name, setting) => {
    expect(parseCli([name, ADDRESS], {}).run.settings[setting]).toBe(ADDRESS)
    expect(() => parseCli([name, '0xbad'], {})).toThrow(`${name} must be 0x followed by 40 hex digits`)
  })

  test('the second intent is its hash and receipt, each held to its kind', () => {
    const argv = ['--second-intent-hash', HASH, '--second-intent-receipt', 'r2']
    expect(parseCli(argv, {}).run.settings.secondIntent).toEqual({ hash: HASH, receipt: 'r2' })
    expect(() => parseCli(['--second-intent-hash', HASH, '--second-intent-receipt', 'r'.repeat(513)], {})).toThrow(
      '--second-intent-receipt must be 1 to 512 characters',
    )
  })

  test("the run's help begins with its usage and what it does", () => {
    expect(runHelp().split('\n').slice(0, 4)).toEqual([
      'Usage: ipts-conformance [run] [flags]',
      '',
      'Runs the conformance suite against a deployment, or the embedded reference server without --base-url.',
      '',
    ])
  })
})

describe('the rules between options, named by the flags of the command line', () => {
  test.each([
    [
      ['--replay-path', '7'],
      '--replay-path needs --seed (or IPTS_SEED) and exactly one --check (or IPTS_CHECK) (the replay command in',
    ],
    [['--max-writes', '3'], '--max-writes bounds writes, which only --allow-writes sends: give both, or neither'],
    [['--base-url', 'http://127.0.0.1:1'], '--api-key (or IPTS_API_KEY) is required with --base-url: '],
    [['--base-url', 'http://127.0.0.1:1', '--api-key', 'k', '--fault', 'f'], '--fault applies only to the embedded '],
    [['--base-url', 'http://127.0.0.1:1', '--api-key', 'k', '--allowance', 'a'], '--allowance applies only to the '],
    [['--max-duration', '86401'], '--max-duration must be from 1 to 86400, got 86401'],
  ])('%j', (argv, message) => {
    expect(() => parseCli(argv, {})).toThrow(message)
  })

  test('every flag has a kind its value is checked by', () => {
    const kinds = ['url', 'secret', 'address', 'hash', 'receipt', 'int', 'duration', 'text', 'flag', 'list', 'folder']
    for (const flag of [...flags, ...reportFlags, trafficProfileFlag]) expect(kinds, flag.name).toContain(flag.kind)
  })
})
