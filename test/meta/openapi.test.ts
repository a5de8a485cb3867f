import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { FormatsPlugin } from 'ajv-formats'
import { parse } from 'yaml'
import { expect, test } from 'vitest'

// ajv-formats is CommonJS; depending on interop the plugin is the default export or its `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  addFormatsModule) as unknown as FormatsPlugin

type Doc = {
  openapi: string
  info: { version: string }
  components: { schemas: Record<string, Record<string, unknown>> }
}

const specPath = fileURLToPath(new URL('../../specs/openapi.yaml', import.meta.url))
const doc = parse(readFileSync(specPath, 'utf8')) as Doc

// Each component schema is registered under the key `<BASE>#/components/schemas/<Name>`, so a
// local `$ref: '#/components/schemas/Hash'` resolves to an exact registered key. Strict mode stays
// on: the OpenAPI document root (with its non-schema keywords) is never compiled.
const BASE = 'openapi.yaml'
const schemaKey = (name: string): string => `${BASE}#/components/schemas/${name}`

function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true })
  addFormats(ajv)
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    ajv.addSchema(schema, schemaKey(name))
  }
  return ajv
}

const ajv = createAjv()

function validator(name: string): ValidateFunction {
  const validate = ajv.getSchema(schemaKey(name))
  if (validate === undefined) throw new Error(`schema ${name} is not registered`)
  return validate
}

function accepts(name: string, value: unknown): boolean {
  return validator(name)(value) === true
}

const HASH = `0x${'ab'.repeat(32)}`
const ADDRESS = `0x${'12'.repeat(20)}`

const wireOrder = (): Record<string, unknown> => ({
  trader: ADDRESS,
  sessionKey: ADDRESS,
  nonce: '1',
  deadline: '1700000000',
  orderType: '0',
  marketId: '3',
  direction: '1',
  positionId: '0',
  qWad: '1000000000000000000',
  marginTokens: '500',
  triggerPriceWad: '0',
  limitPriceWad: '0',
  closeMode: '0',
  ocoGroup: HASH,
})

const intentStatus = (): Record<string, unknown> => ({
  orderHash: HASH,
  state: 'pending',
  createdAt: '1700000000',
  updatedAt: '1700000001',
  order: wireOrder(),
})

function collectRefs(node: unknown, out: string[]): string[] {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, out)
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value)
      else collectRefs(value, out)
    }
  }
  return out
}

function resolvePointer(root: unknown, ref: string): unknown {
  let node: unknown = root
  for (const part of ref.slice(2).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~')
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined
  }
  return node
}

test('the document is a valid OpenAPI 3.1 description', async () => {
  const openApiValidator = new Validator()
  const result = await openApiValidator.validate(doc)
  expect(result.valid, `OpenAPI validation errors: ${JSON.stringify(result.errors, null, 2)}`).toBe(true)
  expect(openApiValidator.version, 'the document is validated as OpenAPI 3.1').toBe('3.1')
  expect(doc.openapi, 'the openapi field is 3.1.0').toBe('3.1.0')
  expect(doc.info.version, 'the interface version is 1.0.0').toBe('1.0.0')
})

test("the project's own JSON schemas are valid 2020-12 schemas (the product compiles them without checking)", () => {
  const metaAjv = new Ajv2020({ strict: true, allowUnionTypes: true })
  addFormats(metaAjv)
  const own = readdirSync(dirname(specPath)).filter((file) => file.endsWith('.schema.json'))
  expect(own).toEqual(expect.arrayContaining(['profile.schema.json', 'report.schema.json']))
  for (const file of own) {
    const schema = JSON.parse(readFileSync(join(dirname(specPath), file), 'utf8')) as object
    expect(metaAjv.validateSchema(schema), `${file}: ${metaAjv.errorsText()}`).toBe(true)
  }
  for (const [name, schema] of Object.entries(doc.components.schemas))
    expect(metaAjv.validateSchema(schema as object), `${name}: ${metaAjv.errorsText()}`).toBe(true)
  expect(metaAjv.validateSchema({ type: 'strin' }), 'a schema with a type that does not exist').toBe(false)
})

test('every $ref points at a local component that exists', () => {
  for (const ref of collectRefs(doc, [])) {
    expect(ref.startsWith('#/components/'), `${ref} is a local components reference`).toBe(true)
    expect(resolvePointer(doc, ref), `${ref} resolves`).toBeDefined()
  }
})

test('every component schema compiles with ajv 2020 in strict mode', () => {
  const strictAjv = createAjv()
  for (const name of Object.keys(doc.components.schemas)) {
    expect(() => strictAjv.getSchema(schemaKey(name)), `schema ${name} compiles`).not.toThrow()
    expect(strictAjv.getSchema(schemaKey(name)), `schema ${name} is available`).toBeTypeOf('function')
  }
})

test('no schema uses OpenAPI 3.0 keywords that JSON Schema 2020-12 lacks', () => {
  // ajv knows `nullable` natively, so strict mode alone would not reject it.
  const forbidden = new Set(['nullable', 'example'])
  const visit = (node: unknown, path: string, underProperties: boolean): void => {
    if (node === null || typeof node !== 'object') return
    for (const [key, value] of Object.entries(node)) {
      if (!underProperties) expect(forbidden.has(key), `${path}/${key} is not an OpenAPI 3.0 keyword`).toBe(false)
      visit(value, `${path}/${key}`, !underProperties && key === 'properties')
    }
  }
  visit(doc.components.schemas, '#/components/schemas', true)
})

