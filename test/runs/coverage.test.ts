import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import type { CheckId } from '../../src/contract/catalogue-ids.js'
import { remediesLine } from '../../reporters/console.js'
import { prettyJsonHtml } from '../../reporters/json-body.js'
import { escapeHtml } from '../../reporters/html.js'
import { main } from '../../src/cli/main.js'
import { parseCli } from '../../src/cli/options.js'
import { parseProxyArgs, proxy } from '../../src/cli/proxy.js'
import { missingInputReasons } from '../../src/checks/needs.js'
import { loadRequirements } from '../../src/contract/requirements.js'
import { operations } from '../../src/contract/operations.js'
import { ERROR_CODES } from '../../src/core/errors.js'
import { belowMinimum, type CheckOutcome, type Report } from '../../src/core/report.js'
import { coverageOf, judgedSomething } from '../../src/engine/coverage.js'
import { traceRequirements } from '../../src/engine/traceability.js'
import { notAssessableWithout, WRITES_NOT_ASSESSABLE, type Profile } from '../../src/profile/profile.js'
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js'
import { runConformance } from '../../src/runner/run.js'
import { NOT_ASSESSED } from '../../src/traffic/judgement.js'
import { harEntry, harText } from '../support/har-entries.js'
import { captureOutput, cliRun } from '../support/output.js'
import { reportValidator } from '../support/report-schema.js'
import { FIXED_SEED, TEST_RETRY_POLICY, TEST_SETTINGS } from '../support/run.js'

afterEach(() => {
  vi.restoreAllMocks()
})

/** An outcome of a check citing the requirement, with the status (and reason) given. */
function outcome(requirement: string, status: string, extra: Partial<CheckOutcome> = {}): CheckOutcome {
  return {
    id: `unit/${status.replace(/ /g, '-')}`,
    title: status,
    requirement,
    level: 'MUST',
    inferred: false,
    concern: 'unit',
    status: status as CheckOutcome['status'],
    ...extra,
  }
}

const OBSERVABLE = 'SHAPE-MARKET'

/** The coverage of one observable requirement whose only outcomes are these. */
function coverageWith(outcomes: CheckOutcome[]) {
  const coverage = coverageOf(traceRequirements(outcomes), outcomes, {})
  return coverage.requirements.find((r) => r.id === OBSERVABLE)!
}

