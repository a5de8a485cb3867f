import { describe, expect, test } from 'vitest'
import { profileOpenApiChecks } from '../../src/checks/profile-openapi.js'
import { profileScopeChecks } from '../../src/checks/profile-scopes.js'
import { hasMember, profileShapeChecks } from '../../src/checks/profile-shapes.js'
import type { Check } from '../../src/checks/types.js'
import type { Exchange } from '../../src/http/exchange.js'
import type { Profile, ProfileValues } from '../../src/profile/profile.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'
import { scriptedContext, verdictOfRun } from '../support/check-context.js'

const shapeCheck = (id: string): Check => profileShapeChecks.find((c) => c.id === id)!
const profileOf = (values: ProfileValues, extra: Partial<Profile> = {}) =>
  ({ source: 'a profile made for the test', values, ...extra }) as Profile

async function verdictOf(check: Check, profile: Profile, answer: () => Exchange['response']): Promise<string> {
  const { ctx } = scriptedContext({ apiKey: 'k', trader: `0x${'ab'.repeat(20)}`, profile }, answer)
  return verdictOfRun(check.run(ctx))
}

describe('the required-members checks of the profile', () => {
  const vault = shapeCheck('profile/vault-required-members')
  const markets = shapeCheck('profile/market-required-members')
  const stating = profileOf({ requiredMembers: { Vault: ['tvl'], Market: ['status'] } })

  test('only a 200 has a body to judge: a 201 fails', async () => {
    expect(await verdictOf(vault, stating, () => responseOf(200, {}, { data: { tvl: '1' } }))).toBe('passed')
    expect(await verdictOf(vault, stating, () => responseOf(201, {}, { data: { tvl: '1' } }))).toBe(
      'CheckFailure: answered 201, expected 200',
    )
  })

  test('one member missing is a finding', async () => {
    expect(await verdictOf(vault, stating, () => responseOf(200, {}, { data: { other: '1' } }))).toBe(
      'CheckFailure: the vault has no tvl, which the profile says is required',
    )
  })

  test('a vault whose data is an array, or null, has no record to judge', async () => {
    for (const data of [[], null])
      expect(await verdictOf(vault, stating, () => responseOf(200, {}, { data }))).toMatch(
        /^CheckSkipped: getVault answered no Vault object to judge/,
      )
  })

  test('the markets are a list: each market is judged, a null item is no market', async () => {
    expect(
      await verdictOf(markets, stating, () => responseOf(200, {}, { data: [null, { id: 'm1', status: 'open' }] })),
    ).toBe('passed')
    expect(await verdictOf(markets, stating, () => responseOf(200, {}, { data: [{ id: 'm1' }] }))).toBe(
      'CheckFailure: market 0 (id "m1") has no status, which the profile says is required',
    )
  })

  test('an empty list has no record to judge: the skip names what it lacks', async () => {
    const balances = shapeCheck('profile/balance-required-members')
    const both = profileOf({ requiredMembers: { Market: ['status'], Balance: ['amount'] } })
    expect(await verdictOf(markets, both, () => responseOf(200, {}, { data: [] }))).toMatch(
      /^CheckSkipped: listMarkets answered no market to judge/,
    )
    expect(await verdictOf(balances, both, () => responseOf(200, {}, { data: [] }))).toMatch(
      /^CheckSkipped: listTraderBalances answered no balance to judge/,
    )
  })

  test('a balance or PnL check needs the trader; the vault and markets only the key', () => {
    expect(shapeCheck('profile/balance-required-members').needs).toEqual(['apiKey', 'trader'])
    expect(shapeCheck('profile/pnl-required-members').needs).toEqual(['apiKey', 'trader'])
    expect(vault.needs).toEqual(['apiKey'])
    expect(markets.needs).toEqual(['apiKey'])
  })

  test('a recorded exchange is judged only when it is a 200 of the operation and the profile states the members', () => {
    const vaultAnswer = exchangeOf(responseOf(200, {}, { data: {} }), { operation: 'getVault' })
    const marketsAnswer = exchangeOf(responseOf(200, {}, { data: {} }), { operation: 'listMarkets' })
    const applies = (exchange: Exchange, profile?: Profile) =>
      vault.recorded!.applies(exchange.response!, exchange, { profile })
    expect(applies(vaultAnswer, stating)).toBe(true)
    expect(applies(vaultAnswer, profileOf({ requiredMembers: { Market: ['status'] } }))).toBe(false)
    expect(applies(vaultAnswer)).toBe(false)
    expect(applies(marketsAnswer, stating)).toBe(false)
  })

  test('a member is had only where the record holds it, at each step of its path', () => {
    expect(hasMember({}, 'a')).toBe(false)
    expect(hasMember({ a: undefined }, 'a')).toBe(true)
    expect(hasMember({ a: { b: 1 } }, 'a.b')).toBe(true)
    expect(hasMember({ a: { c: 1 } }, 'a.b')).toBe(false)
    expect(hasMember({ a: null }, 'a.b')).toBe(false)
  })
})