test('IntentStatus accepts a minimal status and rejects an extra member', () => {
  expect(accepts('IntentStatus', intentStatus()), 'minimal intent status is valid').toBe(true)
  expect(accepts('IntentStatus', { ...intentStatus(), extra: 'x' }), 'extra member is invalid').toBe(false)
  const full = {
    ...intentStatus(),
    reservedTokens: '10',
    failure: { code: 'reverted', message: 'execution reverted', retryable: false },
    settlement: { errorSelector: '0x08c379a0', positionId: '7', txHash: HASH },
    trigger: { priceWad: '1', blockNumber: '2', blockHash: HASH },
  }
  expect(accepts('IntentStatus', full), 'intent status with every optional member is valid').toBe(true)
  expect(accepts('IntentStatus', { ...intentStatus(), settlement: {} }), 'empty settlement is valid').toBe(true)
})

test('IntentFailure rejects retryable true', () => {
  expect(accepts('IntentFailure', { code: 'c', message: 'm', retryable: true }), 'retryable true is invalid').toBe(
    false,
  )
  expect(
    accepts('IntentStatus', { ...intentStatus(), failure: { code: 'c', message: 'm', retryable: true } }),
    'intent status with failure.retryable true is invalid',
  ).toBe(false)
})

test('WireOrder requires ocoGroup', () => {
  expect(accepts('WireOrder', wireOrder()), 'complete wire order is valid').toBe(true)
  const { ocoGroup: _omitted, ...withoutOcoGroup } = wireOrder()
  expect(accepts('WireOrder', withoutOcoGroup), 'wire order without ocoGroup is invalid').toBe(false)
})

test('UnsignedIntegerString rejects leading zeros and signs', () => {
  expect(accepts('UnsignedIntegerString', '0'), '"0" is valid').toBe(true)
  expect(accepts('UnsignedIntegerString', '1234567890'), '"1234567890" is valid').toBe(true)
  expect(accepts('UnsignedIntegerString', '007'), '"007" is invalid').toBe(false)
  expect(accepts('UnsignedIntegerString', '-1'), '"-1" is invalid').toBe(false)
  expect(accepts('UnsignedIntegerString', 7), 'a number is invalid').toBe(false)
})

test('Hash accepts mixed-case hex and rejects an upper-case prefix', () => {
  expect(accepts('Hash', `0x${'aB'.repeat(32)}`), 'mixed-case hash is valid').toBe(true)
  expect(accepts('Hash', `0X${'ab'.repeat(32)}`), '0X prefix is invalid').toBe(false)
  expect(accepts('Hash', `0x${'ab'.repeat(31)}`), 'short hash is invalid').toBe(false)
})

test('PnL members accept negative values', () => {
  const pnl = {
    funding: { appliedPayerWad: '-12', receiverWad: '0', requestedPayerWad: '5' },
    positions: { cumulativeFundingPaidWad: '1', cumulativeFundingReceivedWad: '2', cumulativePnlWad: '-12' },
    settlements: { haircutWad: '0', paidWad: '3', realizedPnlWad: '-12' },
  }
  expect(accepts('TraderPnl', pnl), 'PnL with negative strings is valid').toBe(true)
  expect(accepts('PnlResponse', { data: pnl }), 'PnL response is valid').toBe(true)
})

test('Market is valid without its last three fields', () => {
  const market = {
    id: '1',
    clusterId: '2',
    oracleKey: 'k',
    paused: false,
    resolutionTimestamp: '1700000000',
    status: 'active',
    updatedBlock: '100',
  }
  expect(accepts('Market', market), 'market without the last three fields is valid').toBe(true)
  expect(accepts('MarketsResponse', { data: [market], cursor: null }), 'markets response is valid').toBe(true)
  const { paused: _paused, ...withoutPaused } = market
  expect(accepts('Market', withoutPaused), 'market without paused is invalid').toBe(false)
})

test('Vault is valid without its last two fields', () => {
  const vault = {
    id: 'v',
    fundingReservedWad: '0',
    requiredBufferWad: '0',
    updatedAt: '1700000000',
    updatedBlock: '100',
    updatedTransactionHash: HASH,
  }
  expect(accepts('Vault', vault), 'vault without the last two fields is valid').toBe(true)
  expect(accepts('VaultResponse', { checkpoint: '100', data: vault }), 'vault response is valid').toBe(true)
  expect(accepts('VaultResponse', { data: vault }), 'vault response without checkpoint is invalid').toBe(false)
})

test('ErrorBody allows extra members and optional code and requestId', () => {
  expect(accepts('ErrorBody', { error: 'bad', detail: { a: 1 } }), 'error body with extra member is valid').toBe(true)
  expect(accepts('ErrorBody', { error: 'bad', code: 'not_found', requestId: 'req-1234' }), 'full error body').toBe(true)
  expect(accepts('ErrorBody', { code: 'x' }), 'error body without error is invalid').toBe(false)
  expect(accepts('ErrorBody', { error: 'bad', requestId: 'short' }), 'too-short requestId is invalid').toBe(false)
})

test('Envelope accepts a null or missing cursor', () => {
  expect(accepts('Envelope', { data: [], cursor: null }), 'null cursor is valid').toBe(true)
  expect(accepts('Envelope', { data: [] }), 'missing cursor is valid').toBe(true)
  expect(accepts('Envelope', { data: {}, cursor: 'opaque', checkpoint: null }), 'string cursor is valid').toBe(true)
  expect(accepts('Envelope', { data: 'x' }), 'string data is invalid').toBe(false)
  expect(accepts('Envelope', { cursor: null }), 'missing data is invalid').toBe(false)
})