describe('what counts as assessed', () => {
  test('a passed or failed outcome judged the target; a skip, a check not run, a crash, or a status a later version adds did not', () => {
    expect(judgedSomething(outcome(OBSERVABLE, 'passed'))).toBe(true)
    expect(judgedSomething(outcome(OBSERVABLE, 'failed'))).toBe(true)
    expect(judgedSomething(outcome(OBSERVABLE, 'failed', { crashed: true }))).toBe(false)
    expect(judgedSomething(outcome(OBSERVABLE, 'skipped'))).toBe(false)
    expect(judgedSomething(outcome(OBSERVABLE, 'not run'))).toBe(false)
    expect(judgedSomething(outcome(OBSERVABLE, 'not assessed'))).toBe(false)
    expect(judgedSomething(outcome(OBSERVABLE, 'waived', { waiver: { reason: 'ticket', outcome: 'failed' } }))).toBe(
      true,
    )
    expect(judgedSomething(outcome(OBSERVABLE, 'waived', { waiver: { reason: 'ticket', outcome: 'skipped' } }))).toBe(
      false,
    )
  })

  test('one check that judged assesses its requirement, whatever the others did', () => {
    expect(
      coverageWith([
        outcome(OBSERVABLE, 'skipped', { reason: missingInputReasons.trader }),
        outcome(OBSERVABLE, 'passed'),
      ]),
    ).toEqual({ id: OBSERVABLE, level: 'MUST', observable: true, assessed: true })
  })

  test('a requirement none of whose checks judged is not assessed, with their reasons and the flags and profile keys they lacked', () => {
    const covered = coverageWith([
      outcome(OBSERVABLE, 'skipped', { reason: missingInputReasons.intent }),
      outcome(OBSERVABLE, 'skipped', { reason: notAssessableWithout('quota') }),
      outcome(OBSERVABLE, 'not run', { reason: 'the target stopped answering' }),
    ])
    expect(covered).toEqual({
      id: OBSERVABLE,
      level: 'MUST',
      observable: true,
      assessed: false,
      reason: `${missingInputReasons.intent}; ${notAssessableWithout('quota')}; the target stopped answering`,
      assessedWith: { inputs: ['--intent-hash', '--intent-receipt'], profileKeys: ['quota'] },
    })
  })

  test("a profile key the run's profile already states is not named; the opt-in that was lacking still is", () => {
    const outcomes = [outcome(OBSERVABLE, 'skipped', { reason: WRITES_NOT_ASSESSABLE })]
    const without = coverageOf(traceRequirements(outcomes), outcomes, {}).requirements.find((r) => r.id === OBSERVABLE)
    expect(without?.assessedWith).toEqual({ inputs: ['--allow-writes'], profileKeys: ['writes'] })
    const profile = { source: 'unit.yaml', values: { writes: { operations: {} } } } as unknown as Profile
    const stating = coverageOf(traceRequirements(outcomes, profile), outcomes, {}, profile).requirements.find(
      (r) => r.id === OBSERVABLE,
    )
    expect(stating?.assessedWith).toEqual({ inputs: ['--allow-writes'] })
  })

  test('a skip no input would remedy names no input', () => {
    expect(coverageWith([outcome(OBSERVABLE, 'skipped', { reason: 'the target lists no market' })])).toEqual({
      id: OBSERVABLE,
      level: 'MUST',
      observable: true,
      assessed: false,
      reason: 'the target lists no market',
    })
  })

  test('a requirement left "not shown" counts as observable only where a profile key can assess it, and names that key', () => {
    const coverage = coverageOf(traceRequirements([]), [], {})
    const byId = new Map(coverage.requirements.map((r) => [r.id, r]))
    expect(byId.get('ERR-CODE-VALUES')).toMatchObject({
      observable: true,
      assessed: false,
      assessedWith: { profileKeys: ['errorCodes'] },
    })
    expect(byId.get('STATE-TRANSITIONS')).toMatchObject({ observable: false, assessed: false })
    expect(byId.get('STATE-TRANSITIONS')!.assessedWith).toBeUndefined()
    const observable = loadRequirements().filter((r) => r.observable || r.profile !== undefined)
    expect(coverage.summary).toEqual({ assessed: 0, observable: observable.length, percent: 0 })
  })

  test('the share is rounded down, and --min-assessed is held to the exact fraction', () => {
    const summary = { assessed: 2, observable: 3, percent: 66.6 }
    expect(belowMinimum(summary)).toBe(false)
    expect(belowMinimum({ ...summary, minimum: 66 })).toBe(false)
    expect(belowMinimum({ ...summary, minimum: 67 })).toBe(true)
    expect(belowMinimum({ ...summary, minimum: 0 })).toBe(false)
    expect(belowMinimum({ assessed: 3, observable: 3, percent: 100, minimum: 100 })).toBe(false)
  })

  test('the console names what would assess the rest, flags wanted by the same requirements together, most first', () => {
    const covered = [
      {
        id: 'A-ONE',
        level: 'MUST' as const,
        observable: true,
        assessed: false,
        assessedWith: { inputs: ['--intent-hash', '--intent-receipt'] },
      },
      {
        id: 'A-TWO',
        level: 'MUST' as const,
        observable: true,
        assessed: false,
        assessedWith: { inputs: ['--intent-hash', '--intent-receipt'] },
      },
      {
        id: 'A-THREE',
        level: 'MUST' as const,
        observable: true,
        assessed: false,
        assessedWith: { inputs: ['--trader'], profileKeys: ['quota' as const] },
      },
      { id: 'A-FOUR', level: 'MUST' as const, observable: true, assessed: true },
    ]
    expect(
      remediesLine({ operations: [], requirements: covered, summary: { assessed: 1, observable: 4, percent: 25 } }),
    ).toBe(
      'not assessed for want of --intent-hash and --intent-receipt (2 requirements), --trader (1 requirement); and of a deployment profile (--profile) that states quota (1 requirement)',
    )
    expect(
      remediesLine({
        operations: [],
        requirements: covered.slice(3),
        summary: { assessed: 1, observable: 1, percent: 100 },
      }),
    ).toBeUndefined()
  })
})

