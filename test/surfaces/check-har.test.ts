import { listedBody } from '../../src/http/listed-material.js'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { request } from 'undici'
import type { CheckId } from '../../src/contract/catalogue-ids.js'
import type { FaultName } from '../../src/reference/fault-names.js'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { parseCheckHarArgs } from '../../src/cli/check-har.js'
import { main } from '../../src/cli/main.js'
import { parseProxyArgs } from '../../src/cli/proxy.js'
import { allChecks } from '../../src/checks/index.js'
import { exchangeRules } from '../../src/checks/every-response.js'
import { relationRules } from '../../src/checks/relations.js'
import { operations } from '../../src/contract/operations.js'
import { allowanceByName } from '../../src/reference/allowances/index.js'
import { faultByName, faults } from '../../src/reference/faults/index.js'
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js'
import { NOT_ASSESSED } from '../../src/traffic/judgement.js'
import { SOAK_ROUND } from '../../src/engine/resample.js'
import { LearnedSecrets } from '../../src/traffic/learned-secrets.js'
import { specPath } from '../../src/core/package-root.js'
import { notAssessableWithout } from '../../src/profile/profile.js'
import { REFERENCE_PROFILE_FILE } from '../../src/runner/profile-of-run.js'
import type { Report } from '../../src/core/report.js'
import { CHROMIUM, chromiumSkipReason, LAUNCH_ARGS, recordBrowserTraffic } from '../support/browser.js'
import { harEntry, harText } from '../support/har-entries.js'
import { captureOutput } from '../support/output.js'
import { reportValidator } from '../support/report-schema.js'
import { checksReached, plainRunWith } from '../support/reach.js'
import { failureSummary, idsWithStatus, runAgainstReference } from '../support/run.js'

/** What one recorded exchange can decide: the every-response rules and the checks that say how. */
const oneExchange = new Set([
  ...allChecks.filter((c) => c.recorded).map((c) => c.id),
  ...exchangeRules.map((r) => r.id),
])
/** What recorded traffic can decide: what one exchange can, and the relations between the exchanges. */
const assessable = new Set([...oneExchange, ...relationRules.map((r) => r.id)])

interface CheckHarRun {
  code: number
  out: string
  err: string
  report?: Report
  files: { where: string; text: string }[]
}

