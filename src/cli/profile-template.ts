import { allChecks } from '../checks/index.js'
import { exchangeRules } from '../checks/every-response.js'
import { loadRequirements } from '../contract/requirements.js'
import { PROFILE_KEYS, type ProfileKey } from '../profile/profile.js'

/** What each key states, and an example of it as YAML lines. */
const KEYS: Record<ProfileKey, { states: string; example: string[] }> = {
  restrictedKey: {
    states: 'which operations --restricted-api-key must be refused (403 with an error body) and granted (200)',
    example: [
      'restrictedKey:',
      '  refused: [getVault, getTraderPnl, listTraderBalances]',
      '  granted: [getIntentStatus, listMarkets, getConfig]',
    ],
  },
  pagination: {
    states:
      'page-size bounds per list operation (parameter names stay --cursor-param and --limit-param); reject: 400 or 422 with an error body, clamp: served with at most maxPageSize items',
    example: [
      'pagination:',
      '  listMarkets: { minPageSize: 1, maxPageSize: 100, outOfRange: reject }',
      '  listTraderBalances: { minPageSize: 1, maxPageSize: 100, outOfRange: clamp }',
    ],
  },
  intentStates: {
    states: 'every allowed intent state',
    example: ['intentStates: [open, triggered, settled, failed, cancelled]'],
  },
  marketStatuses: { states: 'every allowed market status', example: ['marketStatuses: [active, paused, resolved]'] },
  serviceSource: {
    states: 'the x-service-source value of each operation when it sends the header (the header stays optional)',
    example: ['serviceSource: { getIntentStatus: automation, getVault: indexed }'],
  },
  errorCodes: {
    states: 'every error code the deployment sends (code stays optional)',
    example: ['errorCodes: [missing_api_key, invalid_api_key, insufficient_scope]'],
  },
  requiredMembers: {
    states:
      'which trailing Vault and Market members, and which Balance and PnL members (PnL as group.member), are always sent',
    example: [
      'requiredMembers: { Vault: [cumulativeDepositedTokens], Market: [activationDepthWad], Balance: [account, balance, token], PnL: [positions.cumulativePnlWad] }',
    ],
  },
  configSchema: {
    states: 'a JSON Schema 2020-12 file for the body of GET /v1/config, relative to this file',
    example: ['configSchema: config.schema.json'],
  },
  quota: {
    states:
      'the x-ratelimit-limit and x-ratelimit-scope values of a 429, when it sends them: both stay optional (checked on every 429 the run meets; --probe-rate-limit provokes one)',
    example: ['quota: { limit: 600, scope: api-key }'],
  },
  openapi: {
    states:
      'where the deployment publishes its OpenAPI description: an http(s) URL (fetched with one GET) or a file relative to this file',
    example: ['openapi: https://dev.example/openapi.json'],
  },
  writes: {
    states:
      'the relayed write operations (any name each), sent only with --allow-writes, at most --max-writes submissions: where an accepted answer holds the status identifier, the receipt and duplicate (JSON Pointers), the status operation of an intake ({id}, {receipt}), the statuses that refuse a used Idempotency-Key with another signed body, what a cancellation cancels (a chained step whose path, query, headers and signing command take values of the intake answer), and the signed bodies: files of pre-signed bodies, each used once, or a command of your own signing tool that prints one fresh signed body per call (run without a shell in this folder; the suite holds no signing key and never shows its stderr)',
    example: [
      'writes:',
      "  keyPattern: '^[A-Za-z0-9_-]+$'   # optional: what safe characters means here (without it, only characters no reading calls safe count as unsafe)",
      '  operations:',
      '    submitIntent:',
      '      kind: intent            # action, intent, batch-intent or cancellation',
      '      method: POST',
      '      path: /v1/intents',
      '      statusIdentifier: /data/hash',
      '      receipt: /data/receipt',
      '      duplicate: /data/duplicate',
      '      statusPath: /v1/intents/{id}?receipt={receipt}',
      '      keyReuse: { refused: [409, 422] }   # optional: the statuses that refuse its key used before with another body',
      '      bodies: { command: [./sign-intent, --staging] }',
      '    cancelIntent:',
      '      kind: cancellation',
      '      method: POST',
      '      path: /v1/cancellations',
      '      statusIdentifier: /data/id',
      '      bodies: { files: [bodies/cancel-1.json, bodies/cancel-2.json] }',
      '      cancels:                # optional: a chained step that cancels a new submitIntent submission',
      '        operation: submitIntent',
      "        path: /v1/intents/{id}/cancellation   # {id}, {receipt}, {/json/pointer}: values of the intake's answer",
      "        headers: { X-Receipt: '{receipt}' }   # also query: { name: template }; a receipt is best kept out of URLs",
      "        bodies: { command: [./sign-cancel, '{id}'] }",
      '        accepted: [202]       # optional: the statuses that mean accepted (any 2xx) and refused (any other)',
      '        refused: [401, 403, 404]',
      '        state: /state         # where its status answer holds the state',
      '        terminalStates: [settled, failed, cancelled]',
    ],
  },
  realtime: {
    states:
      'the realtime channels: the ticket operation (sent with X-API-Key; its body may name the {channel}) and where its answer holds the ticket, the WebSocket URL ({ticket}, {channel}; never the receipt), the message that opens a channel ({channel}, {receipt}, {ticket}), how an open channel and a refusal show, the channel names of an intent ({hash}) and an action ({id}), and the event kinds promised, if any. Tickets and channel openings run whenever this is stated; the lifecycle through a chained cancellation needs writes and --allow-writes',
    example: [
      'realtime:',
      '  ticket: { method: POST, path: /v1/realtime/tickets, body: \'{"channel":"{channel}"}\', ticket: /data/ticket }',
      '  url: /v1/realtime?ticket={ticket}          # below --base-url (ws:/wss:), or a ws(s):// URL',
      '  open: \'{"type":"subscribe","channel":"{channel}","receipt":"{receipt}"}\'',
      '  opened: { pointer: /type, value: subscribed }',
      '  refused: { closeCodes: [4403], message: { pointer: /type, value: error } }   # either shows a refusal',
      "  channels: { intent: 'intent:{hash}', action: 'action:{id}' }",
      '  events:                    # optional: the event kinds promised',
      '    kind: /kind',
      '    kinds: [pending, open, triggered, settled, failed, cancelled]',
      '    terminal: [settled, failed, cancelled]',
    ],
  },
}