describe('a pretty-printed body in report.html', () => {
  test('keeps every literal as written, escapes it, and marks the value at each pointer', () => {
    const body = '{"data":[{"status":"open","~a/b":12345678901234567890123}],"note":"<b>&</b>"}'
    const html = prettyJsonHtml(body, ['/data/0/~0a~1b'], escapeHtml)!
    expect(html).toBe(
      [
        '{',
        '  &quot;data&quot;: [',
        '    {',
        '      &quot;status&quot;: &quot;open&quot;,',
        '      &quot;~a/b&quot;: <mark class="pointer" title="/data/0/~0a~1b">12345678901234567890123</mark>',
        '    }',
        '  ],',
        '  &quot;note&quot;: &quot;&lt;b&gt;&amp;&lt;/b&gt;&quot;',
        '}',
      ].join('\n'),
    )
  })

  test('marks a whole container, and the root as (root)', () => {
    expect(prettyJsonHtml('{"a":{}}', ['/a'], escapeHtml)).toBe(
      '{\n  &quot;a&quot;: <mark class="pointer" title="/a">{}</mark>\n}',
    )
    expect(prettyJsonHtml('[]', [''], escapeHtml)).toBe('<mark class="pointer" title="(root)">[]</mark>')
  })

  test('gives up on an excerpt cut short or text that is not JSON', () => {
    for (const text of ['{"data":[1,2', '{"a":1}…', 'not json', '', '{"a":1,}', '[01]'])
      expect(prettyJsonHtml(text, [], escapeHtml), text).toBeUndefined()
  })
})

describe('a run given only some inputs', () => {
  let reference: ReferenceServer
  let report: Report

  beforeAll(async () => {
    reference = await startReferenceServer()
    // Against the reference as a deployment: only the API key, no trader, intent, restricted key or profile.
    report = await runConformance({
      settings: { ...TEST_SETTINGS, runs: 2, baseUrl: reference.baseUrl, apiKey: reference.data.apiKey },
      profile: null,
      retryPolicy: TEST_RETRY_POLICY,
    })
  }, 300_000)

  afterAll(async () => {
    await reference?.close()
  })

  test('validates against the schema with its coverage', () => {
    const validate = reportValidator()
    expect(validate(JSON.parse(JSON.stringify(report))), JSON.stringify(validate.errors, null, 2)).toBe(true)
  })

  test('names the flag or profile key that would assess each requirement it could not', () => {
    const byId = new Map(report.coverage.requirements.map((r) => [r.id, r]))
    expect(byId.get('SHAPE-PNL')).toMatchObject({
      assessed: false,
      reason: missingInputReasons.trader,
      assessedWith: { inputs: ['--trader'] },
    })
    expect(byId.get('SHAPE-INTENT-STATUS')).toMatchObject({
      assessed: false,
      assessedWith: { inputs: ['--intent-hash', '--intent-receipt'] },
    })
    expect(byId.get('AUTH-403-SCOPE')).toMatchObject({
      assessed: false,
      assessedWith: { inputs: ['--restricted-api-key'] },
    })
    expect(byId.get('ERR-CODE-VALUES')).toMatchObject({
      observable: true,
      assessed: false,
      assessedWith: { profileKeys: ['errorCodes'] },
    })
    expect(byId.get('IDEM-DUPLICATE')).toMatchObject({
      observable: true,
      assessed: false,
      assessedWith: { profileKeys: ['writes'] },
    })
    for (const id of ['SHAPE-MARKET', 'AUTH-401-MISSING-KEY', 'EP-CONFIG'])
      expect(byId.get(id), id).toMatchObject({ observable: true, assessed: true })
    const { summary } = report.coverage
    expect(summary.assessed).toBe(report.coverage.requirements.filter((r) => r.observable && r.assessed).length)
    expect(summary.assessed).toBeLessThan(summary.observable)
  })

  test("counts each operation's responses by status, and judges each", () => {
    expect(report.coverage.operations.map((op) => op.operation)).toEqual(operations().map((op) => op.id))
    const byId = new Map(report.coverage.operations.map((op) => [op.operation, op]))
    for (const id of ['listMarkets', 'getVault', 'getConfig'])
      expect(byId.get(id)!.statuses['200'], `${id} answered 200`).toBeGreaterThan(0)
    // Without a trader or an intent, nothing reads a real one: no 200 from those operations.
    for (const id of ['getTraderPnl', 'listTraderBalances', 'getIntentStatus'])
      expect(byId.get(id)!.statuses['200'], id).toBeUndefined()
    for (const op of report.coverage.operations) {
      const seen = Object.values(op.statuses).reduce((sum, n) => sum + n, 0)
      expect(op.judged, `${op.operation}: the every-response rules judge every response of an operation`).toBe(seen)
    }
  })

  test('the input it names assesses the requirement', async () => {
    const given = await runConformance({
      settings: {
        ...TEST_SETTINGS,
        baseUrl: reference.baseUrl,
        apiKey: reference.data.apiKey,
        trader: reference.data.trader,
      },
      profile: null,
      only: ['shapes/pnl-members'],
      retryPolicy: TEST_RETRY_POLICY,
    })
    expect(given.coverage.requirements.find((r) => r.id === 'SHAPE-PNL')).toMatchObject({ assessed: true })
  })
})

