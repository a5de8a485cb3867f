import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { specPath } from '../../src/core/package-root.js'
import { ERROR_CODES, ProfileError } from '../../src/core/errors.js'
import { configSchemaCompiler } from '../../src/profile/config-schema.js'
import {
  loadProfile,
  parsedProfileFile,
  profileProblems,
  profileValues,
  readProfileFile,
} from '../../src/profile/load.js'
import { readPublishedDescription, type DescriptionFetch } from '../../src/profile/published-description.js'

/**
 * The loading of a deployment profile (src/profile/load.ts), in this process: each key's valid and invalid values,
 * each refused in one problem line that names the key, and the rules a schema cannot state at their edges.
 */

type Values = Record<string, unknown>

const REFERENCE = (parse(readFileSync(specPath('reference-profile.yaml'), 'utf8')) as { profile: Values }).profile

/** A profile file of the reference's value of each key named, or of the values given. */
const fileOf = (values: Values) => ({ profile: structuredClone(values) })
const referenceWith = (...keys: string[]) => fileOf(Object.fromEntries(keys.map((key) => [key, REFERENCE[key]])))

/** The reference's writes with one operation edited. */
function writesWith(name: string, edit: (op: Values) => void, more: Values = {}) {
  const writes = structuredClone(REFERENCE.writes) as { operations: Record<string, Values> }
  edit(writes.operations[name]!)
  return fileOf({ writes: { ...writes, ...more } })
}

const dirs: string[] = []
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ipts-profile-load-'))
  dirs.push(dir)
  return dir
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

describe('each key of the profile', () => {
  test.each(Object.keys(REFERENCE))("the reference's %s alone is valid and read as written", (key) => {
    expect(profileProblems(referenceWith(key))).toEqual([])
    expect(profileValues(referenceWith(key), 'p.yaml')).toEqual({ [key]: REFERENCE[key] })
  })

  test.each([
    ['restrictedKey', {}, 'profile.restrictedKey must NOT have fewer than 1 properties'],
    ['restrictedKey', { refused: [] }, 'profile.restrictedKey.refused must NOT have fewer than 1 items'],
    [
      'pagination',
      { listMarkets: { minPageSize: 0, maxPageSize: 5, outOfRange: 'reject' } },
      'profile.pagination.listMarkets.minPageSize must be >= 1',
    ],
    [
      'pagination',
      { listMarkets: { minPageSize: 1, maxPageSize: 100_001, outOfRange: 'clamp' } },
      'profile.pagination.listMarkets.maxPageSize must be <= 100000',
    ],
    [
      'pagination',
      { listMarkets: { minPageSize: 1, maxPageSize: 5 } },
      "profile.pagination.listMarkets must have required property 'outOfRange'",
    ],
    ['intentStates', 'open', 'profile.intentStates must be array'],
    ['marketStatuses', [], 'profile.marketStatuses must NOT have fewer than 1 items'],
    [
      'serviceSource',
      { getVault: 'cached' },
      'profile.serviceSource.getVault is "cached", not a value this key takes (closest first: indexed, live, automation)',
    ],
    ['errorCodes', ['x', 'x'], 'profile.errorCodes must NOT have duplicate items (items ## 1 and 0 are identical)'],
    [
      'requiredMembers',
      { Vault: ['cumulativeDepositedToken'] },
      'profile.requiredMembers.Vault.0 is "cumulativeDepositedToken", not a value this key takes ' +
        '(closest first: cumulativeDepositedTokens, cumulativeWithdrawnTokens)',
    ],
    ['configSchema', '', 'profile.configSchema must NOT have fewer than 1 characters'],
    ['quota', { limit: 0 }, 'profile.quota.limit must be >= 1'],
    ['openapi', 3, 'profile.openapi must be string'],
    ['writes', {}, "profile.writes must have required property 'operations'"],
    ['realtime', { url: '/ws' }, "profile.realtime must have required property 'ticket'"],
  ])('%s: %j is refused with the first problem "%s"', (key, value, problem) => {
    const parsed = fileOf({ [key]: value })
    expect(profileProblems(parsed)[0]).toBe(problem)
    expect(() => profileValues(parsed, 'where.yaml')).toThrow(`where.yaml: ${problem}`)
  })

  test('openapi, which the runner adds to the reference’s, is a file or a URL', () => {
    for (const openapi of ['openapi.json', 'https://example.test/openapi.json'])
      expect(profileValues(fileOf({ openapi }), 'p.yaml')).toEqual({ openapi })
  })

  test('every key of the schema is tried above', () => {
    const schema = JSON.parse(readFileSync(specPath('profile.schema.json'), 'utf8')) as {
      properties: { profile: { properties: object } }
    }
    expect([...Object.keys(REFERENCE), 'openapi'].sort()).toEqual(
      Object.keys(schema.properties.profile.properties).sort(),
    )
  })
})