/** What stating a key unlocks: the requirements it makes assessable and the checks that then run. */
function unlocks(key: ProfileKey): string {
  const requirements = loadRequirements()
    .filter((r) => r.profile === key)
    .map((r) => r.id)
  const checks = [...allChecks, ...exchangeRules].filter((c) => c.profile === key).map((c) => c.id)
  return `assesses ${requirements.join(', ')} with ${checks.join(', ')}`
}

/**
 * `ipts-conformance profile init`: a commented profile with every key, all commented out; uncomment what the deployment
 * promises.
 */
export function profileTemplate(): string {
  const lines = [
    '# Deployment profile for ipts-conformance (--profile FILE; schema: specs/profile.schema.json).',
    '# It states what the deployment promises where the contract says "not shown". Every key is optional; each one',
    '# you uncomment becomes MUST checks of its requirement, and the report says "assessed against the profile".',
    '# Operation names are the operationIds of specs/openapi.yaml: getIntentStatus, getTraderPnl, getVault,',
    "# listMarkets, listTraderBalances, getConfig. The values below are examples: state your deployment's own.",
    'profile:',
  ]
  for (const key of PROFILE_KEYS) {
    const { states, example } = KEYS[key]
    lines.push('', `  # ${key}: ${states}.`, `  # Unlocks: ${unlocks(key)}.`, ...example.map((line) => `  # ${line}`))
  }
  return `${lines.join('\n')}\n`
}