async function checkHar(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CheckHarRun> {
  const dir = mkdtempSync(join(tmpdir(), 'ipts-check-har-'))
  const { out, err, restore } = captureOutput()
  let code: number
  try {
    code = await main(['check-har', ...args, '--report-dir', dir], env)
  } finally {
    restore()
  }
  const names = readdirSync(dir)
  const files = names.map((name) => ({ where: name, text: readFileSync(join(dir, name), 'latin1') }))
  const report = names.includes('report.json')
    ? (JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report)
    : undefined
  return { code, out: out.join(''), err: err.join(''), report, files }
}

function secretsOf(reference: ReferenceServer): string[] {
  return [reference.data.apiKey, ...reference.data.intents.map((i) => i.receipt)]
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe.skipIf(chromiumSkipReason)(
  `check-har on traffic Chromium recorded${chromiumSkipReason ? ` (skipped: ${chromiumSkipReason})` : ''}`,
  () => {
    let browser: Browser

    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS })
    })

    afterAll(async () => {
      await browser?.close()
    })

    /**
     * Chromium loads every operation of the reference (with the named fault on), recorded as a HAR; returns the HAR's
     * path.
     */
    async function recordReference(fault?: string): Promise<{ harPath: string; reference: ReferenceServer }> {
      const reference = await startReferenceServer({ behaviours: fault ? [faultByName(fault)!] : [] })
      const harPath = join(mkdtempSync(join(tmpdir(), 'ipts-browser-har-')), 'browser.har')
      try {
        await recordBrowserTraffic(browser, reference.baseUrl, reference, harPath)
      } finally {
        await reference.close()
      }
      return { harPath, reference }
    }

    test('passes the reference: what one exchange decides passes, checks that need probing are not assessed, keys and receipts nowhere', async () => {
      const { harPath, reference } = await recordReference()
      const run = await checkHar([harPath])
      expect(run.code, run.out + run.err).toBe(0)
      const report = run.report!
      expect(report.traffic?.judged, 'the navigation and every operation were judged').toBe(operations().length + 1)
      expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([])
      const passed = idsWithStatus(report, 'passed')
      for (const id of [
        'auth/missing-key',
        'request-ids/valid-echoed',
        'shapes/vault-members',
        'envelope/data',
        'every-response/error-body',
        'every-response/receipt-not-disclosed',
      ]) {
        expect(passed, `${id} was judged on the recorded traffic`).toContain(id)
      }
      for (const check of report.checks.filter((c) => !assessable.has(c.id)))
        expect(check, check.id).toMatchObject({ status: 'skipped', reason: NOT_ASSESSED })
      for (const file of run.files)
        for (const secret of secretsOf(reference))
          expect(file.text.includes(secret), `a secret in ${file.where}`).toBe(false)
      expect(run.files.map((f) => f.where).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'report.md'])
      const validate = reportValidator()
      expect(validate(report), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true)
      expect(report.seed, 'nothing was generated').toBeUndefined()
    })

    test.each([['request-id-too-short-on-success'], ['vault-updated-block-as-number'], ['market-paused-as-string']])(
      'fails the traffic of the fault %s under --strict: exactly the checks it breaks that one exchange decides, with the key as its placeholder',
      async (fault) => {
        const { harPath, reference } = await recordReference(fault)
        const run = await checkHar([harPath, '--strict'])
        expect(run.code, run.out + run.err).toBe(1)
        // A relation needs the same resource read twice, which one load of the page may not do: it is shown apart.
        const failed = run.report!.checks.filter((c) => c.status === 'failed' && oneExchange.has(c.id))
        const expected = faultByName(fault)!
          .breaks.filter((id) => oneExchange.has(id))
          .sort()
        expect(failed.map((c) => c.id).sort(), failed.map((c) => `${c.id}: ${c.reason}`).join('\n')).toEqual(expected)
        expect(failed[0]!.evidence?.request?.headers['x-api-key'], 'the key in the evidence').toBe('$IPTS_API_KEY')
        expect(failed[0]!.evidence?.reproduce).toContain('${IPTS_API_KEY}')
        for (const file of run.files)
          for (const secret of secretsOf(reference))
            expect(file.text.includes(secret), `a secret in ${file.where}`).toBe(false)
      },
    )
  },
)

const harRuns = new Map<string, Promise<{ report: Report; harPath: string }>>()

/**
 * A run against the reference with the faults, and its exchanges.har; each set of faults is run once for the file. The
 * plain reference's run is whole; a fault's runs the checks whose exchanges of a plain run it changes and those it
 * breaks (as test/runs/faults.test.ts does): every exchange the fault changes is in the HAR, every other one is the
 * plain reference's, which check-har passes.
 */
function runWithHar(faults: FaultName[]): Promise<{ report: Report; harPath: string }> {
  const key = faults.join(',')
  let running = harRuns.get(key)
  if (!running) {
    const harPath = join(mkdtempSync(join(tmpdir(), 'ipts-run-har-')), 'exchanges.har')
    // A raw record: judged again whole, the HAR needs what the allowlist would keep out (the config document, a member
    // echoed where the schema names none).
    running = checksTheFaultsReach(faults)
      .then((only) => runAgainstReference({ faults }, { rawRecord: true }, { harPath, ...(only && { only }) }))
      .then((report) => ({ report, harPath }))
    harRuns.set(key, running)
  }
  return running
}

/** The checks a run with the faults needs for its HAR to hold each exchange they change; undefined: the whole suite. */
async function checksTheFaultsReach(names: FaultName[]): Promise<CheckId[] | undefined> {
  const chosen = names.map((name) => faultByName(name)!)
  if (chosen.length === 0 || chosen.some((f) => f.profileWithout || f.run)) return undefined
  const reached = await Promise.all(chosen.map(async (f) => checksReached(f, await plainRunWith({}, {}))))
  const sets = reached.filter((ids) => ids !== 'all')
  if (sets.length < reached.length) return undefined
  return [...new Set([...sets.flatMap((ids) => [...ids]), ...chosen.flatMap((f) => f.breaks)])]
}

// The body rules' recorded judgement is what their checks run on each answer (faults.test proves each); each other
// check with a recorded judgement is shown failing on the HAR of a run with the first fault that breaks it (those
// that hold the target to a profile key, under --profile below).
const judgedApart = allChecks
  .filter((c) => c.recorded && !c.profile && !c.id.startsWith('shapes/') && !c.id.startsWith('envelope/'))
  .map((c) => c.id)
