import type { ErrorObject } from 'ajv/dist/2020.js'
import { describe, expect, test } from 'vitest'
import { operation, operations, type OperationId } from '../../src/contract/operations.js'
import { KEY_BOUNDS } from '../../src/contract/idempotency.js'
import { LISTED_RESPONSE_HEADERS } from '../../src/contract/listed-headers.js'
import { levelLabel, requirementById } from '../../src/contract/requirements.js'
import {
  loadOpenApi,
  schemaPattern,
  schemaValidator,
  validateAgainst,
  violationsOf,
} from '../../src/contract/schemas.js'
import { isEnveloped, ruledViolations } from '../../src/contract/violation-rules.js'
import { buildReferenceData } from '../../src/reference/data.js'

/**
 * The contract as the suite reads it (src/contract): the operations of specs/openapi.yaml, a requirement's level, the
 * component schemas' validators and violations, and the rule a violation of a success body breaks where the body
 * leaves the schema.
 */

describe('the operations of the contract', () => {
  test.each([
    ['getIntentStatus', '/v1/intents/{hash}', 'IntentStatus', false],
    ['getTraderPnl', '/v1/traders/{address}/pnl', 'PnlResponse', false],
    ['getVault', '/v1/vault', 'VaultResponse', false],
    ['listMarkets', '/v1/markets', 'MarketsResponse', true],
    ['listTraderBalances', '/v1/traders/{address}/balances', 'BalancesResponse', true],
    ['getConfig', '/v1/config', 'ConfigResponse', false],
  ] as const)('%s is GET %s, its 200 a %s; a list: %s', (id, template, successSchema, isList) => {
    expect(operation(id)).toMatchObject({ id, template, successSchema, isList })
  })

  test('they are the six of the document, each once', () => {
    expect(operations().map((op) => op.id)).toEqual([
      'getIntentStatus',
      'getTraderPnl',
      'getVault',
      'listMarkets',
      'listTraderBalances',
      'getConfig',
    ])
  })

  test('an operation that declares a default declares no statuses; one that lists them declares each', () => {
    expect(operation('getIntentStatus').declaredStatuses).toEqual([200, 401, 403, 404, 422, 429, 500, 502, 503, 504])
    for (const id of ['getTraderPnl', 'getVault', 'listMarkets', 'listTraderBalances', 'getConfig'] as OperationId[])
      expect(operation(id).declaredStatuses, id).toBeUndefined()
  })
})

describe('a requirement', () => {
  test('its level reads "(inferred)" only when it rests on a reading of the contract', () => {
    expect(levelLabel({ level: 'SHOULD', inferred: true })).toBe('SHOULD (inferred)')
    expect(levelLabel({ level: 'MUST', inferred: false })).toBe('MUST')
    expect(levelLabel({ level: 'SHOULD' })).toBe('SHOULD')
  })

  test('is found by its id; an unknown id is an error that names it', () => {
    expect(requirementById('CONV-HASH-FORMAT').id).toBe('CONV-HASH-FORMAT')
    expect(() => requirementById('CONV-HASH')).toThrow(/^unknown requirement CONV-HASH$/)
  })
})

describe('the component schemas', () => {
  test('a schema without a pattern, or no schema at all, has no pattern to give', () => {
    expect(() => schemaPattern('IntentStatus')).toThrow(
      /^specs\/openapi\.yaml: component schema IntentStatus has no pattern$/,
    )
    expect(() => schemaPattern('Nothing')).toThrow(/^specs\/openapi\.yaml: component schema Nothing has no pattern$/)
  })

  test('a validator is one per schema, and none for a name the document does not hold', () => {
    expect(schemaValidator('Hash')).toBe(schemaValidator('Hash'))
    expect(() => schemaValidator('Nothing')).toThrow(/^specs\/openapi\.yaml has no component schema Nothing$/)
  })

  test('a violation names its schema and carries ajv’s fields and the value it judged', () => {
    expect(validateAgainst('Hash', '0x12')).toEqual([
      {
        schema: 'Hash',
        keyword: 'pattern',
        instancePath: '',
        schemaPath: '#/pattern',
        params: { pattern: schemaPattern('Hash').source },
        message: `must match pattern "${schemaPattern('Hash').source}"`,
        value: '0x12',
      },
    ])
    expect(validateAgainst('Hash', `0x${'ab'.repeat(32)}`)).toEqual([])
  })

  test('a type the document gives as a union is taken as one', () => {
    expect(validateAgainst('Checkpoint', null)).toEqual([])
    expect(validateAgainst('Checkpoint', 7).map((v) => v.keyword)).toEqual(['type'])
  })

  test('no errors are no violations; an error without a message is named by its keyword', () => {
    expect(violationsOf('X', null)).toEqual([])
    expect(violationsOf('X', undefined)).toEqual([])
    const error = { keyword: 'format', instancePath: '/a', schemaPath: '#/format', params: {} } as ErrorObject
    expect(violationsOf('X', [error])).toEqual([
      { schema: 'X', keyword: 'format', instancePath: '/a', schemaPath: '#/format', params: {}, message: 'format' },
    ])
  })
})

