import { successBody } from '../record-edits.js'
import type { Fault } from '../types.js'

/**
 * Violations placed where a suite that samples would not look: one item of a later page, the answer to one key, one
 * operation's handling of an optional header, the cursor pages' authentication.
 */
export const unsampledFaults: readonly Fault[] = [
  {
    name: 'market-on-a-later-page-paused-as-string',
    description:
      'On pages of markets after the first (asked with a cursor), the last market has paused as the string "false".',
    breaks: ['shapes/market-members', 'relations/same-resource-same-members'],
    checkWitnesses: { 'shapes/market-members': ['cursors/markets-walk-ends'] },
    onResponse(response, request) {
      const body = request.query.has('cursor') ? successBody(response, request, 'listMarkets') : undefined
      const last = body?.data.at(-1)
      if (last) last.paused = String(last.paused)
    },
  },
  {
    name: 'vault-for-the-restricted-key-wad-as-number',
    description:
      'The vault answered to the restricted key has totalAssetsWad as a JSON number; the full key gets it right.',
    breaks: ['shapes/vault-wad-uints', 'relations/same-resource-same-members'],
    checkWitnesses: { 'shapes/vault-wad-uints': ['auth/restricted-key-scope'] },
    onResponse(response, request, data) {
      const body =
        request.headers['x-api-key'] === data.restrictedApiKey ? successBody(response, request, 'getVault') : undefined
      if (body) body.data.totalAssetsWad = Number(body.data.totalAssetsWad)
    },
  },
  {
    name: 'pnl-refuses-a-request-id',
    description:
      'GET /v1/traders/{address}/pnl answers 400 to a request that sends a valid X-Request-ID; the other operations take it.',
    breaks: ['headers/optional-request-headers'],
    onResponse(response, request) {
      if (
        request.route?.operation !== 'getTraderPnl' ||
        request.headers['x-request-id'] === undefined ||
        response.status !== 200
      )
        return
      response.status = 400
      response.body = { error: 'unexpected header x-request-id', requestId: response.headers['x-request-id'] }
    },
  },
  {
    name: 'cursor-pages-skip-authentication',
    description:
      'A list request that carries a cursor is served whatever its X-API-Key, or without one: only first pages are authenticated.',
    breaks: ['auth/missing-key', 'auth/unknown-key'],
    onRequest(request, data) {
      const list = request.path === '/v1/markets' || /^\/v1\/traders\/[^/]+\/balances$/.test(request.path)
      if (list && request.query.has('cursor') && request.headers['x-api-key'] !== data.restrictedApiKey)
        request.headers['x-api-key'] = data.apiKey
    },
  },
  {
    name: 'cursor-pages-skip-scope',
    description:
      "A list request that carries a cursor is served to the restricted key as to the full key: the scope is looked at on first pages only, so the key is served balances' later pages with a cursor of the full key.",
    breaks: ['auth/restricted-key-scope'],
    onRequest(request, data) {
      const list = request.path === '/v1/markets' || /^\/v1\/traders\/[^/]+\/balances$/.test(request.path)
      if (list && request.query.has('cursor') && request.headers['x-api-key'] === data.restrictedApiKey)
        request.headers['x-api-key'] = data.apiKey
    },
  },
]
