import { headerValues, type Exchange, type ExchangeResponse } from '../http/exchange.js'
import { KEY_BOUNDS } from '../contract/idempotency.js'
import { UNSAFE_KEY_CHARACTERS } from '../generators/idempotency-keys.js'
import { keyPatternOf, writeOperationAt, type ProfileValues } from '../profile/profile.js'
import type { RunSettings } from '../core/settings.js'
import { bodyMember, type ExchangeJudge } from './exchange-judge.js'

/** Every-response rules that hold the values met anywhere in the run to the deployment profile. */

const values = (settings: Pick<RunSettings, 'profile'>): ProfileValues => settings.profile!.values
const success = (response: ExchangeResponse, exchange: Exchange, operation: string) =>
  response.status === 200 && exchange.operation === operation
const listed = (list: readonly string[]) => `(the profile lists ${list.map((v) => JSON.stringify(v)).join(', ')})`

function marketStatuses(response: ExchangeResponse): string[] {
  const data = bodyMember(response, 'data')
  if (!Array.isArray(data)) return []
  return data
    .map((market) => (market as Record<string, unknown> | null)?.status)
    .filter((status): status is string => typeof status === 'string')
}

type ListedKey = 'intentStates' | 'marketStatuses' | 'errorCodes'

/** A rule that every value of one kind met in the run is one the profile lists. */
function listedValuesRule(
  rule: Pick<ExchangeJudge, 'id' | 'requirement' | 'notApplicable'> & {
    what: string
    profile: ListedKey
    valuesOf(response: ExchangeResponse, exchange: Exchange): string[]
  },
): ExchangeJudge {
  const { what, profile, valuesOf } = rule
  return {
    id: rule.id,
    requirement: rule.requirement,
    title: `every ${what} met is one of the profile's ${profile}`,
    notApplicable: rule.notApplicable,
    profile,
    applies: (response, exchange) => valuesOf(response, exchange).length > 0,
    violation(response, exchange, settings) {
      const allowed = values(settings)[profile]!
      const unlisted = [...new Set(valuesOf(response, exchange).filter((value) => !allowed.includes(value)))]
      return unlisted.length === 0
        ? undefined
        : `${what} ${unlisted.map((v) => JSON.stringify(v)).join(', ')} is not listed ${listed(allowed)}`
    },
  }
}

const stringMember = (response: ExchangeResponse, member: string): string[] => {
  const value = bodyMember(response, member)
  return typeof value === 'string' ? [value] : []
}

/**
 * What is wrong with the Idempotency-Key a write was sent with, as IDEM-KEY-REQUIRED reads it (and the profile's
 * keyPattern, when stated).
 */
function idempotencyKeyProblem(key: string | undefined, pattern?: RegExp): string | undefined {
  if (key === undefined) return 'without Idempotency-Key'
  if (key.length < KEY_BOUNDS.min || key.length > KEY_BOUNDS.max)
    return `with an Idempotency-Key of ${key.length} characters, outside ${KEY_BOUNDS.min} to ${KEY_BOUNDS.max}`
  if (pattern)
    return pattern.test(key) ? undefined : `with an Idempotency-Key that the profile's writes.keyPattern refuses`
  const unsafe = [...key].find((c) => UNSAFE_KEY_CHARACTERS.includes(c) || c < ' ' || c === '\x7f')
  return unsafe === undefined
    ? undefined
    : `with an Idempotency-Key holding ${JSON.stringify(unsafe)}, which no reading calls safe`
}

const acceptedWrite = (response: ExchangeResponse, exchange: Exchange, settings: Pick<RunSettings, 'profile'>) =>
  response.status >= 200 &&
  response.status < 300 &&
  writeOperationAt(settings.profile?.values, exchange.request.method, exchange.request.url) !== undefined

/** The quota headers whose values the profile states: each with its value, and the value as a message shows it. */
function quotaHeaders(settings: Pick<RunSettings, 'profile'>): { name: string; value: string; shown: string }[] {
  const { limit, scope } = values(settings).quota!
  return [
    ...(limit === undefined ? [] : [{ name: 'x-ratelimit-limit', value: String(limit), shown: String(limit) }]),
    ...(scope === undefined ? [] : [{ name: 'x-ratelimit-scope', value: scope, shown: JSON.stringify(scope) }]),
  ]
}