const faultBreaking = (id: CheckId) => faults.find((f) => f.breaks.includes(id))!.name
// Every judgement of one exchange that a profile key decides; the quota's needs a 429, which quota.test judges in a
// run, and the writes' needs --allow-writes, which writes.test judges in a HAR of its own.
const profiled = [...allChecks.filter((c) => c.recorded), ...exchangeRules].filter(
  (j) => j.profile && j.id !== 'every-response/quota-values' && j.profile !== 'writes',
)
/**
 * A fault that breaks this judgement alone of those check-har makes of one exchange; a relation between samples it
 * breaks too is shown apart (below).
 */
const faultBreakingOnly = (id: string) =>
  faults.find((f) => {
    const judged = f.breaks.filter((b) => !b.startsWith('relations/'))
    return judged.length === 1 && judged[0] === id
  })!.name

/** The runs whose HARs the tests below judge, four at a time up front: a run is CPU and waiting, check-har is quick. */
const HAR_RUNS_AT_ONCE = 4
beforeAll(async () => {
  const pending = [
    [],
    ...judgedApart.map((id) => [faultBreaking(id)]),
    ...profiled.map((j) => [faultBreakingOnly(j.id)]),
  ]
  const worker = async () => {
    for (let next = pending.shift(); next; next = pending.shift()) await runWithHar(next)
  }
  await Promise.all(Array.from({ length: HAR_RUNS_AT_ONCE }, worker))
}, 600_000)

describe("check-har on the suite's own exchanges.har", () => {
  test('passes the HAR of a run against the reference', async () => {
    const { harPath } = await runWithHar([])
    const run = await checkHar([harPath, '--strict'])
    expect(run.code, run.out + run.err).toBe(0)
  })

  test.each(judgedApart.map((id) => [id, faultBreaking(id)]))(
    'fails %s on the HAR of a run with the fault %s, as the run did',
    async (id, fault) => {
      const { report, harPath } = await runWithHar([fault])
      expect(idsWithStatus(report, 'failed'), 'the run failed it').toContain(id)
      const run = await checkHar([harPath])
      expect(idsWithStatus(run.report!, 'failed'), 'check-har failed it').toContain(id)
    },
  )
})

describe('check-har judges the relations across the exchanges of a HAR, in its order', () => {
  /** Two reads of the deployment whose responses carry these request IDs, the second made by a soak's fourth round. */
  function twoReads(ids: [string, string]): string {
    const [first, second] = ids.map((id, i) =>
      harEntry({
        url: `http://deployment.test/v1/${i === 0 ? 'config' : 'vault'}`,
        headers: { 'content-type': 'application/json', 'x-request-id': id },
        body: '{"data":{}}',
        startedDateTime: `2026-11-26T00:00:0${i}.000Z`,
      }),
    )
    return harText([first!, { ...second!, connection: '51234', _checks: [`${SOAK_ROUND}4`] }])
  }

  test('two responses with the same x-request-id fail relations/request-id-unique, with the round and connection the HAR names', async () => {
    const harPath = join(mkdtempSync(join(tmpdir(), 'ipts-relations-har-')), 'same-id.har')
    writeFileSync(harPath, twoReads(['req-0000000000000001', 'req-0000000000000001']))
    const run = await checkHar([harPath])
    const unique = run.report!.checks.find((c) => c.id === 'relations/request-id-unique')!
    expect(unique.status, unique.reason).toBe('failed')
    expect(unique.samples).toEqual({ showed: 1, of: 2 })
    expect(unique.evidence!.request?.url).toBe('http://deployment.test/v1/vault')
    expect(unique.evidence!.sample).toEqual({ round: 4, at: '2026-11-26T00:00:01.000Z', connection: { id: '51234' } })
    expect(run.files.find((f) => f.where === 'report.md')!.text).toContain(
      'first seen in round 4 (on connections of its own) at 2026-11-26T00:00:01.000Z, on connection "51234" (as the HAR names it); 1 of 2 samples showed it',
    )
    expect(reportValidator()(run.report), 'valid against specs/report.schema.json').toBe(true)
  })

  test('responses with request IDs of their own pass it', async () => {
    const harPath = join(mkdtempSync(join(tmpdir(), 'ipts-relations-har-')), 'own-ids.har')
    writeFileSync(harPath, twoReads(['req-0000000000000001', 'req-0000000000000002']))
    const run = await checkHar([harPath])
    expect(run.report!.checks.find((c) => c.id === 'relations/request-id-unique')?.status).toBe('passed')
  })
})

