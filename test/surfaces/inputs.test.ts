import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { main } from '../../src/cli/main.js'
import { envName } from '../../src/cli/flags.js'
import { flags, parseCli } from '../../src/cli/options.js'
import { profileHelp } from '../../src/cli/profile-command.js'
import { runConformance, type RunOptions } from '../../src/runner/run.js'
import { captureOutput } from '../support/output.js'

afterEach(() => {
  vi.restoreAllMocks()
})

const HASH = `0x${'a'.repeat(64)}`

/** A config file holding `text`. */
function configFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'ipts-config-')), 'ipts.yaml')
  writeFileSync(file, text)
  return file
}

/** The CLI with these arguments and this environment, as a user runs it: its exit code and what it wrote. */
async function cli(
  argv: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string; lines: string[] }> {
  const { out, err } = captureOutput()
  const code = await main(argv, env)
  vi.restoreAllMocks()
  return { code, out: out.join(''), lines: err.join('').trimEnd().split('\n') }
}

describe('no green on nothing: bad input to the command line is exit 2 and one line naming it', () => {
  test.each<[string, string[], NodeJS.ProcessEnv, RegExp]>([
    [
      'an empty IPTS_BASE_URL (an unset CI variable) is not the embedded reference',
      [],
      { IPTS_BASE_URL: '' },
      /^ipts-conformance: IPTS_BASE_URL is set but empty \(an unset CI secret or variable\?\): give --base-url a value, or unset IPTS_BASE_URL$/,
    ],
    [
      'an empty IPTS_API_KEY is not "no key"',
      [],
      { IPTS_API_KEY: '' },
      /^ipts-conformance: IPTS_API_KEY is set but empty/,
    ],
    [
      'an empty IPTS_RESTRICTED_API_KEY',
      [],
      { IPTS_RESTRICTED_API_KEY: ' ' },
      /^ipts-conformance: IPTS_RESTRICTED_API_KEY is set but empty/,
    ],
    [
      'an empty IPTS_INTENT_RECEIPT',
      ['--intent-hash', HASH],
      { IPTS_INTENT_RECEIPT: '' },
      /^ipts-conformance: IPTS_INTENT_RECEIPT is set but empty/,
    ],
    [
      'an unknown boolean word',
      [],
      { IPTS_STRICT: 'maybe' },
      /^ipts-conformance: IPTS_STRICT must be one of 1, 0, true, false, yes, no, got "maybe"$/,
    ],
    [
      'the old name of a variable is still read, and named',
      [],
      { IPTS_TIMEOUT_MS: '5' },
      /^ipts-conformance: IPTS_TIMEOUT_MS must be from 100 to 600000, got 5$/,
    ],
    [
      'the variable named after its flag',
      [],
      { IPTS_TIMEOUT: '5' },
      /^ipts-conformance: IPTS_TIMEOUT must be from 100 to 600000, got 5$/,
    ],
    [
      '--max-writes without --allow-writes',
      ['--max-writes', '3'],
      {},
      /^ipts-conformance: --max-writes bounds writes, which only --allow-writes sends: give both, or neither$/,
    ],
    [
      'a deployment without its key',
      ['--base-url', 'http://127.0.0.1:9'],
      {},
      /^ipts-conformance: --api-key \(or IPTS_API_KEY\) is required with --base-url: every operation of a deployment needs the key/,
    ],
    [
      'a deployment without its key, from the environment',
      [],
      { IPTS_BASE_URL: 'http://127.0.0.1:9' },
      /^ipts-conformance: --api-key \(or IPTS_API_KEY\) is required with IPTS_BASE_URL/,
    ],
    [
      'a key ending in a carriage return',
      ['--api-key', 'k3y-of-the-run\r'],
      {},
      /^ipts-conformance: --api-key holds a control character \(U\+000D\), copied in with the value\?$/,
    ],
    [
      'a receipt with a NUL',
      ['--intent-hash', HASH, '--intent-receipt', 'rcpt\u0000'],
      {},
      /^ipts-conformance: --intent-receipt holds a control character \(U\+0000\)/,
    ],
    [
      'a URL with a line feed (which URL parsing would drop silently)',
      ['--base-url', 'http://127.0.0.1:9/\n', '--api-key', 'k'],
      {},
      /^ipts-conformance: --base-url holds a control character \(U\+000A\)/,
    ],
    [
      'a hash with a line feed',
      ['--intent-hash', `${HASH}\n`, '--intent-receipt', 'r'],
      {},
      /^ipts-conformance: --intent-hash holds a control character \(U\+000A\)/,
    ],
    [
      'an unknown boolean in a config file',
      ['--config', configFile('strict: maybe\n')],
      {},
      /^ipts-conformance: strict in \S+ipts\.yaml must be one of 1, 0, true, false, yes, no, got "maybe"$/,
    ],
    [
      'a mapping where a number goes in a config file',
      ['--config', configFile('runs: {many: 1}\n')],
      {},
      /^ipts-conformance: runs in \S+ must be a single value, got a mapping$/,
    ],
    [
      'an empty key in a config file',
      ['--config', configFile('api-key: ""\n')],
      {},
      /^ipts-conformance: api-key in \S+ipts\.yaml is set but empty/,
    ],
    [
      'a misspelt waiver ID',
      ['--config', configFile('waivers:\n  - check: auth/missing-kye\n    reason: ticket 42\n')],
      {},
      /^ipts-conformance: --config: \S+ipts\.yaml: waiver 1: no check has the ID "auth\/missing-kye" \(closest: auth\/missing-key, /,
    ],
  ])('%s', async (_, argv, env, line) => {
    const { code, out, lines } = await cli(argv, env)
    expect(code).toBe(2)
    expect(out).toBe('')
    expect(lines, 'one line, no stack trace').toHaveLength(1)
    expect(lines[0]).toMatch(line)
  })

  test('--check narrows a run against a deployment on purpose: the key is then not required', () => {
    expect(
      parseCli(['--base-url', 'http://127.0.0.1:9', '--check', 'config/answers-json'], {}).run.settings.baseUrl,
    ).toBe('http://127.0.0.1:9')
  })
})

describe('the environment, in words', () => {
  test('every variable is IPTS_ and its flag in upper snake case; --timeout also reads its old name', () => {
    for (const flag of flags.filter((f) => f.env)) expect(flag.env).toBe(envName(flag.name))
    expect(flags.find((f) => f.name === 'timeout')!.envAliases).toEqual(['IPTS_TIMEOUT_MS'])
    expect(parseCli([], { IPTS_TIMEOUT_MS: '2000' }).run.settings.requestTimeoutMs).toBe(2000)
    expect(flags.find((f) => f.name === 'allow-writes')!.env, 'writes only from the command line').toBeUndefined()
  })

  test('booleans take 1/0, true/false, yes/no in any case', () => {
    for (const yes of ['1', 'true', 'YES', 'True'])
      expect(parseCli([], { IPTS_STRICT: yes }).run.strict, yes).toBe(true)
    for (const no of ['0', 'false', 'No']) expect(parseCli([], { IPTS_STRICT: no }).run.strict, no).toBe(false)
  })

  test('another empty variable counts as not given, and is named', () => {
    const options = parseCli([], { IPTS_TRADER: '', IPTS_RUNS: '' })
    expect(options.run.settings.trader).toBeUndefined()
    expect(options.run.settings.runs).toBe(25)
    expect(options.notices).toEqual([
      'IPTS_TRADER is set but empty: not given',
      'IPTS_RUNS is set but empty: not given',
    ])
  })

  test("a variable no flag reads but close to one is named with the closest; the self-tests' own variables are not", () => {
    const env = {
      IPTS_APIKEY: 'k',
      IPTS_STICT: '1',
      IPTS_MAX_DURATION_MS: '60',
      IPTS_REQUIRE_BROWSER: '1',
      IPTS_SECRECY_SEED: '3',
      IPTS_SECRECY_RUNS: '5',
      IPTS_EACH_CHECK_CONCERNS: 'auth',
      IPTS_ALLOW_WRITES: '1',
    }
    expect(parseCli([], env).notices).toEqual([
      'IPTS_APIKEY is not read by any flag; did you mean IPTS_API_KEY?',
      'IPTS_STICT is not read by any flag; did you mean IPTS_STRICT?',
      'IPTS_MAX_DURATION_MS is not read by any flag; did you mean IPTS_MAX_DURATION?',
    ])
  })

  test('the notices reach stderr, one line each, and the run goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-notices-'))
    const { code, lines } = await cli(['--check', 'config/answers-json', '--report-dir', dir, '--timeout', '60000'], {
      IPTS_TRADER: '',
      IPTS_STICT: '1',
    })
    expect(code).toBe(0)
    expect(lines).toEqual([
      'ipts-conformance: IPTS_TRADER is set but empty: not given',
      'ipts-conformance: IPTS_STICT is not read by any flag; did you mean IPTS_STRICT?',
    ])
  })
})

