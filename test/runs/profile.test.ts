import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { parse } from 'yaml'
import { allChecks } from '../../src/checks/index.js'
import { exchangeRules } from '../../src/checks/every-response.js'
import { main } from '../../src/cli/main.js'
import { operations } from '../../src/contract/operations.js'
import { loadRequirements } from '../../src/contract/requirements.js'
import { specPath } from '../../src/core/package-root.js'
import { profileValues, readProfileFile } from '../../src/profile/load.js'
import { PROFILE_KEYS } from '../../src/profile/profile.js'
import { profileTemplate } from '../../src/cli/profile-template.js'
import { startReferenceServer } from '../../src/reference/server.js'
import { renderHtml } from '../../reporters/html.js'
import { renderMarkdown } from '../../reporters/markdown.js'
import type { Report } from '../../src/core/report.js'
import { failureSummary, runAgainstReference } from '../support/run.js'
import { captureOutput } from '../support/output.js'

const profiledIds = new Set([...allChecks, ...exchangeRules].filter((c) => c.profile).map((c) => c.id))
const profiledRequirements = loadRequirements().filter((r) => r.profile)
const assessed = (report: Report) =>
  report.requirements.filter((r) => r.status !== 'not-assessable' && r.status !== 'uncovered')

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'ipts-profile-'))
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('a run against the embedded reference with its own profile', () => {
  let report: Report
  let requests = 0
  let plainRequests = 0
  let plain: Report
  beforeAll(async () => {
    // With --allow-writes, as its profile states writes: a profile without the opt-in assesses them not (writes.test).
    report = await runAgainstReference({ record: () => requests++ }, { allowWrites: true })
    plain = await runAgainstReference({ record: () => plainRequests++ }, { allowWrites: true }, { profile: null })
  }, 240_000)

  test('passes every profile check; the quota rule meets no 429 without a quota', () => {
    const outcomes = report.checks.filter((c) => profiledIds.has(c.id))
    expect(outcomes.map((c) => c.id).sort()).toEqual([...profiledIds].sort())
    for (const outcome of outcomes) {
      const expected = outcome.id === 'every-response/quota-values' ? 'skipped' : 'passed'
      expect(outcome.status, `${outcome.id}: ${outcome.reason ?? ''}\n${failureSummary(report)}`).toBe(expected)
    }
  })

  test('assesses all but at most 19 of the requirements (94 of 113), those of the profile against it', () => {
    expect(report.requirements.length).toBe(113)
    expect(
      assessed(report).length,
      report.requirements
        .filter((r) => r.status === 'not-assessable')
        .map((r) => r.id)
        .join(', '),
    ).toBeGreaterThanOrEqual(94)
    expect(report.profile?.source).toMatch(/reference-profile\.yaml/)
    for (const requirement of profiledRequirements) {
      const traced = report.requirements.find((r) => r.id === requirement.id)!
      expect(traced.profile?.key, requirement.id).toBe(requirement.profile)
      expect(traced.profile?.value, requirement.id).toEqual(report.profile!.values[requirement.profile!])
      expect(traced.status, requirement.id).not.toBe('not-assessable')
    }
  })

  test('without a profile, each requirement of a profile key is not assessable and names the key', () => {
    for (const requirement of profiledRequirements) {
      const traced = plain.requirements.find((r) => r.id === requirement.id)!
      expect(traced.status, requirement.id).toBe('not-assessable')
      expect(traced.reason, requirement.id).toContain(`\`${requirement.profile}\``)
      expect(traced.profile).toBeUndefined()
    }
    for (const check of plain.checks.filter((c) => profiledIds.has(c.id)))
      expect(check.status, check.id).toBe('skipped')
    expect(plain.profile).toBeUndefined()
    expect(assessed(plain).length).toBe(assessed(report).length - profiledRequirements.length)
  })

  test('adds requests to a run, and changes no other outcome', () => {
    console.info(
      `requests with the reference's profile: ${requests}; without a profile: ${plainRequests}; added: ${requests - plainRequests}`,
    )
    expect(requests).toBeGreaterThan(plainRequests)
    // The readings that every Balance and PnL member is sent give way to the profile's requiredMembers, which states
    // which are.
    const givesWay = new Set(['shapes/balance-all-members', 'shapes/pnl-all-members'])
    const others = (r: Report) =>
      Object.fromEntries(
        r.checks.filter((c) => !profiledIds.has(c.id) && !givesWay.has(c.id)).map((c) => [c.id, c.status]),
      )
    expect(others(report)).toEqual(others(plain))
    const statuses = (r: Report) => r.checks.filter((c) => givesWay.has(c.id)).map((c) => c.status)
    expect(statuses(plain), 'the readings judge a run without a profile').toEqual(['passed', 'passed'])
    expect(statuses(report), 'and give way to a profile that states requiredMembers').toEqual(['skipped', 'skipped'])
  })
})