describe('check-har ends as a run does (the run session)', () => {
  test("IPTS_BASELINE (--baseline) compares with a previous report: a check the fault failed then is named fixed; the exit code is the traffic's", async () => {
    const [id] = judgedApart
    const { report: before } = await runWithHar([faultBreaking(id!)])
    const baseline = join(mkdtempSync(join(tmpdir(), 'ipts-check-har-baseline-')), 'report.json')
    writeFileSync(baseline, JSON.stringify(before))
    const { harPath } = await runWithHar([])
    const run = await checkHar([harPath], { IPTS_BASELINE: baseline })
    expect(run.code, run.out + run.err).toBe(0)
    expect(run.out).toContain(`compared with ${baseline} (run of ${before.startedAt}):`)
    expect(run.out).toMatch(new RegExp(`^  fixed \\d+: .*\\b${id}\\b`, 'm'))
    expect(run.files.find((f) => f.where === 'report.md')!.text).toContain('### Compared with the baseline')
  })

  test('a baseline that is not a report: one line naming --baseline, exit 2, no report', async () => {
    const notReport = join(mkdtempSync(join(tmpdir(), 'ipts-check-har-baseline-')), 'report.json')
    writeFileSync(notReport, '{"checks": [{"id": 1}]}')
    const { harPath } = await runWithHar([])
    const run = await checkHar([harPath, '--baseline', notReport])
    expect(run.code).toBe(2)
    expect(run.err).toMatch(/^ipts-conformance: --baseline: .* is not a report\.json of this tool[^\n]*\n$/)
    expect(run.files).toEqual([])
  })

  test('paints the verdict on a terminal, and not under NO_COLOR', async () => {
    const { harPath } = await runWithHar([])
    const terminal = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY')
    Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true })
    try {
      expect((await checkHar([harPath])).out).toMatch(/^\x1b\[32mPASS\x1b\[0m: /m)
      expect((await checkHar([harPath], { NO_COLOR: '1' })).out).toMatch(/^PASS: /m)
    } finally {
      if (terminal) Object.defineProperty(process.stdout, 'isTTY', terminal)
      else delete (process.stdout as { isTTY?: boolean }).isTTY
    }
  })
})