describe('the rule a violation of a success body breaks', () => {
  const data = buildReferenceData()
  const markets = () => structuredClone(data.markets)
  const vault = () => ({ checkpoint: data.checkpoint, data: structuredClone(data.vault) })
  const wadRuled = (id: OperationId, body: unknown) =>
    ruledViolations(operation(id), body)
      .filter((v) => v.requirement === 'CONV-WAD-UINT')
      .map((v) => v.instancePath)

  test('the list and read envelope is that of the enveloped operations alone', () => {
    expect(
      operations()
        .filter(isEnveloped)
        .map((op) => op.id),
    ).toEqual(['getTraderPnl', 'getVault', 'listMarkets', 'listTraderBalances'])
  })

  test('a Wad member of a record past the tenth is judged where it is', () => {
    const list = markets()
    expect(list.length).toBeGreaterThan(10)
    ;(list[10] as Record<string, unknown>).lastTwapMidWad = '01'
    expect(wadRuled('listMarkets', { data: list })).toEqual(['/data/10/lastTwapMidWad'])
  })

  test.each([
    ['a name that ends in a digit', 'x1'],
    ['a name that starts with a digit', '1x'],
    ['a name that holds ~ next to a member of the schema', 'da~ta'],
    ['a name that holds / next to a member of the schema', 'da/ta'],
  ])('a Wad member under %s, where the schema has no such member, is left alone', (_, name) => {
    const list = { data: markets(), [name]: { lastTwapMidWad: '01' } }
    expect(wadRuled('listMarkets', list)).toEqual([])
    expect(wadRuled('getVault', { ...vault(), [name]: { fundingReservedWad: '01' } })).toEqual([])
  })

  test('a Wad member at the top of a body is judged: the root is in the schema', () => {
    expect(wadRuled('listMarkets', { data: markets(), feeWad: '01' })).toEqual(['/feeWad'])
    expect(wadRuled('getVault', { ...vault(), bufferWad: '-1' })).toEqual(['/bufferWad'])
    expect(wadRuled('listMarkets', { data: markets(), feeWad: '1' }), 'a valid one').toEqual([])
  })

  test('markets data as an object of records is no list: their Wad members are not judged', () => {
    const [market] = markets()
    for (const name of ['x1', '1x'])
      expect(wadRuled('listMarkets', { data: { [name]: { ...market, lastTwapMidWad: '01' } } }), name).toEqual([])
  })

  test("a vault without its checkpoint breaks the vault's rule, though the envelope flags another member", () => {
    const { checkpoint: _, ...body } = { ...vault(), requestId: 5 }
    expect(ruledViolations(operation('getVault'), body).map((v) => v.requirement)).toEqual([
      'ENV-REQUESTID-TYPE',
      'SHAPE-VAULT-CHECKPOINT',
    ])
  })

  test('a body is judged once per schema: asked again, the same violations come back', () => {
    const body = { data: markets(), cursor: 5 }
    const first = ruledViolations(operation('listMarkets'), body)
    expect(first.map((v) => v.requirement)).toEqual(['ENV-CURSOR-TYPE'])
    expect(ruledViolations(operation('listMarkets'), body)).toBe(first)
    // The same body judged by another operation's schema is judged anew.
    expect(ruledViolations(operation('getVault'), body).map((v) => v.requirement)).toEqual([
      'ENV-CURSOR-TYPE',
      'SHAPE-VAULT-CHECKPOINT',
      'ENV-DATA',
    ])
  })

  test('a body that is no object is judged, not remembered', () => {
    // The envelope and the vault's response each say it is no object.
    for (const body of [null, 'text', 7])
      expect(
        ruledViolations(operation('getVault'), body).map((v) => v.requirement),
        String(body),
      ).toEqual(['ENV-DATA', 'ENV-DATA'])
  })
})

describe('the response headers whose values are kept', () => {
  /** The response header names the contract's operations declare, as the document spells them. */
  function contractHeaders(node: unknown, names = new Set<string>()): Set<string> {
    if (node === null || typeof node !== 'object') return names
    const { headers } = node as { headers?: object }
    if (headers && typeof headers === 'object') Object.keys(headers).forEach((name) => names.add(name))
    Object.values(node).forEach((child) => contractHeaders(child, names))
    return names
  }

  test("are the contract's own, in lower case, then HTTP's metadata headers", () => {
    const contract = [...contractHeaders(loadOpenApi().paths)]
    expect(contract).toEqual([
      'x-request-id',
      'x-service-source',
      'retry-after',
      'x-ratelimit-limit',
      'x-ratelimit-scope',
    ])
    expect([...LISTED_RESPONSE_HEADERS]).toEqual([
      ...contract,
      ...['content-type', 'content-length', 'content-encoding', 'content-language', 'transfer-encoding'],
      ...['connection', 'keep-alive', 'date', 'age', 'expires', 'last-modified', 'etag', 'cache-control', 'pragma'],
      ...['vary', 'allow', 'accept-ranges', 'location', 'content-location', 'link', 'www-authenticate'],
      'strict-transport-security',
    ])
  })
})

describe("the Idempotency-Key's length bounds", () => {
  test('are those the requirement quotes', () => {
    const [quote] = requirementById('IDEM-KEY-REQUIRED').quote
    const [, min, max] = /(\d+) to (\d+) safe characters/.exec(quote!)!
    expect(KEY_BOUNDS).toEqual({ min: Number(min), max: Number(max) })
    expect(KEY_BOUNDS).toEqual({ min: 8, max: 128 })
  })
})
