import { bodyFault, type Body } from '../record-edits.js'
import { errorResponse } from '../handlers.js'
import type { Fault } from '../types.js'

/** The first item of a list page. */
const firstItem = (body: Body): Body => body.data[0]

export const shapeFaults: readonly Fault[] = [
  bodyFault(
    'intent-without-state',
    'The intent status has no state.',
    ['shapes/intent-members'],
    'getIntentStatus',
    (body) => {
      delete body.state
    },
  ),
  bodyFault(
    'trigger-extra-member',
    'The intent trigger carries a member the contract does not list.',
    ['shapes/intent-strict'],
    'getIntentStatus',
    (body) => {
      if (body.trigger) body.trigger.source = 'oracle'
    },
  ),
  bodyFault(
    'intent-extra-member',
    'The intent status carries a member the contract does not list.',
    ['shapes/intent-strict'],
    'getIntentStatus',
    (body) => {
      body.relayer = 'primary'
    },
  ),
  bodyFault(
    'failure-without-message',
    'The intent failure has no message.',
    ['shapes/intent-failure'],
    'getIntentStatus',
    (body) => {
      if (body.failure) delete body.failure.message
    },
  ),
  bodyFault(
    'settlement-short-error-selector',
    'The settlement errorSelector has 6 hex digits instead of 8.',
    ['shapes/intent-settlement'],
    'getIntentStatus',
    (body) => {
      if (body.settlement) body.settlement.errorSelector = body.settlement.errorSelector.slice(0, 8)
    },
  ),
  bodyFault(
    'trigger-without-block-hash',
    'The intent trigger has no blockHash.',
    ['shapes/intent-trigger'],
    'getIntentStatus',
    (body) => {
      if (body.trigger) delete body.trigger.blockHash
    },
  ),
  bodyFault(
    'order-without-oco-group',
    'The intent order has no ocoGroup.',
    ['shapes/intent-order'],
    'getIntentStatus',
    (body) => {
      delete body.order.ocoGroup
    },
  ),
  // On the second intent only, which proves that the second intent's status is read too.
  bodyFault(
    'order-nonce-leading-zero',
    'The order nonce of the second intent has a leading zero.',
    ['shapes/intent-uint-strings'],
    'getIntentStatus',
    (body, data) => {
      if (body.orderHash === data.intents[1]!.hash) body.order.nonce = `0${body.order.nonce}`
    },
  ),
  bodyFault(
    'order-negative-q-wad',
    'The order qWad is negative.',
    ['shapes/intent-wad-uints'],
    'getIntentStatus',
    (body) => {
      body.order.qWad = `-${body.order.qWad}`
    },
  ),
  bodyFault(
    'order-oco-group-unprefixed',
    'The order ocoGroup lacks its 0x prefix.',
    ['shapes/intent-hashes'],
    'getIntentStatus',
    (body) => {
      body.order.ocoGroup = body.order.ocoGroup.slice(2)
    },
  ),
  bodyFault(
    'order-session-key-short',
    'The order sessionKey has 38 hex digits.',
    ['shapes/intent-addresses'],
    'getIntentStatus',
    (body) => {
      body.order.sessionKey = body.order.sessionKey.slice(0, 40)
    },
  ),
  // Presence is a fact of the reference's profile (requiredMembers.PnL), and without it a reading.
  bodyFault(
    'pnl-without-cumulative-pnl',
    'The PnL positions group has no cumulativePnlWad.',
    ['profile/pnl-required-members'],
    'getTraderPnl',
    (body) => {
      delete body.data.positions.cumulativePnlWad
    },
  ),
  {
    ...bodyFault(
      'pnl-without-cumulative-pnl-unstated',
      'The PnL positions group has no cumulativePnlWad, and the profile does not state which PnL members are required.',
      ['shapes/pnl-all-members'],
      'getTraderPnl',
      (body) => {
        delete body.data.positions.cumulativePnlWad
      },
    ),
    profileWithout: ['requiredMembers'],
  },
  bodyFault(
    'pnl-funding-as-list',
    "The PnL funding group is a list of its members' values instead of an object.",
    ['shapes/pnl-members', 'profile/pnl-required-members', 'properties/well-formed-address-answered'],
    'getTraderPnl',
    (body) => {
      body.data.funding = Object.values(body.data.funding)
    },
  ),
  bodyFault(
    'pnl-wad-as-number',
    'The PnL settlements paidWad is a JSON number.',
    ['shapes/pnl-wad-strings', 'properties/well-formed-address-answered'],
    'getTraderPnl',
    (body) => {
      body.data.settlements.paidWad = Number(body.data.settlements.paidWad)
    },
  ),
  bodyFault(
    'vault-updated-block-as-number',
    'The vault updatedBlock is a JSON number.',
    ['shapes/vault-members'],
    'getVault',
    (body) => {
      body.data.updatedBlock = Number(body.data.updatedBlock)
    },
  ),
  bodyFault(
    'vault-without-checkpoint',
    'The vault answers without checkpoint (its response has one, a string or null).',
    ['shapes/vault-checkpoint'],
    'getVault',
    (body) => {
      delete body.checkpoint
    },
  ),
  bodyFault(
    'vault-wad-leading-zero',
    'The vault requiredBufferWad has a leading zero.',
    ['shapes/vault-wad-uints'],
    'getVault',
    (body) => {
      body.data.requiredBufferWad = `0${body.data.requiredBufferWad}`
    },
  ),
  bodyFault(
    'market-paused-as-string',
    'The first market of each page carries paused as the string "false" instead of a boolean.',
    ['shapes/market-members', 'relations/same-resource-same-members'],
    'listMarkets',
    (body) => {
      firstItem(body).paused = String(firstItem(body).paused)
    },
  ),
  bodyFault(
    'market-twap-wad-decimal',
    'The first market of each page carries lastTwapMidWad as a decimal fraction.',
    ['shapes/market-wad-uints'],
    'listMarkets',
    (body) => {
      firstItem(body).lastTwapMidWad = '1.5'
    },
  ),
  bodyFault(
    'balance-without-updated-block',
    'The first balance of each page has no updatedBlock, which the profile says is required.',
    ['profile/balance-required-members', 'relations/same-resource-same-members', 'relations/trader-reads-agree'],
    'listTraderBalances',
    (body) => {
      delete firstItem(body).updatedBlock
    },
  ),
  {
    ...bodyFault(
      'balance-without-updated-block-unstated',
      'The first balance of each page has no updatedBlock, and the profile does not state which Balance members are required.',
      ['shapes/balance-all-members', 'relations/same-resource-same-members', 'relations/trader-reads-agree'],
      'listTraderBalances',
      (body) => {
        delete firstItem(body).updatedBlock
      },
    ),
    profileWithout: ['requiredMembers'],
  },
  bodyFault(
    'balance-as-number',
    'The first balance of each page carries balance as a JSON number.',
    [
      'shapes/balance-members',
      'properties/well-formed-address-answered',
      'relations/same-resource-same-members',
      'relations/trader-reads-agree',
    ],
    'listTraderBalances',
    (body) => {
      firstItem(body).balance = Number(firstItem(body).balance)
    },
  ),
  {
    name: 'vault-internal-error',
    description: 'GET /v1/vault answers 500 with an error body to a valid request.',
    breaks: [
      'auth/restricted-key-scope',
      'every-response/allowed-request-not-500',
      'profile/restricted-key-granted',
      'profile/vault-required-members',
      'shapes/operations-answer-200',
    ],
    ruleWitnesses: ['shapes/vault-members'],
    onResponse(response, request) {
      if (request.route?.operation !== 'getVault' || response.status !== 200) return
      response.status = 500
      response.body = errorResponse(500, 'internal', 'the vault projection failed').body
    },
  },
]
