import { DESCRIPTION_PATH, PROBED_QUOTA } from '../server.js'
import { errorResponse, MAX_PAGE_SIZE } from '../handlers.js'
import { bodyFault } from '../record-edits.js'
import { bodyOf, errorBodyOf, isOperation } from '../response-edits.js'
import type { Fault, RefRequest, RefResponse } from '../types.js'

/**
 * Faults against the embedded reference's own profile (specs/reference-profile.yaml): each breaks a promise of the
 * profile, not of the contract.
 */

const isList = (request: RefRequest) => /^\/v1\/(?:markets|traders\/[^/]+\/balances)$/.test(request.path)
const restrictedKeyOf = (request: RefRequest, restricted: string) => request.headers['x-api-key'] === restricted

/** Edits the published description (GET /openapi.json). */
function descriptionFault(
  name: string,
  description: string,
  breaks: Fault['breaks'],
  edit: (document: Record<string, any>) => void,
): Fault {
  return {
    name,
    description,
    breaks,
    onResponse(response, request) {
      if (request.path === DESCRIPTION_PATH && response.status === 200) edit(bodyOf(response)!)
    },
  }
}

/** Drops every `additionalProperties: false` of the component schemas. */
function openEverySchema(node: unknown): void {
  if (node === null || typeof node !== 'object') return
  const record = node as Record<string, unknown>
  if (record.additionalProperties === false) delete record.additionalProperties
  for (const value of Object.values(record)) openEverySchema(value)
}

/** Turns a response into a refusal; the headers the server set (content type, request ID) stay. */
function refuse(response: RefResponse, status: number, code: string, error: string): void {
  response.status = status
  response.body = {
    ...(errorResponse(status, code, error).body as object),
    requestId: response.headers['x-request-id'],
  }
}