export const profileRules: readonly ExchangeJudge[] = [
  {
    id: 'every-response/accepted-write-carries-key',
    requirement: 'IDEM-KEY-REQUIRED',
    title: 'every write accepted (2xx) was sent with an Idempotency-Key of 8 to 128 safe characters',
    notApplicable: "no write of the profile's writes was accepted",
    profile: 'writes',
    applies: acceptedWrite,
    violation(response, exchange, settings) {
      // Stryker disable next-line OptionalChaining: equivalent, the rule applies only where a profile states the write.
      const profile = settings.profile?.values
      const problem = idempotencyKeyProblem(exchange.request.headers['idempotency-key'], keyPatternOf(profile))
      const name = writeOperationAt(profile, exchange.request.method, exchange.request.url)
      return problem && `a write of ${name} sent ${problem} was accepted (${response.status})`
    },
  },
  listedValuesRule({
    id: 'every-response/intent-state-listed',
    requirement: 'STATE-INTENT-VALUES',
    what: 'intent state',
    notApplicable: 'no intent status with a state was received',
    profile: 'intentStates',
    valuesOf: (response, exchange) =>
      success(response, exchange, 'getIntentStatus') ? stringMember(response, 'state') : [],
  }),
  listedValuesRule({
    id: 'every-response/market-status-listed',
    requirement: 'STATE-MARKET-STATUS-VALUES',
    what: 'market status',
    notApplicable: 'no market with a status was received',
    profile: 'marketStatuses',
    valuesOf: (response, exchange) => (success(response, exchange, 'listMarkets') ? marketStatuses(response) : []),
  }),
  listedValuesRule({
    id: 'every-response/error-code-listed',
    requirement: 'ERR-CODE-VALUES',
    what: 'error code',
    notApplicable: 'no error body with a code was received',
    profile: 'errorCodes',
    valuesOf: (response) => (response.status >= 400 ? stringMember(response, 'code') : []),
  }),
  {
    id: 'every-response/service-source-mapped',
    requirement: 'HDR-SERVICE-SOURCE-MAPPING',
    title: "every x-service-source met is the value the profile's serviceSource gives its operation",
    notApplicable: 'no response of an operation the profile maps carried x-service-source',
    profile: 'serviceSource',
    applies: (response, exchange, settings) =>
      headerValues(response, 'x-service-source').length > 0 &&
      exchange.operation !== undefined &&
      exchange.operation in values(settings).serviceSource!,
    violation(response, exchange, settings) {
      const expected = values(settings).serviceSource![exchange.operation as keyof ProfileValues['serviceSource']]
      const sent = headerValues(response, 'x-service-source').join(' | ')
      return sent === expected
        ? undefined
        : `${exchange.operation} sent x-service-source ${JSON.stringify(sent)}; the profile gives ${JSON.stringify(expected)}`
    },
  },
  {
    id: 'every-response/quota-values',
    requirement: 'LIM-QUOTA-VALUES',
    title:
      "every x-ratelimit-limit and x-ratelimit-scope a 429 carries is the profile's quota value (both headers stay optional)",
    notApplicable:
      'no 429 in this run carried a header whose value the profile states (x-ratelimit-limit, x-ratelimit-scope)',
    profile: 'quota',
    applies: (response, _, settings) =>
      response.status === 429 && quotaHeaders(settings).some(({ name }) => headerValues(response, name).length > 0),
    violation(response, _, settings) {
      for (const { name, value, shown } of quotaHeaders(settings)) {
        const sent = headerValues(response, name)
        // "Error responses can also include" them: a header left out is not judged, one sent is the profile's value.
        if (sent.length > 0 && (sent.length > 1 || sent[0]!.trim() !== value))
          return `the 429 has ${name} ${JSON.stringify(sent.join(' | '))}; the profile gives ${shown}`
      }
      return undefined
    },
  },
]