describe('a failure against the profile', () => {
  test('names the profile value in report.json, report.md and report.html', async () => {
    const report = await runAgainstReference(
      { faults: ['intent-state-expired'] },
      {},
      { only: ['intents/receipt-grants-status', 'intents/second-receipt-grants-status'] },
    )
    const failed = report.checks.find((c) => c.id === 'every-response/intent-state-listed')!
    expect(failed.status, failureSummary(report)).toBe('failed')
    expect(failed.evidence?.profile).toMatchObject({ key: 'intentStates', value: report.profile!.values.intentStates })
    expect(failed.reason).toContain('"expired"')
    const requirement = report.requirements.find((r) => r.id === 'STATE-INTENT-VALUES')!
    expect(requirement.status).toBe('failed')
    for (const rendered of [renderMarkdown(report), renderHtml(report)]) {
      expect(rendered).toContain('assessed against the profile: intentStates = ')
      expect(rendered).toContain('STATE-INTENT-VALUES')
    }
  })
})

describe('the published description', () => {
  test('is fetched from a URL with one GET and checked', async () => {
    const publisher = await startReferenceServer({
      behaviours: [
        {
          name: 'record',
          description: 'records',
          onResponse: (_, request) => seen.push(`${request.method} ${request.path}`),
        },
      ],
    })
    const seen: string[] = []
    try {
      const dir = tempDir()
      writeFileSync(join(dir, 'profile.yaml'), `profile:\n  openapi: ${publisher.baseUrl}/openapi.json\n`)
      const report = await runAgainstReference(
        {},
        {},
        {
          profile: { values: readProfileFile(join(dir, 'profile.yaml')), baseDir: dir, source: 'test' },
          only: ['profile/openapi-document', 'profile/openapi-compatible'],
        },
      )
      for (const id of ['profile/openapi-document', 'profile/openapi-compatible'])
        expect(report.checks.find((c) => c.id === id)?.status, failureSummary(report)).toBe('passed')
      expect(seen).toEqual(['GET /openapi.json'])
    } finally {
      await publisher.close()
    }
  })

  test('read from a file that accepts an IntentStatus with an extra member fails the compatibility check', async () => {
    const dir = tempDir()
    const document = parse(readFileSync(specPath('openapi.yaml'), 'utf8'))
    delete document.components.schemas.IntentStatus.additionalProperties
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document))
    const report = await runAgainstReference(
      {},
      {},
      {
        profile: { values: { openapi: 'openapi.json' }, baseDir: dir, source: 'test' },
        only: ['profile/openapi-document', 'profile/openapi-compatible'],
      },
    )
    expect(report.checks.find((c) => c.id === 'profile/openapi-document')?.status, failureSummary(report)).toBe(
      'passed',
    )
    const compatible = report.checks.find((c) => c.id === 'profile/openapi-compatible')!
    expect(compatible.status).toBe('failed')
    expect(compatible.reason).toMatch(
      /accepts a getIntentStatus body the contract forbids \(fault intent-extra-member\)/,
    )
  })
})

