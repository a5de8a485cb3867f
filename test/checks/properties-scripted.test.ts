import { describe, expect, test } from 'vitest'
import { STAND_IN } from '../../src/checks/operation-calls.js'
import { propertiesChecks } from '../../src/checks/properties.js'
import type { Check } from '../../src/checks/types.js'
import { malformedHexIdentifierCoverage } from '../../src/generators/hex-identifiers.js'
import type { Exchange } from '../../src/http/exchange.js'
import { responseOf } from '../support/hand-made.js'
import { scriptedContext, verdictOfRun, type Call } from '../support/check-context.js'

const check = (id: string): Check => propertiesChecks.find((c) => c.id === id)!
const TRADER = `0x${'ab'.repeat(20)}`
const INTENT = { hash: `0x${'cd'.repeat(32)}`, receipt: 'the-receipt' }
const settings = { apiKey: 'the-api-key-0001', trader: TRADER, intent: INTENT }
const ERROR_BODY = { error: 'refused', code: 'refused' }

const sentId = (call: Call) => call.options?.headers?.['x-request-id']

/** A check's verdict on scripted answers, and the calls it made; `runs` generated inputs after the coverage cases. */
async function judged(id: string, answer: (call: Call) => Exchange['response'], runs = 10) {
  const { ctx, calls } = scriptedContext({ ...settings, runs }, answer)
  return { verdict: await verdictOfRun(check(id).run(ctx)), calls }
}

