import type { RequirementId } from '../contract/catalogue-ids.js'
import type { OperationId } from '../contract/operations.js'
import type { Profile } from '../profile/profile.js'
import { membersCheck } from './profile-shapes.js'
import { answersOf, bodyRuleCheck, failureOf, isSuccessBody, pathsOf } from './success-bodies.js'
import type { Check } from './types.js'

/**
 * One check per operation and requirement: each reports only the violations of its success body that break its rule.
 */
const shapeRules: readonly (readonly [
  slug: string,
  operation: OperationId,
  requirement: RequirementId,
  answers: string,
])[] = [
  [
    'intent-members',
    'getIntentStatus',
    'SHAPE-INTENT-STATUS',
    'an IntentStatus with orderHash, state, createdAt, updatedAt and order',
  ],
  [
    'intent-strict',
    'getIntentStatus',
    'SHAPE-INTENT-STRICT',
    'an IntentStatus, failure, settlement and trigger without members beyond those listed',
  ],
  [
    'intent-failure',
    'getIntentStatus',
    'SHAPE-INTENT-FAILURE',
    'a failure, when present, with code, message and retryable',
  ],
  [
    'intent-settlement',
    'getIntentStatus',
    'SHAPE-INTENT-SETTLEMENT',
    'a settlement, when present, with an errorSelector of 8 hex digits',
  ],
  [
    'intent-trigger',
    'getIntentStatus',
    'SHAPE-INTENT-TRIGGER',
    'a trigger, when present, with priceWad, blockNumber and blockHash',
  ],
  ['intent-order', 'getIntentStatus', 'SHAPE-WIRE-ORDER', 'an order with the fourteen WireOrder fields and no other'],
  [
    'intent-uint-strings',
    'getIntentStatus',
    'CONV-UINT-STRING',
    'integers as unsigned decimal strings without leading zeros',
  ],
  ['intent-wad-uints', 'getIntentStatus', 'CONV-WAD-UINT', 'its Wad fields as UnsignedIntegerString'],
  ['intent-hashes', 'getIntentStatus', 'CONV-HASH-FORMAT', 'hashes of 0x and 64 hex digits'],
  ['intent-addresses', 'getIntentStatus', 'CONV-ADDRESS-FORMAT', 'addresses of 0x and 40 hex digits'],
  ['pnl-members', 'getTraderPnl', 'SHAPE-PNL', 'PnL data whose groups are objects and whose members are strings'],
  ['pnl-wad-strings', 'getTraderPnl', 'CONV-PNL-WAD-STRING', 'PnL Wad members as strings'],
  ['vault-members', 'getVault', 'SHAPE-VAULT', 'vault data with its required members, all strings'],
  ['vault-checkpoint', 'getVault', 'SHAPE-VAULT-CHECKPOINT', 'a checkpoint, a string or null'],
  ['vault-wad-uints', 'getVault', 'CONV-WAD-UINT', 'vault Wad members as UnsignedIntegerString'],
  [
    'market-members',
    'listMarkets',
    'SHAPE-MARKET',
    'markets with their required members, paused a boolean and the others strings',
  ],
  ['market-wad-uints', 'listMarkets', 'CONV-WAD-UINT', 'market Wad members as UnsignedIntegerString'],
  ['balance-members', 'listTraderBalances', 'SHAPE-BALANCE', 'balances whose members are strings'],
]

// The intent operation's 200 is the intents concern's (RCPT-VALID-GRANTS), the config's is EP-CONFIG's.
const operationsAnswering200: readonly OperationId[] = ['getTraderPnl', 'getVault', 'listMarkets', 'listTraderBalances']

const answers200: Check = {
  id: 'shapes/operations-answer-200',
  requirement: 'EP-SUCCESS-200',
  title: `${pathsOf(operationsAnswering200)} answer a valid authenticated request with 200 and a JSON body`,
  needs: ['apiKey'],
  async run(ctx) {
    for (const answer of await answersOf(ctx, operationsAnswering200)) {
      if (!isSuccessBody(answer.exchange))
        ctx.fail(failureOf(answer, 'expected 200 with a JSON body'), { exchange: answer.exchange })
    }
  },
}

/** Every member the contract lists for Balance and PnL: it says all are strings, not that each is always sent. */
const BALANCE_MEMBERS = ['account', 'balance', 'token', 'updatedAt', 'updatedBlock']
const PNL_MEMBERS = [
  ...['appliedPayerWad', 'receiverWad', 'requestedPayerWad'].map((m) => `funding.${m}`),
  ...['cumulativeFundingPaidWad', 'cumulativeFundingReceivedWad', 'cumulativePnlWad'].map((m) => `positions.${m}`),
  ...['haircutWad', 'paidWad', 'realizedPnlWad'].map((m) => `settlements.${m}`),
]
const LISTED = 'every member the contract lists (a reading; a profile states which are required: requiredMembers)'

/**
 * The members the reading holds a record to: all those listed, unless the profile states which are required (then its
 * check holds them).
 */
const allListed = (component: 'Balance' | 'PnL', members: readonly string[]) => (profile: Profile | undefined) =>
  profile?.values.requiredMembers?.[component] ? undefined : members
const statedInstead = (component: 'Balance' | 'PnL') => () =>
  `the profile states which ${component} members are always sent (requiredMembers.${component}), and profile/${component.toLowerCase()}-required-members holds them; the reading that every listed member is sent gives way to it`

export const shapeChecks: readonly Check[] = [
  ...shapeRules.map(([slug, operation, requirement, answers]) =>
    bodyRuleCheck({
      id: `shapes/${slug}`,
      requirement,
      title: `${pathsOf([operation])} answers ${answers}`,
      operations: [operation],
    }),
  ),
  membersCheck(
    'PnL',
    {
      id: 'shapes/pnl-all-members',
      requirement: 'SHAPE-PNL-ALL-MEMBERS',
      title: `GET /v1/traders/{address}/pnl answers PnL data with ${LISTED}`,
    },
    allListed('PnL', PNL_MEMBERS),
    'a member the contract lists',
    statedInstead('PnL'),
  ),
  membersCheck(
    'Balance',
    {
      id: 'shapes/balance-all-members',
      requirement: 'SHAPE-BALANCE-ALL-MEMBERS',
      title: `GET /v1/traders/{address}/balances answers balances with ${LISTED}`,
    },
    allListed('Balance', BALANCE_MEMBERS),
    'a member the contract lists',
    statedInstead('Balance'),
  ),
  answers200,
]