/** An intake with its receipt and status operation, for the chained cancellations of the bad profiles below. */
const INTAKE =
  '      submit:\n        kind: intent\n        method: POST\n        path: /v1/intents\n        statusIdentifier: /data/hash\n        receipt: /data/receipt\n        statusPath: /v1/intents/{id}?receipt={receipt}\n        bodies: { command: [./sign] }\n'

describe('a bad profile', () => {
  const write = (text: string, extra: Record<string, string> = {}) => {
    const dir = tempDir()
    for (const [name, content] of Object.entries(extra)) writeFileSync(join(dir, name), content)
    writeFileSync(join(dir, 'profile.yaml'), text)
    return join(dir, 'profile.yaml')
  }

  test.each([
    [
      'an unknown key',
      'profile:\n  intentStatus: [open]\n',
      /profile\.yaml: unknown key 'profile\.intentStatus' \(did you mean 'profile\.intentStates'\?\)$/,
    ],
    [
      'a misspelt top-level key',
      'profle:\n  intentStates: [open]\n',
      /profile\.yaml: unknown key 'profle' \(did you mean 'profile'\?\)$/,
    ],
    [
      'no profile key at all',
      'intentStates: [open]\n',
      /profile\.yaml: unknown key 'intentStates' \(the keys there: profile\)$/,
    ],
    [
      'an empty mapping',
      '{}\n',
      /profile\.yaml: has no 'profile' key: a profile file is a mapping under 'profile:' \(ipts-conformance profile init writes one\)$/,
    ],
    ['a wrong type', 'profile:\n  intentStates: open\n', /profile\.yaml: profile\.intentStates must be array$/],
    [
      'an unknown operation name',
      'profile:\n  restrictedKey: { refused: [getVualt] }\n',
      /profile\.yaml: profile\.restrictedKey\.refused\.0 is "getVualt", not an operation of the contract that this key takes \(closest first: getVault, [a-zA-Z, ]+\)$/,
    ],
    [
      'an unknown operation as a key',
      'profile:\n  serviceSource: { getVaults: indexed }\n',
      /profile\.serviceSource has the key "getVaults", not an operation of the contract that this key takes \(closest first: getVault, /,
    ],
    [
      'a list operation misspelt',
      'profile:\n  pagination: { listMarket: { minPageSize: 1, maxPageSize: 5, outOfRange: reject } }\n',
      /profile\.pagination has the key "listMarket", not an operation of the contract that this key takes \(closest first: listMarkets, listTraderBalances\)$/,
    ],
    [
      'a value not among those the key takes',
      'profile:\n  pagination: { listMarkets: { minPageSize: 1, maxPageSize: 5, outOfRange: rejct } }\n',
      /profile\.pagination\.listMarkets\.outOfRange is "rejct", not a value this key takes \(closest first: reject, clamp\)$/,
    ],
    [
      'page-size bounds the wrong way round',
      'profile:\n  pagination: { listMarkets: { minPageSize: 10, maxPageSize: 5, outOfRange: reject } }\n',
      /profile\.pagination\.listMarkets has minPageSize 10 above maxPageSize 5/,
    ],
    [
      'a chained cancellation that names nothing of what it cancels',
      `profile:\n  writes:\n    operations:\n${INTAKE}      cancel:\n        kind: cancellation\n        method: POST\n        path: /v1/cancellations\n        statusIdentifier: /data/id\n        bodies: { command: [./sign] }\n        cancels: { operation: submit, bodies: { command: [./sign, x] }, state: /state, terminalStates: [cancelled] }\n`,
      /profile\.yaml: profile\.writes\.operations\.cancel\.cancels names no value of the submission it cancels: its path, query, headers or bodies\.command must hold \{id\}, \{receipt\} or \{\/json\/pointer\}$/,
    ],
    [
      'a status both accepted and refused',
      `profile:\n  writes:\n    operations:\n${INTAKE}      cancel:\n        kind: cancellation\n        method: POST\n        path: /v1/cancellations\n        statusIdentifier: /data/id\n        bodies: { command: [./sign] }\n        cancels: { operation: submit, path: '/v1/intents/{id}/cancel', bodies: { command: [./sign, x] }, accepted: [202], refused: [202, 403], state: /state, terminalStates: [cancelled] }\n`,
      /profile\.yaml: profile\.writes\.operations\.cancel\.cancels lists 202 as both accepted and refused$/,
    ],
    [
      'a write operation whose status is both accepted and refused',
      `profile:\n  writes:\n    operations:\n      submit:\n        kind: intent\n        method: POST\n        path: /v1/intents\n        statusIdentifier: /data/hash\n        accepted: [200, 202]\n        refused: [400, 200]\n        bodies: { command: [./sign] }\n`,
      /profile\.yaml: profile\.writes\.operations\.submit lists 200 as both accepted and refused$/,
    ],
    [
      'a key-reuse refusal status the operation accepts (any 2xx, as it states no accepted)',
      `profile:\n  writes:\n    operations:\n${INTAKE.replace('statusIdentifier', 'keyReuse: { refused: [409, 201] }\n        statusIdentifier')}`,
      /profile\.yaml: profile\.writes\.operations\.submit\.keyReuse\.refused lists 201, a status this operation accepts$/,
    ],
    [
      'a key-reuse refusal status among those the operation states it accepts',
      `profile:\n  writes:\n    operations:\n${INTAKE.replace('statusIdentifier', 'accepted: [202, 409]\n        keyReuse: { refused: [422, 409] }\n        statusIdentifier')}`,
      /profile\.yaml: profile\.writes\.operations\.submit\.keyReuse\.refused lists 409, a status this operation accepts$/,
    ],
    [
      'a chained cancellation path with a query',
      `profile:\n  writes:\n    operations:\n${INTAKE}      cancel:\n        kind: cancellation\n        method: POST\n        path: /v1/cancellations\n        statusIdentifier: /data/id\n        bodies: { command: [./sign] }\n        cancels: { operation: submit, path: '/v1/intents/{id}?receipt={receipt}', bodies: { command: [./sign, x] }, state: /state, terminalStates: [cancelled] }\n`,
      /profile\.yaml: profile\.writes\.operations\.cancel\.cancels\.path must match pattern "\^\/v1\/\[\^\?#\]\*\$"$/,
    ],
    [
      'a YAML syntax error',
      'profile:\n  intentStates: [open,\n',
      /profile\.yaml: not valid YAML at line 3, column 1: Flow sequence in block collection must be sufficiently indented and end with a \]$/,
    ],
    [
      'a tab as indentation',
      'profile:\n\tintentStates: [open]\n',
      /profile\.yaml: not valid YAML at line 2, column 1: Tabs are not allowed as indentation$/,
    ],
    [
      'a config schema that cannot be read',
      'profile:\n  configSchema: missing.json\n',
      /profile\.yaml: profile\.configSchema cannot be read/,
    ],
    [
      'a config schema that does not compile',
      'profile:\n  configSchema: config.schema.json\n',
      /profile\.configSchema: .* does not compile/,
      { 'config.schema.json': '{"type":"nothing"}' },
    ],
    [
      'an unreachable openapi source',
      'profile:\n  openapi: http://127.0.0.1:9/openapi.json\n',
      /profile\.yaml: profile\.openapi cannot be fetched from http:\/\/127\.0\.0\.1:9\/openapi\.json/,
    ],
    [
      'an openapi file that is not JSON or YAML',
      'profile:\n  openapi: openapi.json\n',
      /profile\.openapi at .* is neither JSON nor YAML \(not valid YAML at line 1, column 14: Flow sequence in block collection must be sufficiently indented and end with a \]\)$/,
      { 'openapi.json': '{"openapi": [' },
    ],
  ] as const)(
    'with %s exits 2 with one line naming the file and the key',
    async (_, text, message, files: Record<string, string> = {}) => {
      const { err } = captureOutput()
      const code = await main(['--profile', write(text, files), '--report-dir', tempDir()], {})
      vi.restoreAllMocks()
      expect(code, err.join('')).toBe(2)
      expect(err.join('').trimEnd()).toMatch(message)
      expect(err.join('').trim().split('\n')).toHaveLength(1)
    },
  )

  test('a profile file that cannot be read names what gave its path: the flag or the variable', async () => {
    const { err } = captureOutput()
    expect(await main(['--profile', '/nonexistent/profile.yaml', '--report-dir', tempDir()], {})).toBe(2)
    expect(await main(['--report-dir', tempDir()], { IPTS_PROFILE: '/nonexistent/profile.yaml' })).toBe(2)
    vi.restoreAllMocks()
    expect(err.join('').trimEnd().split('\n')).toEqual([
      'ipts-conformance: --profile: cannot read /nonexistent/profile.yaml (ENOENT)',
      'ipts-conformance: IPTS_PROFILE: cannot read /nonexistent/profile.yaml (ENOENT)',
    ])
  })

  test('a profile inline in a --config file names that file', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'ipts.yaml'), 'profile:\n  restrictedKey: { granted: [listMarket] }\n')
    const { err } = captureOutput()
    expect(await main(['--config', join(dir, 'ipts.yaml'), '--report-dir', tempDir()], {})).toBe(2)
    vi.restoreAllMocks()
    expect(err.join('').trimEnd()).toMatch(
      /^ipts-conformance: \S+ipts\.yaml: profile\.restrictedKey\.granted\.0 is "listMarket", not an operation of the contract that this key takes \(closest first: listMarkets, /,
    )
  })
})

