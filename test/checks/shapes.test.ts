import { describe, expect, test } from 'vitest'
import { shapeChecks } from '../../src/checks/shapes.js'
import type { Check } from '../../src/checks/types.js'
import type { Profile } from '../../src/profile/profile.js'
import type { RunSettings } from '../../src/core/settings.js'
import type { Exchange } from '../../src/http/exchange.js'
import { bodyFault } from '../../src/reference/record-edits.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'
import { outcomeWithBehaviours } from '../support/run.js'
import { scriptedContext, verdictOfRun, type Call } from '../support/check-context.js'

const check = (id: string): Check => shapeChecks.find((c) => c.id === id)!
const TRADER = `0x${'cd'.repeat(20)}`
const settings = { apiKey: 'the-api-key', trader: TRADER }
const PNL = {
  funding: { appliedPayerWad: '1', receiverWad: '2', requestedPayerWad: '3' },
  positions: { cumulativeFundingPaidWad: '1', cumulativeFundingReceivedWad: '2', cumulativePnlWad: '3' },
  settlements: { haircutWad: '1', paidWad: '2', realizedPnlWad: '3' },
}
const BALANCE = { account: TRADER, balance: '1', token: 'usd', updatedAt: '2', updatedBlock: '3' }
const profileStating = (requiredMembers: NonNullable<Profile['values']['requiredMembers']>) =>
  ({ source: 'test', values: { requiredMembers } }) as unknown as Profile

async function verdictOf(
  id: string,
  answer: (call: Call) => Exchange['response'] | Exchange,
  extra: Partial<RunSettings> = {},
): Promise<string> {
  const { ctx } = scriptedContext({ ...settings, ...extra }, answer)
  return verdictOfRun(check(id).run(ctx))
}

describe('shapes/operations-answer-200', () => {
  test('passes when each operation answers 200 with JSON', async () => {
    expect(await verdictOf('shapes/operations-answer-200', () => responseOf(200, {}, { data: {} }))).toBe('passed')
  })
  test('fails on another status, on a 200 without JSON, and on no answer', async () => {
    expect(
      await verdictOf('shapes/operations-answer-200', ({ operation }) =>
        responseOf(operation === 'getVault' ? 204 : 200, {}, { data: {} }),
      ),
    ).toBe('CheckFailure: GET /v1/vault answered status 204: expected 200 with a JSON body')
    expect(
      await verdictOf('shapes/operations-answer-200', ({ operation }) =>
        operation === 'listMarkets' ? responseOf(200) : responseOf(200, {}, { data: [] }),
      ),
    ).toBe('CheckFailure: GET /v1/markets answered status 200, and the body is empty: expected 200 with a JSON body')
  })
  test('asks the four operations that answer 200, those whose inputs were given', async () => {
    const all = scriptedContext(settings, () => responseOf(200, {}, {}))
    await check('shapes/operations-answer-200').run(all.ctx)
    expect(all.calls.map((c) => c.operation)).toEqual(['getTraderPnl', 'getVault', 'listMarkets', 'listTraderBalances'])
    const noTrader = scriptedContext({ apiKey: 'the-api-key' }, () => responseOf(200, {}, {}))
    await check('shapes/operations-answer-200').run(noTrader.ctx)
    expect(noTrader.calls.map((c) => c.operation)).toEqual(['getVault', 'listMarkets'])
  })
})