const swapCase = (text: string) =>
  [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('')

/** Answers with the X-Request-ID sent echoed back (as `echo` changes it). */
const echoing =
  (status: number, echo = (id: string) => id) =>
  (call: Call) => {
    const id = sentId(call)
    return responseOf(status, id === undefined ? {} : { 'x-request-id': echo(id) }, ERROR_BODY)
  }

describe('the requests a generated X-Request-ID rides on', () => {
  test('a success, no key, an unknown intent, a malformed hash and a wrong receipt of the configured intent', async () => {
    const { verdict, calls } = await judged('properties/valid-request-id-echoed', echoing(200), 0)
    expect(verdict).toBe('passed')
    const paths = new Set(
      calls.map((call) =>
        [call.operation, call.options?.auth ?? 'full', call.options?.params?.hash, call.options?.query?.receipt].join(
          ' ',
        ),
      ),
    )
    expect([...paths].sort()).toEqual(
      [
        'getConfig full  ',
        'getConfig none  ',
        `getIntentStatus full ${STAND_IN.hash} ${STAND_IN.receipt}`,
        `getIntentStatus full not-a-hash ${STAND_IN.receipt}`,
        `getIntentStatus full ${INTENT.hash} ${STAND_IN.receipt}`,
      ].sort(),
    )
  })

  test('a valid ID not echoed fails; an invalid one echoed in another letter case is not verbatim', async () => {
    expect((await judged('properties/valid-request-id-echoed', () => responseOf(200, {}, {}), 0)).verdict).toMatch(
      /^CheckFailure: sent X-Request-ID ".+" on a success, got /,
    )
    const { verdict, calls } = await judged(
      'properties/invalid-request-id-not-echoed',
      echoing(400, (id) => (/[a-z]/i.test(id) ? swapCase(id) : `${id}-other`)),
    )
    expect(verdict).toBe('passed')
    expect(calls.some((call) => /[a-z]/i.test(sentId(call) ?? ''))).toBe(true)
  })

  test('an invalid ID an HTTP client cannot send (a control character) is never sent', async () => {
    const { calls } = await judged(
      'properties/invalid-request-id-not-echoed',
      echoing(400, () => 'other-id-000'),
    )
    expect(calls.length).toBeGreaterThan(0)
    expect(calls.filter((call) => !/^[\t\x20-\x7e\x80-\xff]*$/.test(sentId(call) ?? ''))).toEqual([])
  })
})

describe('properties/well-formed-address-answered', () => {
  test('each coverage address goes to both trader operations', async () => {
    const { verdict, calls } = await judged(
      'properties/well-formed-address-answered',
      () => responseOf(404, {}, ERROR_BODY),
      0,
    )
    expect(verdict).toBe('passed')
    const addressesOf = (operation: string) =>
      calls
        .filter((call) => call.operation === operation)
        .map((call) => call.options?.params?.address)
        .sort()
    expect(addressesOf('getTraderPnl').length).toBeGreaterThan(0)
    expect(addressesOf('listTraderBalances')).toEqual(addressesOf('getTraderPnl'))
  })

  test('generated addresses are the configured trader in any letter case, or of the Address pattern', async () => {
    const { calls } = await judged('properties/well-formed-address-answered', () => responseOf(404, {}, ERROR_BODY), 40)
    const addresses = calls.map((call) => call.options?.params?.address ?? '')
    expect(addresses.filter((address) => !/^0x[0-9a-fA-F]{40}$/.test(address))).toEqual([])
    expect(addresses).toContain(TRADER)
    expect(addresses).toContain(`0x${TRADER.slice(2).toUpperCase()}`)
    // And with its letters' case flipped from the start: upper case up to a point, lower case after it.
    const traders = addresses.filter((address) => address.toLowerCase() === TRADER)
    expect(
      traders.some((address) => /^0x[A-F]+[a-f]+$/.test(address)),
      traders.join(', '),
    ).toBe(true)
  })
})

describe('malformed identifiers', () => {
  test.each([
    ['properties/malformed-hash-rejected', 'hash', 'Hash', INTENT.hash],
    ['properties/malformed-address-rejected', 'address', 'Address', TRADER],
  ] as const)(
    '%s generates near misses of the configured %s, past its coverage cases',
    async (id, param, schema, real) => {
      const { calls } = await judged(id, () => responseOf(404, {}, ERROR_BODY), 10)
      const generated = calls
        .slice(malformedHexIdentifierCoverage(schema, [real]).length)
        .map((call) => call.options?.params?.[param] ?? '')
      expect(generated).toHaveLength(10)
      // A near miss keeps most of what it misses: a digit short or long, its prefix changed, a digit replaced.
      expect(
        generated.filter((value) => value.includes(real.slice(4, -4))).length,
        generated.join(', '),
      ).toBeGreaterThan(2)
    },
  )
})

describe('properties/garbage-key-refused', () => {
  test('sends garbage keys to the vault, the markets and the configuration; a 401 with an error body passes', async () => {
    const { verdict, calls } = await judged('properties/garbage-key-refused', () => responseOf(401, {}, ERROR_BODY), 0)
    expect(verdict).toBe('passed')
    expect(new Set(calls.map((call) => call.operation))).toEqual(new Set(['getVault', 'listMarkets', 'getConfig']))
  })

  test('each real key, the restricted one too, is sent with a character after it and before it', async () => {
    const restricted = 'the-restricted-key-0002'
    const { ctx, calls } = scriptedContext({ ...settings, restrictedApiKey: restricted, runs: 0 }, () =>
      responseOf(401, {}, ERROR_BODY),
    )
    await check('properties/garbage-key-refused').run(ctx)
    const keys = calls.map((call) => (call.options?.auth as { key: string }).key)
    for (const key of [settings.apiKey, restricted])
      expect(keys).toEqual(expect.arrayContaining([`${key}x`, `x${key}`]))
    expect(keys).not.toContain(restricted)
  })

  test('without a restricted key, nothing is made of one: no key sent holds the text of an absent key', async () => {
    const { calls } = await judged('properties/garbage-key-refused', () => responseOf(401, {}, ERROR_BODY), 40)
    const keys = calls.map((call) => (call.options?.auth as { key: string }).key)
    expect(keys).toEqual(expect.arrayContaining([`${settings.apiKey}x`, `x${settings.apiKey}`]))
    // 'undefined' alone is one of the dangerous whole values (src/generators/coverage.ts); no key is built around it.
    expect(keys.filter((key) => key !== 'undefined' && key.includes('undefined'))).toEqual([])
  })

  test("a near miss of the restricted key that is served fails, naming it the restricted key's", async () => {
    const restricted = 'the-restricted-key-0002'
    const { ctx } = scriptedContext({ ...settings, restrictedApiKey: restricted, runs: 0 }, (call) =>
      (call.options?.auth as { key: string }).key === restricted.toUpperCase()
        ? responseOf(200, {}, { data: {} })
        : responseOf(401, {}, ERROR_BODY),
    )
    expect(await verdictOfRun(check('properties/garbage-key-refused').run(ctx))).toMatch(
      /; coverage input \d+ \(the restricted API key with its letters in the other case\) /,
    )
  })

  test('a 403 to a garbage key fails', async () => {
    const { verdict } = await judged('properties/garbage-key-refused', () => responseOf(403, {}, ERROR_BODY), 0)
    expect(verdict).toMatch(/^CheckFailure: status 403, expected 401; /)
  })
})