describe('the problem lines of the schema', () => {
  test.each([
    // The closest key is named when it is at most max(2, a third of the unknown key's length) edits away.
    ['intentStatus', "unknown key 'profile.intentStatus' (did you mean 'profile.intentStates'?)"],
    ['intentStatesUVWXYZ', "unknown key 'profile.intentStatesUVWXYZ' (did you mean 'profile.intentStates'?)"],
    ['quotaXY', "unknown key 'profile.quotaXY' (did you mean 'profile.quota'?)"],
    // Two edits away from a key of 5: a third of the length is less than 2, so 2 is the bound.
    ['quoXY', "unknown key 'profile.quoXY' (did you mean 'profile.quota'?)"],
    ['intentStatesTUVWXYZ', "unknown key 'profile.intentStatesTUVWXYZ' (the keys there: restrictedKey, pagination, "],
    ['quotaXYZ', "unknown key 'profile.quotaXYZ' (the keys there: restrictedKey, pagination, "],
  ])('an unknown key %s reads "%s…"', (unknown, problem) => {
    const [first] = profileProblems(fileOf({ [unknown]: 1 }))
    expect(first!.startsWith(problem), first).toBe(true)
  })

  test('far from every key, the keys there are listed in full, as the schema orders them', () => {
    expect(profileProblems(fileOf({ quota: { zzzzzz: 1 } }))).toEqual([
      "unknown key 'profile.quota.zzzzzz' (the keys there: limit, scope)",
    ])
  })

  test('a key holding / or ~ is named as the file spells it, though the schema refuses the name', () => {
    const pagination = { 'list/Markets~': { minPageSize: 'one', maxPageSize: 5, outOfRange: 'reject' } }
    expect(profileProblems(fileOf({ pagination }))).toContain(
      'profile.pagination.list/Markets~.minPageSize must be integer',
    )
  })

  test('a top-level key is named without a prefix', () => {
    expect(profileProblems({ profle: {} })[0]).toBe("unknown key 'profle' (did you mean 'profile'?)")
    expect(profileProblems({ profile: {}, xyzxyzxyz: 1 })).toEqual([
      "unknown key 'xyzxyzxyz' (the keys there: profile)",
    ])
  })

  test('an unknown key comes first, though the schema finds it after another problem, and no problem twice', () => {
    const problems = profileProblems(fileOf({ intentStates: 'open', quota: { scope: 'key', limt: 1 } }))
    expect(problems).toEqual([
      "unknown key 'profile.quota.limt' (did you mean 'profile.quota.limit'?)",
      'profile.intentStates must be array',
    ])
  })

  test('a value no operation of the contract is named as such; as a key it is "has the key"', () => {
    expect(profileProblems(fileOf({ restrictedKey: { granted: ['getVualt'] } }))[0]).toMatch(
      /^profile\.restrictedKey\.granted\.0 is "getVualt", not an operation of the contract that this key takes \(closest first: getVault, /,
    )
    expect(profileProblems(fileOf({ serviceSource: { getVaults: 'live' } }))[0]).toMatch(
      /^profile\.serviceSource has the key "getVaults", not an operation of the contract that this key takes \(closest first: getVault, /,
    )
    // Two list operations are operations too: the wording turns on every value allowed being one.
    expect(profileProblems(fileOf({ pagination: { listMarket: {} } }))[0]).toBe(
      'profile.pagination has the key "listMarket", not an operation of the contract that this key takes (closest first: listMarkets, listTraderBalances)',
    )
  })

  test('without a profile key the file says what a profile file is; a file that is no mapping is "the file"', () => {
    expect(profileProblems({})).toEqual([
      "has no 'profile' key: a profile file is a mapping under 'profile:' (ipts-conformance profile init writes one)",
    ])
    expect(profileProblems('profile')).toEqual(['the file must be object'])
    expect(profileProblems(fileOf({ quota: 'x' }))).toEqual(['profile.quota must be object'])
  })

  test('a header name with ~ is spelt as the file spells it', () => {
    const writes = writesWith('cancelIntent', (op) => ((op.cancels as Values).headers = { 'X~01': 5 }))
    expect(profileProblems(writes)).toEqual([
      'profile.writes.operations.cancelIntent.cancels.headers.X~01 must be string',
    ])
  })

  test('an empty profile states nothing', () => {
    expect(profileProblems({ profile: null })).toEqual([])
    expect(profileValues({ profile: null }, 'p.yaml')).toEqual({})
    expect(profileValues({ profile: {} }, 'p.yaml')).toEqual({})
  })
})

describe('the rules a schema cannot state', () => {
  const pagination = (minPageSize: number, maxPageSize: number) =>
    fileOf({ pagination: { listTraderBalances: { minPageSize, maxPageSize, outOfRange: 'clamp' } } })

  test('page-size bounds may be equal, not the wrong way round', () => {
    expect(profileProblems(pagination(5, 5))).toEqual([])
    expect(profileProblems(pagination(6, 5))).toEqual([
      'profile.pagination.listTraderBalances has minPageSize 6 above maxPageSize 5',
    ])
  })

  test.each([
    ['^[A-Za-z0-9]{8,128}$', []],
    // With the u flag \p{L} is a letter; without it, a p among other characters.
    ['^[\\p{L}\\p{N}]{8,128}$', []],
    [
      '^[A-Za-z0-9]{9,128}$',
      ['profile.writes.keyPattern refuses keys of 8 and 128 letters and digits, which the contract allows'],
    ],
    [
      '^[A-Za-z0-9]{8,127}$',
      ['profile.writes.keyPattern refuses keys of 8 and 128 letters and digits, which the contract allows'],
    ],
    [
      '^[a-z0-9]+$',
      ['profile.writes.keyPattern refuses keys of 8 and 128 letters and digits, which the contract allows'],
    ],
    [
      '^[A-Z',
      [expect.stringMatching(/^profile\.writes\.keyPattern is not a regular expression: Invalid regular expression: /)],
    ],
  ])('keyPattern %s: %j', (keyPattern, problems) => {
    expect(profileProblems(writesWith('submitIntent', () => {}, { keyPattern }))).toEqual(problems)
  })

  test('a cancellation cancels an intake of these writes that has its receipt and statusPath', () => {
    const named = (name: string) =>
      `profile.writes.operations.${name}.cancels names submitIntent, ` +
      'which must be an intake of these writes with its receipt and statusPath, from a cancellation'
    expect(profileProblems(writesWith('submitIntent', (op) => delete op.receipt))).toEqual([named('cancelIntent')])
    expect(profileProblems(writesWith('submitIntent', (op) => delete op.statusPath))).toEqual([named('cancelIntent')])
    expect(profileProblems(writesWith('cancelIntent', (op) => (op.kind = 'action')))).toEqual([named('cancelIntent')])
    const other = writesWith('cancelIntent', (op) => ((op.cancels as Values).operation = 'submitOther'))
    expect(profileProblems(other)).toEqual([named('cancelIntent').replace('names submitIntent', 'names submitOther')])
  })

  test('a cancellation names a value of what it cancels', () => {
    const cancels = (op: Values) => op.cancels as Values
    const without = writesWith('cancelIntent', (op) => {
      cancels(op).path = '/v1/cancellations'
      delete cancels(op).headers
      cancels(op).bodies = { command: ['./sign', 'cancellation'] }
    })
    expect(profileProblems(without)).toEqual([
      'profile.writes.operations.cancelIntent.cancels names no value of the submission it cancels: ' +
        'its path, query, headers or bodies.command must hold {id}, {receipt} or {/json/pointer}',
    ])
  })

  test('a status both accepted and refused, by an operation or its chained step, is named with where', () => {
    const both = writesWith('cancelIntent', (op) => {
      op.accepted = [200, 202]
      op.refused = [400, 202]
      ;(op.cancels as Values).accepted = [200]
      ;(op.cancels as Values).refused = [404, 200]
    })
    expect(profileProblems(both)).toEqual([
      'profile.writes.operations.cancelIntent lists 202 as both accepted and refused',
      'profile.writes.operations.cancelIntent.cancels lists 200 as both accepted and refused',
    ])
    const apart = writesWith('cancelIntent', (op) => {
      op.accepted = [200]
      op.refused = [202]
    })
    expect(profileProblems(apart)).toEqual([])
  })

  test('a key reuse is refused with a status the operation does not accept: any 2xx when it states none', () => {
    const reuse = (refused: number[], accepted?: number[]) =>
      profileProblems(
        writesWith('submitIntent', (op) => {
          op.keyReuse = { refused }
          if (accepted) op.accepted = accepted
        }),
      )
    expect(reuse([409, 300])).toEqual([])
    expect(reuse([409, 299])).toEqual([
      'profile.writes.operations.submitIntent.keyReuse.refused lists 299, a status this operation accepts',
    ])
    expect(reuse([409, 201], [202])).toEqual([])
    expect(reuse([409, 422], [202, 409])).toEqual([
      'profile.writes.operations.submitIntent.keyReuse.refused lists 409, a status this operation accepts',
    ])
    expect(profileProblems(writesWith('submitIntent', (op) => delete op.keyReuse))).toEqual([])
  })

  test("the realtime section's rules are the loader's", () => {
    const realtime = structuredClone(REFERENCE.realtime) as Values
    realtime.open = '{"channel":"{channel}"}'
    expect(profileProblems(fileOf({ realtime }))).toEqual([
      'profile.realtime.open holds no {receipt}: the receipt capability is what opens a protected channel',
    ])
  })

  test('the restricted key may not be both refused and granted an operation', () => {
    expect(
      profileProblems(fileOf({ restrictedKey: { refused: ['getVault', 'getConfig'], granted: ['getConfig'] } })),
    ).toEqual(['profile.restrictedKey lists getConfig as both refused and granted'])
    expect(profileProblems(fileOf({ restrictedKey: { granted: ['getConfig'] } }))).toEqual([])
    expect(profileProblems(fileOf({ restrictedKey: { refused: ['getConfig'] } }))).toEqual([])
  })
})

describe('a profile file', () => {
  const written = (text: string) => {
    const path = join(tempDir(), 'profile.yaml')
    writeFileSync(path, text)
    return path
  }

  test('is read, parsed and checked', () => {
    const path = written('profile:\n  intentStates: [open]\n')
    expect(parsedProfileFile(path)).toEqual({ profile: { intentStates: ['open'] } })
    expect(readProfileFile(path)).toEqual({ intentStates: ['open'] })
  })

  test('that cannot be read names what gave its path, --profile unless told', () => {
    const missing = join(tempDir(), 'absent.yaml')
    expect(() => readProfileFile(missing)).toThrow(`--profile: cannot read ${missing} (ENOENT)`)
    expect(() => parsedProfileFile(missing, 'IPTS_PROFILE')).toThrow(`IPTS_PROFILE: cannot read ${missing} (ENOENT)`)
    const dir = tempDir()
    expect(() => parsedProfileFile(dir)).toThrow(`--profile: cannot read ${dir} (EISDIR)`)
  })

  test('that is not YAML names the file and where', () => {
    const path = written('profile:\n\tintentStates: [open]\n')
    expect(() => parsedProfileFile(path)).toThrow(
      `${path}: not valid YAML at line 2, column 1: Tabs are not allowed as indentation`,
    )
  })

  test('whose values are refused names the file, as a ProfileError', () => {
    const path = written('profile:\n  intentStates: open\n')
    let thrown: unknown
    try {
      readProfileFile(path)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(ProfileError)
    expect((thrown as ProfileError).code).toBe(ERROR_CODES.profile)
    expect((thrown as Error).message).toBe(`${path}: profile.intentStates must be array`)
  })
})

describe('a profile loaded', () => {
  const SCHEMA = { type: 'object', required: ['chainId'] }

  function profileDir(files: Record<string, string>, profile: string) {
    const dir = tempDir()
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true })
      writeFileSync(join(dir, name), text)
    }
    writeFileSync(join(dir, 'profile.yaml'), profile)
    return dir
  }

  test('from a file: its source is the file, its config schema read relative to it', async () => {
    const dir = profileDir(
      { 'schemas/config.json': JSON.stringify(SCHEMA) },
      'profile:\n  configSchema: schemas/config.json\n',
    )
    const file = join(dir, 'profile.yaml')
    const profile = await loadProfile({ file })
    expect(profile).toEqual({
      source: file,
      baseDir: resolve(dir),
      values: { configSchema: 'schemas/config.json' },
      configSchema: SCHEMA,
    })
  })

  test('inline: its source and base directory are those given; the same schema is the same object again', async () => {
    const dir = profileDir({ 'config.json': JSON.stringify(SCHEMA) }, '')
    const given = { values: { configSchema: 'config.json' }, baseDir: dir, source: 'ipts.yaml' }
    const first = await loadProfile(given)
    expect(first).toMatchObject({ source: 'ipts.yaml', baseDir: dir, configSchema: SCHEMA })
    const again = await loadProfile(given)
    expect(again.configSchema).toBe(first.configSchema)
  })

  test('without a config schema or an openapi key it holds the values alone', async () => {
    expect(await loadProfile({ values: {}, baseDir: '/x', source: 's' })).toEqual({
      source: 's',
      baseDir: '/x',
      values: {},
    })
  })

  test.each([
    ['missing.json', {}, /^ipts\.yaml: profile\.configSchema cannot be read from \S+missing\.json \(ENOENT\)$/],
    [
      'c.json',
      { 'c.json': '{"type":' },
      /^ipts\.yaml: profile\.configSchema cannot be read from \S+c\.json \(not JSON: /,
    ],
    ['c.json', { 'c.json': '[]' }, /^ipts\.yaml: profile\.configSchema: \S+c\.json is not a JSON Schema object$/],
    ['c.json', { 'c.json': 'null' }, /^ipts\.yaml: profile\.configSchema: \S+c\.json is not a JSON Schema object$/],
    ['c.json', { 'c.json': '7' }, /^ipts\.yaml: profile\.configSchema: \S+c\.json is not a JSON Schema object$/],
    [
      'c.json',
      { 'c.json': '{"type":"nothing"}' },
      new RegExp(
        String.raw`^ipts\.yaml: profile\.configSchema: \S+c\.json does not compile as JSON Schema 2020-12: ` +
          String.raw`schema is invalid: data/type must be equal to one of the allowed values, `,
      ),
    ],
  ])('a config schema %s of %j is refused in one line naming the key', async (name, files, problem) => {
    const dir = profileDir(files, '')
    const loading = loadProfile({ values: { configSchema: name }, baseDir: dir, source: 'ipts.yaml' })
    await expect(loading).rejects.toThrow(ProfileError)
    await expect(loading).rejects.toThrow(problem)
  })

  test('the published description is read only through a fetch, and judged', async () => {
    const dir = profileDir({ 'openapi.json': '{"openapi":"3.1.0"}' }, '')
    const given = { values: { openapi: 'openapi.json' }, baseDir: dir, source: 'ipts.yaml' }
    expect((await loadProfile(given)).openapi).toBeUndefined()
    const fetched: string[] = []
    const fetchDescription: DescriptionFetch = (url) => (fetched.push(url), Promise.resolve({ error: 'unused' }))
    const profile = await loadProfile(given, fetchDescription)
    expect(fetched).toEqual([])
    expect(profile.openapi?.source).toBe(join(dir, 'openapi.json'))
    expect(profile.openapi?.findings).toBeDefined()
  })
})

describe('the published description', () => {
  const URL = 'https://example.test/openapi.json'
  const answering =
    (answer: Awaited<ReturnType<DescriptionFetch>>): DescriptionFetch =>
    () =>
      Promise.resolve(answer)
  const read = (value: string, fetchDescription: DescriptionFetch, baseDir = '/nowhere') =>
    readPublishedDescription(value, baseDir, fetchDescription, 'p.yaml')

  test('an http(s) URL, in any case, is fetched; its document is JSON or YAML', async () => {
    for (const url of [URL, 'HTTP://example.test/o.yaml'])
      expect(await read(url, answering({ status: 200, body: 'openapi: 3.1.0\n' }))).toEqual({
        source: url,
        document: { openapi: '3.1.0' },
      })
  })

  test.each([
    [answering({ error: 'ECONNREFUSED' }), `p.yaml: profile.openapi cannot be fetched from ${URL} (ECONNREFUSED)`],
    [answering({ status: 404, body: '{}' }), `p.yaml: profile.openapi cannot be fetched from ${URL} (status 404)`],
    [answering({ status: 201, body: '{}' }), `p.yaml: profile.openapi cannot be fetched from ${URL} (status 201)`],
    [answering({ status: 200, body: '[1, 2]' }), `p.yaml: profile.openapi at ${URL} is not a JSON or YAML object`],
    [answering({ status: 200, body: 'null' }), `p.yaml: profile.openapi at ${URL} is not a JSON or YAML object`],
    [answering({ status: 200, body: '"text"' }), `p.yaml: profile.openapi at ${URL} is not a JSON or YAML object`],
    [
      answering({ status: 200, body: '{"openapi": [' }),
      `p.yaml: profile.openapi at ${URL} is neither JSON nor YAML (not valid YAML at line 1, column 14: ` +
        'Flow sequence in block collection must be sufficiently indented and end with a ])',
    ],
  ])('a URL answered %#: "%s"', async (fetchDescription, problem) => {
    await expect(read(URL, fetchDescription)).rejects.toMatchObject({ name: 'ProfileError', message: problem })
  })

  test('a path that holds a URL past its start is a file', async () => {
    const unused: DescriptionFetch = () => Promise.reject(new Error('fetched'))
    await expect(read(`saved/${URL}`, unused, '/nowhere')).rejects.toMatchObject({
      message: `p.yaml: profile.openapi cannot be read from ${resolve('/nowhere', `saved/${URL}`)} (ENOENT)`,
    })
  })

  test('the same text is parsed once while it is among the last four read', async () => {
    const documentOf = async (text: string) => (await read(URL, answering({ status: 200, body: text }))).document
    const texts = ['a: 1', 'b: 2', 'c: 3', 'd: 4'].map((text) => `${text}\nkept: ${Date.now()}`)
    const first = await documentOf(texts[0]!)
    for (const text of texts.slice(1)) await documentOf(text)
    expect(await documentOf(texts[0]!)).toBe(first)
    await documentOf(`e: 5\nkept: ${Date.now()}`)
    const again = await documentOf(texts[0]!)
    expect(again).not.toBe(first)
    expect(again).toEqual(first)
  })

  test('a file is read relative to the profile, never fetched; one that cannot be read names why', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'openapi.yaml'), 'openapi: 3.1.0\n')
    const unused: DescriptionFetch = () => Promise.reject(new Error('fetched'))
    expect(await read('openapi.yaml', unused, dir)).toEqual({
      source: join(dir, 'openapi.yaml'),
      document: { openapi: '3.1.0' },
    })
    await expect(read('ftp.yaml', unused, dir)).rejects.toThrow(
      `p.yaml: profile.openapi cannot be read from ${join(dir, 'ftp.yaml')} (ENOENT)`,
    )
  })
})

describe("the compiler of a deployment's own schema", () => {
  test("takes a vendor's annotations, and judges formats", () => {
    const validate = configSchemaCompiler().compile({
      type: 'object',
      'x-vendor': { owner: 'ops' },
      properties: { at: { type: 'string', format: 'date-time' } },
    })
    expect(validate({ at: '2026-11-26T17:00:00Z' })).toBe(true)
    expect(validate({ at: 'yesterday' })).toBe(false)
  })

  test('reports every error, each with the value it judged', () => {
    const validate = configSchemaCompiler().compile({ type: 'object', required: ['chainId', 'network'] })
    expect(validate({})).toBe(false)
    expect(validate.errors?.map((error) => [error.params, error.data])).toEqual([
      [{ missingProperty: 'chainId' }, {}],
      [{ missingProperty: 'network' }, {}],
    ])
  })
})