describe('--min-assessed', () => {
  /** The CLI on the embedded reference with one check selected: a run that assesses little, fast. */
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    cliRun(['--seed', String(FIXED_SEED), '--timeout', '60000', '--check', 'config/answers-json', ...args], env)

  test('fails a run that assessed less, exit 1, and the verdict line says why; passes one that assessed as much', async () => {
    const below = await cli(['--min-assessed', '100'])
    expect(below.code, below.out + below.err).toBe(1)
    const { summary } = below.report!.coverage
    expect(summary.minimum).toBe(100)
    expect(below.report!.summary.verdict).toBe('fail')
    expect(below.report!.summary.failed, 'no check failed: the share alone fails it').toBe(0)
    const verdictLine = below.out.split('\n').find((line) => line.startsWith('FAIL: '))!
    expect(verdictLine).toContain(
      `assessed ${summary.assessed} of ${summary.observable} observable requirements (${summary.percent}%), below the 100% --min-assessed asks for`,
    )
    const enough = await cli([], { IPTS_MIN_ASSESSED: String(Math.floor(summary.percent)) })
    expect(enough.code, enough.out + enough.err).toBe(0)
    expect(enough.out.split('\n').find((line) => line.startsWith('PASS: '))).toContain(
      `assessed ${summary.assessed} of ${summary.observable} observable requirements (${summary.percent}%)`,
    )
  })

  test('without it, a run that assessed little passes as before, and says how little', async () => {
    const run = await cli([])
    expect(run.code).toBe(0)
    expect(run.report!.coverage.summary.minimum).toBeUndefined()
    expect(run.out).toMatch(/^PASS: .*; assessed \d+ of \d+ observable requirements \(\d+(\.\d)?%\)$/m)
  })

  test.each([
    [['--min-assessed', '101'], {}, /^ipts-conformance: --min-assessed must be from 0 to 100, got 101$/],
    [['--min-assessed', 'most'], {}, /^ipts-conformance: --min-assessed must be a whole number, got "most"$/],
    [[], { IPTS_MIN_ASSESSED: '-5' }, /^ipts-conformance: IPTS_MIN_ASSESSED must be from 0 to 100, got -5$/],
  ])('%j %j is a usage error: exit 2, one line', async (args, env, message) => {
    const run = await cli(args, env)
    expect(run.code).toBe(2)
    expect(run.err.trim().split('\n')).toEqual([expect.stringMatching(message)])
  })

  test('is read from a config file as min-assessed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-min-assessed-config-'))
    const config = join(dir, 'ipts.yaml')
    writeFileSync(config, 'min-assessed: 75\n')
    expect(parseCli(['--config', config], {}).run.minAssessed).toBe(75)
    expect(parseCli(['--config', config, '--min-assessed', '10'], {}).run.minAssessed).toBe(10)
  })

  test('the API holds a run to minAssessed as the CLI does, and refuses a share outside 0 to 100', async () => {
    const options = {
      settings: { ...TEST_SETTINGS },
      only: ['config/answers-json'] satisfies CheckId[],
      retryPolicy: TEST_RETRY_POLICY,
    }
    const below = await runConformance({ ...options, minAssessed: 100 })
    expect(below.summary.verdict).toBe('fail')
    const enough = await runConformance({ ...options, minAssessed: 0 })
    expect(enough.summary.verdict).toBe('pass')
    for (const minAssessed of [-1, 100.5, Number.NaN, '50' as unknown as number]) {
      await expect(runConformance({ ...options, minAssessed }), String(minAssessed)).rejects.toMatchObject({
        code: ERROR_CODES.usage,
        message: expect.stringMatching(/^minAssessed must be a percentage from 0 to 100, got /),
      })
    }
  })
})

/** The reference's answer to a GET, recorded as a HAR entry; keepBody false leaves the body out, as a recording may. */
async function recordedEntry(base: string, path: string, sent: Record<string, string>, keepBody = true) {
  const response = await request(`${base}${path}`, { headers: sent })
  const body = await response.body.text()
  return harEntry({
    url: `${base}${path}`,
    sent,
    status: response.statusCode,
    headers: response.headers as Record<string, string | string[]>,
    body: keepBody ? body : undefined,
  })
}