describe('the published description checks', () => {
  const openapi = (document: string[], compatibility: string[]) =>
    profileOf(
      {},
      { openapi: { source: 'a file', findings: { document, compatibility, corpus: { accepted: 3, forbidden: 2 } } } },
    )
  const [documentCheck, compatibleCheck] = profileOpenApiChecks

  test('the document check names its first problem and how many more', async () => {
    expect(await verdictOf(documentCheck!, openapi([], []), () => undefined)).toBe('passed')
    expect(await verdictOf(documentCheck!, openapi(['a'], []), () => undefined)).toBe('CheckFailure: a')
    expect(await verdictOf(documentCheck!, openapi(['a', 'b'], []), () => undefined)).toBe(
      'CheckFailure: a (and 1 more: b)',
    )
  })

  test('the compatibility check names its first disagreement, how many more, and the corpus', async () => {
    expect(await verdictOf(compatibleCheck!, openapi([], []), () => undefined)).toBe('passed')
    expect(await verdictOf(compatibleCheck!, openapi([], ['a']), () => undefined)).toBe(
      'CheckFailure: a; judged on 3 bodies the contract accepts and 2 it forbids',
    )
    expect(await verdictOf(compatibleCheck!, openapi([], ['a', 'b']), () => undefined)).toBe(
      'CheckFailure: a (and 1 more disagreements); judged on 3 bodies the contract accepts and 2 it forbids',
    )
  })
})

describe('profile/restricted-key-granted', () => {
  const granted = profileScopeChecks.find((c) => c.id === 'profile/restricted-key-granted')!
  const grantingVault = profileOf({ restrictedKey: { granted: ['getVault'] } })

  test('only a 200 serves the restricted key: a 201 fails', async () => {
    expect(await verdictOf(granted, grantingVault, () => responseOf(200, {}, { data: {} }))).toBe('passed')
    expect(await verdictOf(granted, grantingVault, () => responseOf(201, {}, { data: {} }))).toBe(
      'CheckFailure: the restricted key was not served 200: getVault 201',
    )
  })
})

describe("the profile's record checks, where no exchange was judged", () => {
  test("each says which operation's 200s it would have judged", () => {
    const notApplicable = Object.fromEntries(
      profileShapeChecks.filter((check) => check.recorded).map((check) => [check.id, check.recorded!.notApplicable]),
    )
    const from = (path: string) => `no exchange was a 200 with a JSON body from GET ${path}`
    expect(notApplicable).toEqual({
      'profile/balance-required-members': from('/v1/traders/{address}/balances'),
      'profile/config-schema': from('/v1/config'),
      'profile/market-required-members': from('/v1/markets'),
      'profile/pnl-required-members': from('/v1/traders/{address}/pnl'),
      'profile/vault-required-members': from('/v1/vault'),
    })
  })
})