export const profileFaults: readonly Fault[] = [
  {
    name: 'pnl-served-to-restricted-key',
    description: 'GET /v1/traders/{address}/pnl serves the restricted key, which the profile says it refuses.',
    breaks: ['profile/restricted-key-refused'],
    onRequest(request, data) {
      if (/^\/v1\/traders\/[^/]+\/pnl$/.test(request.path) && restrictedKeyOf(request, data.restrictedApiKey))
        request.headers['x-api-key'] = data.apiKey
    },
  },
  {
    name: 'markets-refused-to-restricted-key',
    description: 'GET /v1/markets refuses the restricted key with 403, though the profile says it is granted.',
    breaks: ['profile/restricted-key-granted'],
    onResponse(response, request, data) {
      if (isOperation(request, 'listMarkets') && restrictedKeyOf(request, data.restrictedApiKey))
        refuse(response, 403, 'insufficient_scope', 'this key does not grant markets:read')
    },
  },
  {
    name: 'markets-oversized-page-served',
    description: `GET /v1/markets serves a page of ${MAX_PAGE_SIZE} markets for a page size above ${MAX_PAGE_SIZE}, which the profile says it rejects.`,
    breaks: ['profile/page-size-out-of-range'],
    onRequest(request) {
      const limit = request.query.get('limit')
      if (request.path === '/v1/markets' && limit !== null && /^[0-9]+$/.test(limit) && Number(limit) > MAX_PAGE_SIZE)
        request.query.set('limit', String(MAX_PAGE_SIZE))
    },
  },
  {
    name: 'min-page-size-refused',
    description: 'Lists refuse a page size of 1, the minimum the profile gives, with 400.',
    breaks: ['profile/page-size-in-range'],
    onResponse(response, request) {
      if (isList(request) && request.query.get('limit') === '1' && response.status === 200)
        refuse(response, 400, 'invalid_limit', 'limit must be at least 2')
    },
  },
  {
    name: 'small-page-size-ignored',
    description: 'Lists ignore a page size below the default of 10 and serve 10 items.',
    breaks: ['profile/page-size-honoured'],
    onRequest(request) {
      const limit = request.query.get('limit')
      if (isList(request) && limit !== null && /^[1-9]$/.test(limit)) request.query.delete('limit')
    },
  },
  {
    name: 'max-page-walk-restarts',
    description: `At a page size of ${MAX_PAGE_SIZE}, the last page of a list carries a cursor back to the first page.`,
    breaks: ['profile/max-page-walk-ends'],
    onResponse(response, request, data) {
      const body =
        response.status === 200 && isList(request) && request.query.get('limit') === String(MAX_PAGE_SIZE)
          ? bodyOf(response)
          : undefined
      if (!body || body.cursor !== undefined || !request.query.has('cursor')) return
      const filter = isOperation(request, 'listMarkets') ? '' : request.route!.params.address!.toLowerCase()
      body.cursor = data.cursors.encode({ operation: request.route!.operation, filter, offset: 0 })
    },
  },
  bodyFault(
    'vault-without-deposited-tokens',
    'The vault has no cumulativeDepositedTokens, which the profile says is required.',
    ['profile/vault-required-members'],
    'getVault',
    (body) => {
      delete body.data.cumulativeDepositedTokens
    },
  ),
  bodyFault(
    'market-without-activation-depth',
    'The first market of each page has no activationDepthWad, which the profile says is required.',
    // The same market is first on a page of one size and not of another: read twice, it loses a member.
    ['profile/market-required-members', 'relations/same-resource-same-members'],
    'listMarkets',
    (body) => {
      delete body.data[0].activationDepthWad
    },
  ),
  bodyFault(
    'config-without-chain-id',
    "GET /v1/config has no chainId, which the profile's config schema requires.",
    ['profile/config-schema'],
    'getConfig',
    (body) => {
      delete body.chainId
    },
  ),
  {
    ...bodyFault(
      'intent-state-expired',
      'The second intent is in state "expired", which the profile does not list.',
      ['every-response/intent-state-listed'],
      'getIntentStatus',
      (body, data) => {
        if (body.orderHash === data.intents[1]!.hash) body.state = 'expired'
      },
    ),
    ruleWitnesses: ['intents/second-receipt-grants-status'],
  },
  {
    ...bodyFault(
      'market-status-halted',
      'The first market of each page has status "halted", which the profile does not list.',
      ['every-response/market-status-listed'],
      'listMarkets',
      (body) => {
        body.data[0].status = 'halted'
      },
    ),
    ruleWitnesses: ['profile/market-required-members'],
  },
  {
    name: 'unauthorized-code-renamed',
    description: 'A 401 carries the code "auth_required", which the profile does not list.',
    breaks: ['every-response/error-code-listed'],
    ruleWitnesses: ['errors/unauthorized-error-body'],
    onResponse(response) {
      const body = response.status === 401 ? errorBodyOf(response) : undefined
      if (body) body.code = 'auth_required'
    },
  },
  {
    name: 'malformed-hash-500-code-unlisted',
    description: 'A malformed hash gets 500 with the code "database_error", which the profile does not list.',
    breaks: [
      'every-response/error-code-listed',
      'every-response/malformed-request-not-5xx',
      'intents/refusals-declared-4xx',
    ],
    ruleWitnesses: ['intents/malformed-hash-refused'],
    onResponse(response, request) {
      if (isOperation(request, 'getIntentStatus') && bodyOf(response)?.code === 'invalid_hash') {
        response.status = 500
        response.body = {
          error: 'invalid input syntax for type bytea',
          code: 'database_error',
          requestId: response.headers['x-request-id'],
        }
      }
    },
  },
  {
    name: 'invalid-cursor-code-unlisted',
    description: 'A cursor that does not verify gets 400 with the code "bad_cursor", which the profile does not list.',
    breaks: ['every-response/error-code-listed'],
    ruleWitnesses: ['cursors/tampered-cursor-rejected'],
    onResponse(response) {
      const body = response.status === 400 ? errorBodyOf(response) : undefined
      if (body?.code === 'invalid_cursor') body.code = 'bad_cursor'
    },
  },
  {
    name: 'vault-service-source-live',
    description:
      'GET /v1/vault sends x-service-source: live (a value of the contract), where the profile gives indexed.',
    breaks: ['every-response/service-source-mapped'],
    ruleWitnesses: ['shapes/vault-checkpoint'],
    onResponse(response, request) {
      if (isOperation(request, 'getVault')) response.headers['x-service-source'] = 'live'
    },
  },
  {
    name: 'quota-scope-per-ip',
    description: 'A 429 for an exceeded quota says x-ratelimit-scope: ip, where the profile gives api-key.',
    breaks: ['every-response/quota-values'],
    ruleWitnesses: ['limits/quota-429'],
    run: { probeRateLimit: true, quota: PROBED_QUOTA },
    onResponse(response) {
      if (response.status === 429) response.headers['x-ratelimit-scope'] = 'ip'
    },
  },
  {
    name: 'quota-limit-other-than-profile',
    description:
      'A 429 for an exceeded quota says x-ratelimit-limit: 400, where the profile gives the quota of 40 it counts.',
    breaks: ['every-response/quota-values'],
    ruleWitnesses: ['limits/quota-429'],
    run: { probeRateLimit: true, quota: PROBED_QUOTA },
    onResponse(response) {
      if (response.status === 429) response.headers['x-ratelimit-limit'] = '400'
    },
  },
  descriptionFault(
    'published-description-version-2',
    'The published description says info.version 2.0.0.',
    ['profile/openapi-document'],
    (document) => {
      document.info.version = '2.0.0'
    },
  ),
  descriptionFault(
    'published-description-allows-extra-members',
    'The published description drops every additionalProperties: false, so it accepts an IntentStatus with members the contract forbids.',
    ['profile/openapi-compatible'],
    (document) => {
      openEverySchema(document.components.schemas)
    },
  ),
]