describe('check-har --profile', () => {
  const referenceProfile = specPath(REFERENCE_PROFILE_FILE)

  test("passes the HAR of a run against the reference under the reference's own profile, and names the profile", async () => {
    const { harPath } = await runWithHar([])
    const run = await checkHar([harPath, '--strict', '--profile', referenceProfile])
    expect(run.code, run.out + run.err).toBe(0)
    expect(run.report!.profile?.source).toBe(referenceProfile)
    for (const { id } of profiled) expect(run.report!.checks.find((c) => c.id === id)?.status, id).toBe('passed')
  })

  test('judges the HAR a plain run wrote (no --raw-record): a stand-in is not recorded, and the coverage says which rule it kept from judging', async () => {
    const harPath = join(mkdtempSync(join(tmpdir(), 'ipts-run-har-')), 'exchanges.har')
    await runAgainstReference({}, {}, { harPath })
    expect(readFileSync(harPath, 'utf8'), 'the config document kept by allowlist').toContain('«unlisted member: ')
    const run = await checkHar([harPath, '--strict', '--profile', referenceProfile])
    expect(run.code, run.out + run.err).toBe(0)
    // The profile states the config document's members, which the contract's schema does not name: their stand-ins
    // are not values to hold to the profile.
    const reason = expect.stringMatching(/^not assessed: what it needs was recorded as a stand-in in \d+ responses/)
    expect(run.report!.checks.find((c) => c.id === 'profile/config-schema')).toMatchObject({
      status: 'skipped',
      reason,
    })
    expect(run.report!.coverage.requirements.find((r) => r.id === 'EP-CONFIG-SHAPE')).toMatchObject({
      assessed: false,
      reason,
    })
    expect(run.report!.traffic?.standIns?.setAside).toEqual({ 'profile/config-schema': expect.any(Number) })
    expect(run.out).toMatch(/; \d+ with values recorded as stand-ins \(not judged by profile\/config-schema in \d+\)/)
    expect(idsWithStatus(run.report!, 'failed')).toEqual([])
    const validate = reportValidator()
    expect(validate(run.report), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true)
  })

  test.each(profiled.map((j) => [j.id, j.profile!, faultBreakingOnly(j.id)] as const))(
    '%s is not assessable without a profile stating %s, and fails with it, on the HAR of a run with the fault %s',
    async (id, key, fault) => {
      const { harPath } = await runWithHar([fault])
      const without = await checkHar([harPath])
      expect(without.report!.checks.find((c) => c.id === id)).toMatchObject({
        status: 'skipped',
        reason: notAssessableWithout(key),
      })
      // --strict: a SHOULD it fails exits 1 too.
      const held = await checkHar([harPath, '--strict', '--profile', referenceProfile])
      expect(
        idsWithStatus(held.report!, 'failed').filter((failed) => !failed.startsWith('relations/')),
        'exactly the judgement of one exchange the fault breaks',
      ).toEqual([id])
      expect(held.code).toBe(1)
    },
  )

  test('a profile that cannot be used is a usage error: exit 2, one line naming the file and the key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-bad-profile-'))
    const harPath = join(dir, 'empty.har')
    writeFileSync(harPath, harText([]))
    const profile = join(dir, 'profile.yaml')
    writeFileSync(profile, 'profile:\n  intentStates: open\n')
    const run = await checkHar([harPath, '--profile', profile])
    expect(run.code).toBe(2)
    expect(run.err.trim().split('\n'), 'one line').toEqual([
      expect.stringMatching(/profile\.yaml: profile\.intentStates must be array$/),
    ])
    expect(run.files, 'no report is written').toEqual([])
  })
})

describe('check-har on bodies in a content coding', () => {
  /**
   * A HAR entry of a GET the reference answered in gzip, its body kept as the bytes received (base64), as some
   * recorders keep it.
   */
  async function gzipEntries(behaviours: string[], paths: string[]): Promise<{ harPath: string; apiKey: string }> {
    // The coding is applied last, to the body as the fault left it.
    const reference = await startReferenceServer({
      behaviours: [...behaviours.map((name) => faultByName(name)!), allowanceByName('always-gzip')!],
    })
    try {
      const entries = await Promise.all(
        paths.map(async (path) => {
          const answer = await request(`${reference.baseUrl}${path}`, {
            headers: { 'x-api-key': reference.data.apiKey },
          })
          const bytes = Buffer.from(await answer.body.arrayBuffer())
          return harEntry({
            url: `${reference.baseUrl}${path}`,
            sent: { 'X-API-Key': reference.data.apiKey },
            status: answer.statusCode,
            headers: answer.headers as Record<string, string | string[]>,
            content: {
              size: bytes.length,
              mimeType: 'application/json',
              text: bytes.toString('base64'),
              encoding: 'base64',
            },
          })
        }),
      )
      const harPath = join(mkdtempSync(join(tmpdir(), 'ipts-gzip-har-')), 'gzip.har')
      writeFileSync(harPath, harText(entries))
      return { harPath, apiKey: reference.data.apiKey }
    } finally {
      await reference.close()
    }
  }

  test("judges a gzip'd body recorded as its bytes (base64) decoded: the reference passes, a fault in the decoded body fails", async () => {
    const plain = await gzipEntries([], ['/v1/vault', '/v1/config', '/v1/markets'])
    const passed = await checkHar([plain.harPath, '--strict'])
    expect(passed.code, passed.out + passed.err).toBe(0)
    expect(passed.report!.traffic).toMatchObject({ exchanges: 3, judged: 3 })
    const faulty = await gzipEntries(['vault-updated-block-as-number'], ['/v1/vault'])
    const failed = await checkHar([faulty.harPath])
    expect(idsWithStatus(failed.report!, 'failed')).toEqual(['shapes/vault-members'])
    for (const { text } of [...passed.files, ...failed.files])
      expect(text.includes(plain.apiKey) || text.includes(faulty.apiKey), 'a key in a report').toBe(false)
  })
})

