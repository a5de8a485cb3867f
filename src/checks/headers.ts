import { headerValues, type Exchange } from '../http/exchange.js'
import { exchangeRules } from './every-response.js'
import { findingMessage } from './exchange-judge.js'
import { callServableOperations, cursorPages, servableOperations, STAND_IN } from './operation-calls.js'
import type { CallOptions, Check, CheckContext } from './types.js'

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

const describeVariant = (exchange: Exchange) => {
  const id = exchange.request.headers['x-request-id']
  return id === undefined ? 'without Accept' : `with the valid X-Request-ID ${JSON.stringify(id)}`
}

/** Valid X-Request-IDs at the pattern's bounds, 8 and 128 characters. */
const BOUNDARY_REQUEST_IDS = ['ipts.rid', `ipts-conformance.optional-headers:${'x'.repeat(128 - 34)}`]

export const headersChecks: readonly Check[] = [
  {
    id: 'headers/optional-request-headers',
    requirement: 'EP-ACCEPT-HEADERS',
    title: 'every operation, and each list\'s cursor page, answers a request without Accept, and with a valid X-Request-ID of 8 and of 128 characters, as it answers the same request with Accept alone',
    needs: ['apiKey'],
    async run(ctx) {
      const pages = await cursorPages(ctx)
      const requests: { what: string; send(options?: Pick<CallOptions, 'headers' | 'withoutAccept'>): Promise<Exchange> }[] = [
        ...servableOperations(ctx.settings).map((op) => ({ what: `GET ${op.template}`, send: (options: Pick<CallOptions, 'headers' | 'withoutAccept'> = {}) => ctx.call(op.id, { ...options, shared: Object.keys(options).length === 0 }) })),
        ...pages.map((page) => ({ what: `a cursor page of ${page.operation}`, send: (options: Pick<CallOptions, 'headers' | 'withoutAccept'> = {}) => ctx.call(page.operation, { query: page.query, ...options, shared: Object.keys(options).length === 0 }) })),
      ]
      for (const request of requests) {
        const variants = [{ withoutAccept: true }, ...BOUNDARY_REQUEST_IDS.map((id) => ({ headers: { 'x-request-id': id } }))]
        const [plain, ...dressed] = await Promise.all([request.send(), ...variants.map((variant) => request.send(variant))])
        const outcome = plain!.response?.status
        // A 429 or a 5xx answers the load, not the header: such a pair says nothing.
        if (outcome === undefined || outcome === 429 || outcome >= 500) continue
        const changed = dressed.find((exchange) => exchange.response && exchange.response.status !== 429 && exchange.response.status < 500 && exchange.response.status !== outcome)
        if (changed) ctx.fail(`${request.what} answered ${outcome} with Accept alone and ${changed.response!.status} ${describeVariant(changed)}`, { exchange: changed })
      }
    },
  },
  {
    id: 'headers/content-type-json',
    requirement: 'HDR-CONTENT-TYPE-JSON',
    title: 'a success, a 401 and the answer for an unknown trader each have a JSON content type',
    needs: ['apiKey'],
    async run(ctx) {
      const exchanges = await Promise.all([ctx.call('getConfig'), ctx.call('listMarkets', { auth: 'none' }), ctx.call('getTraderPnl', { params: { address: STAND_IN.address } })])
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
