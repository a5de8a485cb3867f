import { headerValues, type Exchange } from '../http/exchange.js'
import { exchangeRules } from './every-response.js'
import { findingMessage } from './exchange-judge.js'
import { callServableOperations, STAND_IN } from './operation-calls.js'
import type { Check, CheckContext } from './types.js'

/** What an every-response rule finds wrong with one exchange, so that a check judges its own exchanges as the rule does. */
function ruleViolation(ruleId: string, exchange: Exchange, ctx: CheckContext): string | undefined {
  const rule = exchangeRules.find((r) => r.id === ruleId)!
  const { response } = exchange
  if (!response) return `no response: ${exchange.error?.message}`
  const finding = rule.applies(response, exchange, ctx.settings) ? rule.violation(response, exchange, ctx.settings) : undefined
  return finding === undefined ? undefined : findingMessage(finding)
}

/** Fails with the first exchange that breaks the every-response rule, judged as the rule judges it. */
function expectRuleHolds(ctx: CheckContext, ruleId: string, exchanges: readonly Exchange[]): void {
  for (const exchange of exchanges) {
    const violation = ruleViolation(ruleId, exchange, ctx)
    if (violation !== undefined) ctx.fail(`${new URL(exchange.request.url).pathname} (${exchange.response?.status ?? 'no response'}): ${violation}`, { exchange })
  }
}

const CLIENT_REQUEST_ID = 'ipts-conformance.optional-headers:1'

export const headersChecks: readonly Check[] = [
  {
    id: 'headers/optional-request-headers',
    requirement: 'EP-ACCEPT-HEADERS',
    title: 'GET /v1/vault is served with Accept and X-Request-ID',
    needs: ['apiKey'],
    async run(ctx) {
      const exchange = await ctx.call('getVault', { headers: { 'x-request-id': CLIENT_REQUEST_ID } })
      if (exchange.response?.status !== 200) ctx.fail(`a request with Accept and X-Request-ID answered ${exchange.response?.status ?? exchange.error?.message}, not 200`, { exchange })
    },
  },
  {
    id: 'headers/request-without-accept-served',
    requirement: 'EP-ACCEPT-OPTIONAL',
    title: 'GET /v1/vault is served without Accept and X-Request-ID (a reading: "may send Accept" stands beside "every authenticated request sends Accept")',
    needs: ['apiKey'],
    async run(ctx) {
      const exchange = await ctx.call('getVault', { withoutAccept: true })
      if (exchange.response?.status !== 200) ctx.fail(`a request without Accept and X-Request-ID answered ${exchange.response?.status ?? exchange.error?.message}, not 200`, { exchange })
    },
  },
  {
    id: 'headers/content-type-json',
    requirement: 'HDR-CONTENT-TYPE-JSON',
    title: 'a 401 and the answer for an unknown trader each have a JSON content type, when they are errors',
    needs: ['apiKey'],
    async run(ctx) {
      // A success's content type is a reading (every-response/success-json-content-type); the error body's is stated.
      const exchanges = await Promise.all([ctx.call('listMarkets', { auth: 'none' }), ctx.call('getTraderPnl', { params: { address: STAND_IN.address } })])
      expectRuleHolds(ctx, 'every-response/json-content-type', exchanges)
    },
  },
  {
    id: 'headers/service-source-values',
    requirement: 'HDR-SERVICE-SOURCE-VALUES',
    title: 'x-service-source, on any operation that sends it, is indexed, automation or live',
    needs: ['apiKey'],
    async run(ctx) {
      const exchanges = await callServableOperations(ctx, 'full')
      if (!exchanges.some((e) => e.response && headerValues(e.response, 'x-service-source').length > 0)) ctx.skip('no operation sent x-service-source')
      expectRuleHolds(ctx, 'every-response/service-source', exchanges)
    },
  },
]
