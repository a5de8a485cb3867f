import { headerValue, headerValues, type Exchange, type ExchangeResponse } from '../http/exchange.js'
import type { ProfileValues } from '../profile/profile.js'
import type { RunSettings } from '../runner/settings.js'
import type { ExchangeRule } from './every-response.js'

/** Every-response rules that hold the values met anywhere in the run to the deployment profile. */

const values = (settings: RunSettings): ProfileValues => settings.profile!.values
const objectBody = (response: ExchangeResponse): Record<string, unknown> | undefined => {
  const body = response.json
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined
}
const success = (response: ExchangeResponse, exchange: Exchange, operation: string) => response.status === 200 && exchange.operation === operation
const listed = (list: readonly string[] | undefined) => `(the profile lists ${(list ?? []).map((v) => JSON.stringify(v)).join(', ')})`

function marketStatuses(response: ExchangeResponse): string[] {
  const data = objectBody(response)?.data
  if (!Array.isArray(data)) return []
  return data.map((market) => (market as Record<string, unknown> | null)?.status).filter((status): status is string => typeof status === 'string')
}

export const profileRules: readonly ExchangeRule[] = [
  {
    id: 'every-response/intent-state-listed',
    requirement: 'STATE-INTENT-VALUES',
    title: "every intent state met is one of the profile's intentStates",
    notApplicable: 'no intent status with a state was received',
    profile: 'intentStates',
    applies: (response, exchange) => success(response, exchange, 'getIntentStatus') && typeof objectBody(response)?.state === 'string',
    violation(response, _, settings) {
      const state = objectBody(response)!.state as string
      return values(settings).intentStates!.includes(state) ? undefined : `intent state ${JSON.stringify(state)} is not listed ${listed(values(settings).intentStates)}`
    },
  },
  {
    id: 'every-response/market-status-listed',
    requirement: 'STATE-MARKET-STATUS-VALUES',
    title: "every market status met is one of the profile's marketStatuses",
    notApplicable: 'no market with a status was received',
    profile: 'marketStatuses',
    applies: (response, exchange) => success(response, exchange, 'listMarkets') && marketStatuses(response).length > 0,
    violation(response, _, settings) {
      const unlisted = [...new Set(marketStatuses(response).filter((status) => !values(settings).marketStatuses!.includes(status)))]
      return unlisted.length === 0 ? undefined : `market status ${unlisted.map((s) => JSON.stringify(s)).join(', ')} is not listed ${listed(values(settings).marketStatuses)}`
    },
  },
  {
    id: 'every-response/error-code-listed',
    requirement: 'ERR-CODE-VALUES',
    title: "every error code met is one of the profile's errorCodes",
    notApplicable: 'no error body with a code was received',
    profile: 'errorCodes',
    applies: (response) => response.status >= 400 && typeof objectBody(response)?.code === 'string',
    violation(response, _, settings) {
      const code = objectBody(response)!.code as string
      return values(settings).errorCodes!.includes(code) ? undefined : `error code ${JSON.stringify(code)} is not listed ${listed(values(settings).errorCodes)}`
    },
  },
  {
    id: 'every-response/service-source-mapped',
    requirement: 'HDR-SERVICE-SOURCE-MAPPING',
    title: "every x-service-source met is the value the profile's serviceSource gives its operation",
    notApplicable: 'no response of an operation the profile maps carried x-service-source',
    profile: 'serviceSource',
    applies: (response, exchange, settings) => headerValues(response, 'x-service-source').length > 0 && exchange.operation !== undefined && exchange.operation in values(settings).serviceSource!,
    violation(response, exchange, settings) {
      const expected = values(settings).serviceSource![exchange.operation as keyof ProfileValues['serviceSource']]
      const sent = headerValues(response, 'x-service-source').join(' | ')
      return sent === expected ? undefined : `${exchange.operation} sent x-service-source ${JSON.stringify(sent)}; the profile gives ${JSON.stringify(expected)}`
    },
  },
  {
    id: 'every-response/quota-values',
    requirement: 'LIM-QUOTA-VALUES',
    title: "every 429 carries the profile's quota values in x-ratelimit-limit and x-ratelimit-scope",
    notApplicable: 'no response in this run was a 429',
    profile: 'quota',
    applies: (response) => response.status === 429,
    violation(response, _, settings) {
      const { limit, scope } = values(settings).quota!
      const sentLimit = headerValue(response, 'x-ratelimit-limit')
      const sentScope = headerValue(response, 'x-ratelimit-scope')
      if (limit !== undefined && sentLimit?.trim() !== String(limit)) return `the 429 has x-ratelimit-limit ${JSON.stringify(sentLimit ?? null)}; the profile gives ${limit}`
      if (scope !== undefined && sentScope?.trim() !== scope) return `the 429 has x-ratelimit-scope ${JSON.stringify(sentScope ?? null)}; the profile gives ${JSON.stringify(scope)}`
      return undefined
    },
  },
]