describe('shapes/pnl-all-members and shapes/balance-all-members', () => {
  test('pass when every listed member is sent', async () => {
    expect(await verdictOf('shapes/pnl-all-members', () => responseOf(200, {}, { data: PNL }))).toBe('passed')
    expect(await verdictOf('shapes/balance-all-members', () => responseOf(200, {}, { data: [BALANCE] }))).toBe('passed')
  })
  test('fail on a listed member not sent, in each group', async () => {
    const { funding: _, ...withoutFunding } = PNL
    expect(await verdictOf('shapes/pnl-all-members', () => responseOf(200, {}, { data: withoutFunding }))).toBe(
      'CheckFailure: the PnL has no funding.appliedPayerWad, funding.receiverWad, funding.requestedPayerWad, a member the contract lists',
    )
    const settlements = { haircutWad: '1', paidWad: '2' }
    const positions = { cumulativeFundingPaidWad: '1', cumulativePnlWad: '3' }
    expect(
      await verdictOf('shapes/pnl-all-members', () =>
        responseOf(200, {}, { data: { ...PNL, positions, settlements } }),
      ),
    ).toBe(
      'CheckFailure: the PnL has no positions.cumulativeFundingReceivedWad, settlements.realizedPnlWad, a member the contract lists',
    )
    for (const member of Object.keys(BALANCE)) {
      const { [member as keyof typeof BALANCE]: _, ...balance } = BALANCE
      expect(
        await verdictOf('shapes/balance-all-members', () => responseOf(200, {}, { data: [BALANCE, balance] })),
        member,
      ).toBe(
        `CheckFailure: balance 1 (token ${JSON.stringify((balance as Record<string, unknown>).token)}) has no ${member}, a member the contract lists`,
      )
    }
  })
  test('fail on each listed PnL member left out alone', async () => {
    for (const [group, members] of Object.entries(PNL))
      for (const member of Object.keys(members)) {
        const { [member]: _, ...rest } = members as Record<string, string>
        expect(
          await verdictOf('shapes/pnl-all-members', () => responseOf(200, {}, { data: { ...PNL, [group]: rest } })),
        ).toBe(`CheckFailure: the PnL has no ${group}.${member}, a member the contract lists`)
      }
  })
  test('give way to a profile that states which members are required, saying so', async () => {
    const profile = profileStating({ PnL: ['funding.receiverWad'], Balance: ['token'] })
    expect(await verdictOf('shapes/pnl-all-members', () => responseOf(200, {}, { data: {} }), { profile })).toBe(
      'CheckSkipped: the profile states which PnL members are always sent (requiredMembers.PnL), and profile/pnl-required-members holds them; the reading that every listed member is sent gives way to it',
    )
    expect(await verdictOf('shapes/balance-all-members', () => responseOf(200, {}, { data: [{}] }), { profile })).toBe(
      'CheckSkipped: the profile states which Balance members are always sent (requiredMembers.Balance), and profile/balance-required-members holds them; the reading that every listed member is sent gives way to it',
    )
  })
  test("a profile that states another component's members leaves the reading in force", async () => {
    expect(
      await verdictOf('shapes/balance-all-members', () => responseOf(200, {}, { data: [{ token: 'usd' }] }), {
        profile: profileStating({ PnL: ['funding'] }),
      }),
    ).toBe(
      'CheckFailure: balance 0 (token "usd") has no account, balance, updatedAt, updatedBlock, a member the contract lists',
    )
    expect(
      await verdictOf('shapes/pnl-all-members', () => responseOf(200, {}, { data: PNL }), {
        profile: profileStating({ Balance: ['token'] }),
      }),
    ).toBe('passed')
  })
  test('the recorded judgement applies only without a stated profile', () => {
    const recorded = check('shapes/pnl-all-members').recorded!
    const exchange = exchangeOf(responseOf(200, {}, { data: {} }), { operation: 'getTraderPnl' })
    expect(recorded.applies(undefined as never, exchange, {} as RunSettings)).toBe(true)
    expect(
      recorded.applies(undefined as never, exchange, { profile: profileStating({ PnL: ['funding'] }) } as RunSettings),
    ).toBe(false)
  })
})

describe('shapes against the reference, scripted', () => {
  test('shapes/vault-checkpoint passes a null checkpoint, which the envelope allows before an indexed checkpoint exists', async () => {
    const nullCheckpoint = bodyFault(
      'vault-checkpoint-null',
      'The vault answers checkpoint null.',
      [],
      'getVault',
      (body) => void (body.checkpoint = null),
    )
    const outcome = await outcomeWithBehaviours(['shapes/vault-checkpoint'], [nullCheckpoint])
    expect(outcome.status, outcome.reason).toBe('passed')
  })
  test("a checkpoint that is a number is envelope/checkpoint-type's, not shapes/vault-checkpoint's, which holds its presence", async () => {
    const numberCheckpoint = bodyFault(
      'vault-checkpoint-number',
      'The vault answers checkpoint 12.',
      [],
      'getVault',
      (body) => void (body.checkpoint = 12),
    )
    const envelope = await outcomeWithBehaviours(
      ['envelope/checkpoint-type', 'shapes/vault-checkpoint'],
      [numberCheckpoint],
    )
    expect(envelope.status).toBe('failed')
    expect(envelope.reason).toBe('GET /v1/vault: /checkpoint must be string,null (type), got 12 (and 1 more)')
    const shape = await outcomeWithBehaviours(['shapes/vault-checkpoint'], [numberCheckpoint])
    expect(shape.status, shape.reason).toBe('passed')
  })
  test('shapes/vault-members passes members the contract does not forbid', async () => {
    const extra = bodyFault(
      'vault-extra-member',
      'The vault data carries an extra member.',
      [],
      'getVault',
      (body) => void ((body.data as Record<string, unknown>).extra = 'x'),
    )
    const outcome = await outcomeWithBehaviours(['shapes/vault-members'], [extra])
    expect(outcome.status, outcome.reason).toBe('passed')
  })
})