/** Options as a JavaScript caller may give them: tsc refuses a misspelt ID (test/meta/catalogue-types.test.ts). */
const fromJavaScript = (options: object) => options as RunOptions

describe('the API validates its options as the CLI does: one UsageError naming the option, before any request', () => {
  test.each<[string, RunOptions, RegExp]>([
    [
      'concurrency 0 (which would hang)',
      { settings: { concurrency: 0 } },
      /^settings\.concurrency must be from 1 to 64, got 0$/,
    ],
    [
      'an empty base URL',
      { settings: { baseUrl: '' } },
      /^settings\.baseUrl must be an absolute http\(s\) URL, got ""$/,
    ],
    [
      'a base URL that is no URL',
      { settings: { baseUrl: 'notaurl', apiKey: 'k' } },
      /^settings\.baseUrl must be an absolute http\(s\) URL, got "notaurl"$/,
    ],
    ['a seed that is not whole', { settings: { seed: 1.5 } }, /^settings\.seed must be a whole number, got 1\.5$/],
    ['an empty key', { settings: { apiKey: '' } }, /^settings\.apiKey must not be empty$/],
    [
      'a key ending in a carriage return',
      { settings: { apiKey: 'k3y\r' } },
      /^settings\.apiKey holds a control character \(U\+000D\)/,
    ],
    ['a malformed trader', { settings: { trader: '0x12' } }, /^settings\.trader must be 0x followed by 40 hex digits$/],
    [
      'an intent without its receipt',
      { settings: { intent: { hash: HASH, receipt: '' } } },
      /^settings\.intent receipt must be 1 to 512 characters$/,
    ],
    [
      'a receipt of the embedded reference over 512 characters',
      { reference: { receipts: ['r'.repeat(513), 'receipt-of-b-0001'] } },
      /^reference\.receipts 1 must be 1 to 512 characters$/,
    ],
    [
      'an unknown check ID',
      fromJavaScript({ only: ['auth/missing-kye'] }),
      /^only: no check has the ID "auth\/missing-kye" \(closest: auth\/missing-key, /,
    ],
    ['an empty selection', { only: [] }, /^only names no check: a run of none would pass on nothing$/],
    [
      'an unknown waiver ID',
      fromJavaScript({ waivers: [{ check: 'auth/missing-kye', reason: 'ticket' }] }),
      /^waiver 1: no check has the ID "auth\/missing-kye"/,
    ],
    [
      'maxWrites without allowWrites',
      { settings: { maxWrites: 3 } },
      /^settings\.maxWrites bounds writes, which only settings\.allowWrites sends: give both, or neither$/,
    ],
    [
      'a deployment without its key',
      { settings: { baseUrl: 'http://127.0.0.1:9' } },
      /^settings\.apiKey is required with settings\.baseUrl/,
    ],
    [
      'a replay path without its seed',
      { settings: { replayPath: '1:0' }, only: ['auth/missing-key'] },
      /^settings\.replayPath needs settings\.seed and exactly one only/,
    ],
    ...['abc', 'coverage:1x', '1:0:', 'coverage:'].map((replayPath): [string, RunOptions, RegExp] => [
      `a replay path no report prints: ${replayPath}`,
      { settings: { replayPath, seed: 1 }, only: ['auth/missing-key'] },
      new RegExp(`^settings\\.replayPath must be a path a report prints, .+, got "${replayPath}"$`),
    ]),
    [
      'an unknown fault of the embedded reference',
      fromJavaScript({ reference: { faults: ['quota-retry-after-0'] } }),
      /^unknown reference fault quota-retry-after-0 \(ipts-conformance reference --list names them all\)$/,
    ],
    [
      'faults with a deployment',
      { settings: { baseUrl: 'http://127.0.0.1:9', apiKey: 'k' }, reference: { faults: ['quota-retry-after-zero'] } },
      /^reference\.faults applies only to the embedded reference server, not with settings\.baseUrl$/,
    ],
  ])('%s', async (_, options, message) => {
    const sent: string[] = []
    const error = await runConformance({
      ...options,
      reference: { ...options.reference, record: (request) => sent.push(request.path) },
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'UsageError', message: expect.stringMatching(message) })
    expect(sent, 'no request was sent').toEqual([])
  })
})

describe('profile validate FILE: a profile checked as a run would check it', () => {
  test('the reference profile is valid: exit 0 and what it states', async () => {
    const { code, out, lines } = await cli(['profile', 'validate', 'specs/reference-profile.yaml'])
    expect(code, lines.join('\n')).toBe(0)
    expect(out).toMatch(/^specs\/reference-profile\.yaml: a valid profile stating \w+/)
  })

  test('every problem is one line, exit 2', async () => {
    const file = configFile(
      'profile:\n  paginaton: {}\n  restrictedKey:\n    refused: [getVault]\n    granted: [getVault]\n',
    )
    const { code, out, lines } = await cli(['profile', 'validate', file])
    expect(code).toBe(2)
    expect(out).toBe('')
    expect(lines).toEqual([
      `ipts-conformance: ${file}: unknown key 'profile.paginaton' (did you mean 'profile.pagination'?)`,
    ])
    const rules = configFile(
      'profile:\n  pagination:\n    listMarkets: { minPageSize: 30, maxPageSize: 25, outOfRange: reject }\n  restrictedKey:\n    refused: [getVault]\n    granted: [getVault]\n',
    )
    const second = await cli(['profile', 'validate', rules])
    expect(second.code).toBe(2)
    expect(second.lines).toEqual([
      `ipts-conformance: ${rules}: profile.pagination.listMarkets has minPageSize 30 above maxPageSize 25`,
      `ipts-conformance: ${rules}: profile.restrictedKey lists getVault as both refused and granted`,
    ])
  })

  test('a profile stating nothing says so; one whose config schema cannot be read is one line naming the file', async () => {
    const empty = configFile('profile: {}\n')
    expect(await cli(['profile', 'validate', empty])).toMatchObject({
      code: 0,
      out: `${empty}: a valid profile, stating nothing yet\n`,
    })
    const unreadable = configFile('profile:\n  configSchema: no-such-schema.json\n')
    const schemaPath = join(dirname(unreadable), 'no-such-schema.json')
    expect(await cli(['profile', 'validate', unreadable])).toMatchObject({
      code: 2,
      out: '',
      lines: [`ipts-conformance: ${unreadable}: profile.configSchema cannot be read from ${schemaPath} (ENOENT)`],
    })
    expect((await cli(['profile', 'validate', empty, 'extra'])).lines).toEqual([
      'ipts-conformance: profile validate: unexpected argument "extra" (usage: ipts-conformance profile validate FILE)',
    ])
  })

  test('profile init says what it wrote; a folder not there or a second argument is one line; profile alone, its help', async () => {
    const missing = join(tmpdir(), 'ipts-no-such-folder', 'p.yaml')
    expect(await cli(['profile', 'init', missing])).toMatchObject({
      code: 2,
      lines: [`ipts-conformance: profile init: cannot write ${missing} (ENOENT)`],
    })
    // In a folder of its own: under a mutant that would write it, nothing lands in the project.
    const first = join(mkdtempSync(join(tmpdir(), 'ipts-init-')), 'a.yaml')
    expect((await cli(['profile', 'init', first, 'b.yaml'])).lines).toEqual([
      'ipts-conformance: profile init: unexpected argument "b.yaml" (usage: ipts-conformance profile init [FILE])',
    ])
    const written = join(mkdtempSync(join(tmpdir(), 'ipts-init-')), 'p.yaml')
    expect(await cli(['profile', 'init', written])).toMatchObject({
      code: 0,
      out: `wrote ${written}: uncomment the keys your deployment promises, then run with --profile ${written}\n`,
    })
    const help = await cli(['profile'])
    expect(help.code).toBe(0)
    expect(help.out).toBe(`${profileHelp()}\n`)
  })

  test('a file that is not there, or no file, is one line', async () => {
    expect((await cli(['profile', 'validate', '/nonexistent/p.yaml'])).lines).toEqual([
      'ipts-conformance: profile validate: cannot read /nonexistent/p.yaml (ENOENT)',
    ])
    expect((await cli(['profile', 'validate'])).lines).toEqual([
      'ipts-conformance: profile validate: missing FILE (usage: ipts-conformance profile validate FILE)',
    ])
  })
})