describe('coverage of recorded traffic', () => {
  test('check-har counts each operation by status, judges only responses with a body, and holds the traffic to --min-assessed', async () => {
    const reference = await startReferenceServer()
    const base = reference.baseUrl
    const key = { 'x-api-key': reference.data.apiKey, accept: 'application/json' }
    let entries
    try {
      entries = [
        await recordedEntry(base, '/v1/markets', key),
        await recordedEntry(base, '/v1/markets', {}),
        await recordedEntry(base, '/v1/markets', { accept: 'application/json' }),
        await recordedEntry(base, '/v1/config', key, false),
        // Status 0: a request that got no response.
        harEntry({ url: `${base}/v1/vault`, sent: key, status: 0 }),
        await recordedEntry(base, '/v1/no-such-route', key),
      ]
    } finally {
      await reference.close()
    }
    const dir = mkdtempSync(join(tmpdir(), 'ipts-coverage-har-'))
    const harPath = join(dir, 'traffic.har')
    writeFileSync(harPath, harText(entries))
    const { out } = captureOutput()
    const code = await main(['check-har', harPath, '--report-dir', dir, '--min-assessed', '100'], {})
    vi.restoreAllMocks()
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report
    expect(reportValidator()(report)).toBe(true)
    const byId = new Map(report.coverage.operations.map((op) => [op.operation, op]))
    expect(byId.get('listMarkets')).toEqual({ operation: 'listMarkets', statuses: { 200: 1, 401: 2 }, judged: 3 })
    expect(byId.get('getConfig'), 'a response without its body is seen, not judged').toEqual({
      operation: 'getConfig',
      statuses: { 200: 1 },
      judged: 0,
    })
    expect(byId.get('getVault')).toEqual({ operation: 'getVault', statuses: { 'no response': 1 }, judged: 0 })
    expect(byId.get('getIntentStatus')).toEqual({ operation: 'getIntentStatus', statuses: {}, judged: 0 })
    expect(
      report.coverage.operations.map((op) => op.operation),
      "a route that is no operation is the traffic summary's, not an operation",
    ).toEqual(operations().map((op) => op.id))
    expect(
      report.coverage.requirements.find((r) => r.id === 'ERR-404-UNKNOWN-ROUTE'),
      'a check that sends requests of its own assesses nothing in recorded traffic',
    ).toMatchObject({ assessed: false, reason: NOT_ASSESSED })
    expect(
      report.coverage.requirements.find((r) => r.id === 'AUTH-401-MISSING-KEY'),
      'a 401 to a request without a key assesses it',
    ).toMatchObject({ assessed: true })
    expect(report.coverage.requirements.find((r) => r.id === 'HDR-CONTENT-TYPE-JSON')).toMatchObject({ assessed: true })
    expect(code, out.join('')).toBe(1)
    expect(report.summary.failed).toBe(0)
    expect(out.join('')).toMatch(/^FAIL: .*below the 100% --min-assessed asks for$/m)
  })

  test('the proxy counts what it forwarded, by operation and status', async () => {
    const upstream = await startReferenceServer()
    const dir = mkdtempSync(join(tmpdir(), 'ipts-coverage-proxy-'))
    const { out } = captureOutput()
    const exited = proxy(
      parseProxyArgs(['--upstream', upstream.baseUrl, '--report-dir', dir, '--max-requests', '3']),
      {},
      new AbortController().signal,
    )
    try {
      await vi.waitFor(() => expect(out.join('')).toContain('\n'), { timeout: 10_000 })
      const { url } = JSON.parse(out.join('').split('\n')[0]!) as { url: string }
      const key = { 'x-api-key': upstream.data.apiKey, accept: 'application/json' }
      for (const [path, headers] of [
        ['/v1/markets', key],
        ['/v1/markets', {}],
        ['/v1/config', key],
      ] as const)
        await (await request(`${url}${path}`, { headers })).body.text()
      expect(await exited).toBe(0)
    } finally {
      vi.restoreAllMocks()
      await upstream.close()
    }
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report
    const byId = new Map(report.coverage.operations.map((op) => [op.operation, op]))
    expect(byId.get('listMarkets')).toEqual({ operation: 'listMarkets', statuses: { 200: 1, 401: 1 }, judged: 2 })
    expect(byId.get('getConfig')).toEqual({ operation: 'getConfig', statuses: { 200: 1 }, judged: 1 })
    expect(report.coverage.summary.assessed).toBeGreaterThan(0)
    expect(out.join('')).toMatch(/^PASS: .*; assessed \d+ of \d+ observable requirements/m)
  })
})
