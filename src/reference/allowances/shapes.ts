import type { CheckId } from '../../contract/catalogue-ids.js'
import type { OperationId } from '../../contract/operations.js'
import { loadOpenApi } from '../../contract/schemas.js'
import { bodyAllowance, mixedCaseAddress, recordsOf, upperCaseHex } from '../record-edits.js'
import type { Allowance } from '../types.js'

/** Members of a component schema that it does not require, read from specs/openapi.yaml. */
function optionalMembers(component: string): string[] {
  const schema = loadOpenApi().components.schemas[component] as { properties: object; required?: string[] }
  return Object.keys(schema.properties).filter((name) => !schema.required?.includes(name))
}

function extraMembers(operation: OperationId, records: string, permittedBy: Allowance['permittedBy']): Allowance {
  return bodyAllowance(
    `${records}-extra-members`,
    `${records} records carry members the contract does not list (it does not forbid additional properties).`,
    permittedBy,
    [operation],
    (body) => {
      for (const record of recordsOf[operation](body))
        Object.assign(record, { displayName: 'extra', tickSizeWad: '1000' })
    },
  )
}

function withoutOptional(
  operation: OperationId,
  component: string,
  permittedBy: Allowance['permittedBy'],
  name: string,
): Allowance {
  const members = optionalMembers(component)
  const allowance = bodyAllowance(
    name,
    `${component} without the members it does not require: ${members.join(', ')}.`,
    permittedBy,
    [operation],
    (body) => {
      for (const record of recordsOf[operation](body)) for (const member of members) delete record[member]
    },
  )
  // The reference's profile requires some of these members; a deployment that leaves them out would not.
  return component === 'IntentStatus'
    ? allowance
    : { ...allowance, profileWithout: ['requiredMembers'], skips: REQUIRED_MEMBERS_CHECKS }
}

/**
 * The profile's required-members checks: a deployment that leaves members out would not state the reference's
 * requiredMembers.
 */
const REQUIRED_MEMBERS_CHECKS: readonly CheckId[] = [
  'profile/balance-required-members',
  'profile/market-required-members',
  'profile/pnl-required-members',
  'profile/vault-required-members',
]

/**
 * Records without members the contract lists and types but does not say are always sent: only the reading that they are
 * fails.
 */
function withoutListed(
  name: string,
  description: string,
  operation: OperationId,
  reading: CheckId,
  edit: Parameters<typeof bodyAllowance>[4],
): Allowance {
  return {
    ...bodyAllowance(
      name,
      description,
      operation === 'getTraderPnl' ? 'SHAPE-PNL' : 'SHAPE-BALANCE',
      [operation],
      edit,
    ),
    profileWithout: ['requiredMembers'],
    skips: REQUIRED_MEMBERS_CHECKS,
    readings: [reading],
  }
}

const negative = (value: string) => (value.startsWith('-') ? value : `-${value === '0' ? '1' : value}`)

export const shapeAllowances: readonly Allowance[] = [
  extraMembers('listMarkets', 'market', 'SHAPE-MARKET'),
  extraMembers('getVault', 'vault', 'SHAPE-VAULT'),
  extraMembers('listTraderBalances', 'balance', 'SHAPE-BALANCE'),
  extraMembers('getTraderPnl', 'pnl-group', 'SHAPE-PNL'),
  withoutListed(
    'balances-without-updated-members',
    'Balances carry account, balance and token only: "All members are strings" lists updatedAt and updatedBlock, it does not say they are always sent.',
    'listTraderBalances',
    'shapes/balance-all-members',
    (body) => {
      for (const balance of body.data) {
        delete balance.updatedAt
        delete balance.updatedBlock
      }
    },
  ),
  withoutListed(
    'pnl-without-settlements',
    'The PnL carries funding and positions but no settlements group (a trader that never settled): the contract lists the groups without saying each is always sent.',
    'getTraderPnl',
    'shapes/pnl-all-members',
    (body) => {
      delete body.data.settlements
    },
  ),
  withoutOptional('listMarkets', 'Market', 'SHAPE-MARKET-OPTIONAL', 'market-without-last-three-fields'),
  withoutOptional('getVault', 'Vault', 'SHAPE-VAULT-OPTIONAL', 'vault-without-last-two-fields'),
  // The configured intent is the one with every optional member; without failure no intent reports one to judge.
  {
    ...withoutOptional('getIntentStatus', 'IntentStatus', 'SHAPE-INTENT-STATUS', 'intent-without-optional-members'),
    skips: ['intents/failure-not-retryable'],
  },
  bodyAllowance(
    'upper-case-hash-digits',
    'Hashes of the intent carry upper-case hex digits (Hash allows either case).',
    'CONV-HASH-FORMAT',
    ['getIntentStatus'],
    (body) => {
      body.orderHash = upperCaseHex(body.orderHash)
      body.order.ocoGroup = upperCaseHex(body.order.ocoGroup)
      if (body.settlement?.txHash) body.settlement.txHash = upperCaseHex(body.settlement.txHash)
      if (body.trigger) body.trigger.blockHash = upperCaseHex(body.trigger.blockHash)
    },
  ),
  bodyAllowance(
    'mixed-case-addresses',
    'Addresses of the intent order and of balances are in mixed (checksum-shaped) case (Address allows either case).',
    'CONV-ADDRESS-FORMAT',
    ['getIntentStatus', 'listTraderBalances'],
    (body) => {
      for (const holder of body.order ? [body.order] : body.data) {
        for (const member of ['trader', 'sessionKey', 'account', 'token'])
          if (typeof holder[member] === 'string') holder[member] = mixedCaseAddress(holder[member])
      }
    },
  ),
  bodyAllowance(
    'vault-checkpoint-null',
    'The vault answers checkpoint null, as before an indexed checkpoint exists.',
    'SHAPE-VAULT-CHECKPOINT',
    ['getVault'],
    (body) => {
      body.checkpoint = null
    },
  ),
  bodyAllowance(
    'negative-pnl-strings',
    'Every PnL member is a negative decimal string (PnL and funding fields are typed only as string).',
    'CONV-PNL-WAD-STRING',
    ['getTraderPnl'],
    (body) => {
      for (const group of recordsOf.getTraderPnl(body))
        for (const [member, value] of Object.entries(group)) group[member] = negative(value as string)
    },
  ),
]