describe('the profile file format', () => {
  const schema = JSON.parse(readFileSync(specPath('profile.schema.json'), 'utf8'))

  test("specs/profile.schema.json validates the reference's own profile and names the contract's operations", () => {
    const validate = new Ajv2020({ strict: true, allowUnionTypes: true }).compile(schema)
    expect(
      validate(parse(readFileSync(specPath('reference-profile.yaml'), 'utf8'))),
      JSON.stringify(validate.errors),
    ).toBe(true)
    expect(schema.$defs.operation.enum.sort()).toEqual(
      operations()
        .map((op) => op.id)
        .sort(),
    )
    expect(Object.keys(schema.properties.profile.properties)).toEqual([...PROFILE_KEYS])
  })

  test('profile init writes a commented template of every key, valid as it is and with every key uncommented', async () => {
    const file = join(tempDir(), 'ipts-profile.yaml')
    captureOutput()
    expect(await main(['profile', 'init', file], {})).toBe(0)
    const { err } = captureOutput()
    expect(await main(['profile', 'init', file], {}), 'a second init overwrote the file').toBe(2)
    vi.restoreAllMocks()
    expect(err.join('')).toMatch(/exists; it is not overwritten/)
    const template = readFileSync(file, 'utf8')
    expect(template).toBe(profileTemplate())
    expect(profileValues(parse(template), 'template')).toEqual({})
    // Each key is a block: what it states, what it unlocks, then its example, commented out.
    const blocks = template.split('\n\n')
    const uncommentedText = [
      blocks[0],
      ...blocks.slice(1).map((block) =>
        block
          .split('\n')
          .map((line, i) => (i >= 2 ? line.replace(/^ {2}# /, '  ') : line))
          .join('\n'),
      ),
    ].join('\n\n')
    const uncommented = profileValues(parse(uncommentedText), 'template')
    expect(Object.keys(uncommented).sort()).toEqual([...PROFILE_KEYS].sort())
    for (const key of PROFILE_KEYS)
      expect(template, `the template does not say what ${key} unlocks`).toMatch(
        new RegExp(`# ${key}: [^\\n]+\\n {2}# Unlocks: assesses [A-Z]`),
      )
  })
})