describe('check-har usage', () => {
  test.each([
    ['a file that is not JSON', 'GET /v1/config HTTP/1.1\n', /is not a HAR file \(not JSON\)/],
    ['JSON without log.entries', '{"entries":[]}', /is not a HAR file \(no log.entries\)/],
    ['an entry without a request', '{"log":{"entries":[{"response":{}}]}}', /entry 1 has no request/],
    [
      'a HAR with no entries (nothing to judge must not pass)',
      '{"log":{"version":"1.2","entries":[]}}',
      /^ipts-conformance: check-har: .*not\.har has no entries: there is no recorded exchange to judge\n$/,
    ],
  ])('%s is a usage error: exit 2 and one line', async (_, content, message) => {
    const path = join(mkdtempSync(join(tmpdir(), 'ipts-not-har-')), 'not.har')
    writeFileSync(path, content)
    const run = await checkHar([path])
    expect(run.code).toBe(2)
    expect(run.err).toMatch(message)
    expect(run.err.trim().split('\n'), 'one line').toHaveLength(1)
    expect(run.files, 'no report is written').toEqual([])
  })

  test('a value a broken client sent where a key or receipt goes ("undefined", "null", blanks) is not learned as a secret', () => {
    const learned = new LearnedSecrets()
    for (const junk of ['undefined', 'null', '          ', '[object Object]', 'UNDEFINED', 'short12']) {
      learned.learn({
        request: {
          method: 'GET',
          url: `http://127.0.0.1:9/v1/intents/0x00?receipt=${encodeURIComponent(junk)}`,
          headers: { 'x-api-key': junk },
        },
      })
    }
    learned.learn({
      request: { method: 'GET', url: 'http://127.0.0.1:9/v1/vault', headers: { 'x-api-key': 'a-real-key-0123' } },
    })
    expect(learned.list()).toEqual([{ value: 'a-real-key-0123', placeholder: '$IPTS_API_KEY' }])
  })

  test('check-har learns no junk: keys and receipts "undefined", "null", empty or under 8 characters leave the report\'s text as it was', async () => {
    const body = '{"note":"undefined null short12 [object Object]"}'
    // A request ID too short, so that every-response/request-id-format keeps the answer as evidence.
    const entries = ['undefined', 'null', '', 'short12', '[object Object]'].map((junk) =>
      harEntry({
        url: `http://deployment.test/v1/vault?receipt=${encodeURIComponent(junk)}`,
        sent: { 'X-API-Key': junk },
        statusText: 'OK',
        headers: { 'content-type': 'application/json', 'x-request-id': 'req-1' },
        body,
      }),
    )
    const harPath = join(mkdtempSync(join(tmpdir(), 'ipts-junk-har-')), 'junk.har')
    writeFileSync(harPath, harText(entries))
    const run = await checkHar([harPath])
    expect(run.report?.traffic?.exchanges, run.err).toBe(5)
    const json = run.files.find((f) => f.where === 'report.json')!.text
    expect(json, 'no placeholder: nothing was learned').not.toMatch(/\$\{?IPTS_/)
    const evidence = run.report!.checks.find((c) => c.id === 'every-response/request-id-format')?.evidence
    expect(evidence?.response?.bodyExcerpt, 'the body as the allowlist keeps it').toBe(
      listedBody(body, 'getVault', 200),
    )
  })

  test('a missing file argument is a usage error', async () => {
    const run = await checkHar([])
    expect(run.code).toBe(2)
    expect(run.err).toMatch(/missing argument/)
  })

  test('takes its report folder and --strict from IPTS_REPORT_DIR and IPTS_STRICT, as a run does; a flag wins', () => {
    const fromEnv = mkdtempSync(join(tmpdir(), 'ipts-env-report-dir-'))
    expect(parseCheckHarArgs(['traffic.har'], { IPTS_REPORT_DIR: fromEnv, IPTS_STRICT: '1' })).toMatchObject({
      reportDir: fromEnv,
      strict: true,
    })
    expect(
      parseCheckHarArgs(['traffic.har', '--report-dir', 'elsewhere'], { IPTS_REPORT_DIR: fromEnv }).reportDir,
    ).toBe('elsewhere')
    expect(parseProxyArgs(['--upstream', 'http://127.0.0.1:9'], { IPTS_REPORT_DIR: fromEnv }).reportDir).toBe(fromEnv)
  })
})
