import { DESCRIPTION_PATH } from '../server.js'
import { bodyAllowance } from '../record-edits.js'
import { bodyOf } from '../response-edits.js'
import type { Allowance } from '../types.js'

/** Behaviour the embedded reference's own profile (specs/reference-profile.yaml) leaves room for. */
export const profileAllowances: readonly Allowance[] = [
  {
    name: 'balances-non-page-size-served',
    description:
      'GET /v1/traders/{address}/balances (clamp in the profile) serves its default page for a page size of 0, a negative one or a non-integer.',
    permittedBy: 'LIM-PAGE-SIZE',
    onRequest(request) {
      const limit = request.query.get('limit')
      if (/^\/v1\/traders\/[^/]+\/balances$/.test(request.path) && limit !== null && !/^[1-9][0-9]*$/.test(limit))
        request.query.delete('limit')
    },
  },
  {
    name: 'page-size-rejected-with-422',
    description: 'A page size the profile rejects gets 422 instead of 400.',
    permittedBy: 'LIM-PAGE-SIZE',
    onResponse(response) {
      if (response.status === 400 && bodyOf(response)?.code === 'invalid_limit') response.status = 422
    },
  },
  bodyAllowance(
    'vault-without-withdrawn-tokens',
    'The vault has no cumulativeWithdrawnTokens, which the profile does not require.',
    'SHAPE-VAULT-OPTIONAL',
    ['getVault'],
    (body) => {
      delete body.data.cumulativeWithdrawnTokens
    },
  ),
  bodyAllowance(
    'markets-without-twap-members',
    'Markets have no lastTwapMidWad and lastTwapTimestamp, which the profile does not require.',
    'SHAPE-MARKET-OPTIONAL',
    ['listMarkets'],
    (body) => {
      for (const market of body.data) {
        delete market.lastTwapMidWad
        delete market.lastTwapTimestamp
      }
    },
  ),
  bodyAllowance(
    'config-extra-members',
    "GET /v1/config carries members the profile's config schema does not name.",
    'EP-CONFIG-SHAPE',
    ['getConfig'],
    (body) => {
      body.relayer = { enabled: true }
    },
  ),
  {
    name: 'published-description-parameter-renamed',
    description: 'The published description names the intent path parameter orderHash: /v1/intents/{orderHash}.',
    permittedBy: 'VER-OPENAPI',
    onResponse(response, request) {
      const document =
        request.path === DESCRIPTION_PATH && response.status === 200
          ? (bodyOf(response) as Record<string, any>)
          : undefined
      if (!document) return
      const item = document.paths['/v1/intents/{hash}']
      delete document.paths['/v1/intents/{hash}']
      item.get.parameters = item.get.parameters.map((p: Record<string, unknown>) =>
        p.name === 'hash' ? { ...p, name: 'orderHash' } : p,
      )
      document.paths['/v1/intents/{orderHash}'] = item
    },
  },
]
