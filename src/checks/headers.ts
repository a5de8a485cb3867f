import { headerValues, type Exchange, type ExchangeResponse } from '../http/exchange.js'
import { isTransient } from '../http/retry.js'
import { exchangeRules } from './every-response.js'
import { findingMessage } from './exchange-judge.js'
import { callServableOperations, cursorPageSources, servableOperations, STAND_IN, statusOf } from './operation-calls.js'
import type { CallOptions, Check, CheckContext } from './types.js'

/**
 * What an every-response rule finds wrong with one exchange, so that a check judges its own exchanges as the rule does.
 */
function ruleViolation(
  ruleId: string,
  response: ExchangeResponse,
  exchange: Exchange,
  ctx: CheckContext,
): string | undefined {
  const rule = exchangeRules.find((r) => r.id === ruleId)!
  const finding = rule.applies(response, exchange, ctx.settings)
    ? rule.violation(response, exchange, ctx.settings)
    : undefined
  return finding === undefined ? undefined : findingMessage(finding)
}

/** Fails with the first exchange that breaks the every-response rule, judged as the rule judges it. */
function expectRuleHolds(ctx: CheckContext, ruleId: string, exchanges: readonly Exchange[]): void {
  for (const exchange of exchanges) {
    const path = new URL(exchange.request.url).pathname
    if (!exchange.response) ctx.fail(`${path} got ${statusOf(exchange)}`, { exchange })
    const violation = ruleViolation(ruleId, exchange.response!, exchange, ctx)
    if (violation !== undefined) ctx.fail(`${path} (${exchange.response!.status}): ${violation}`, { exchange })
  }
}

type Variant = Pick<CallOptions, 'headers' | 'withoutAccept'>

/**
 * Sends every operation whose inputs were given, and each list's cursor page, as the suite sends them (Accept, no
 * X-Request-ID) and in each variant, and fails where a variant changes the status: a header the contract lets a
 * request send or leave out must not change the outcome. A 429 or a transient 502, 503 or 504 answers the load, not the
 * header; a 500 that repeated on a retry is an outcome like any other (the 5xx policy).
 */
async function expectOutcomeKept(ctx: CheckContext, variants: readonly Variant[]): Promise<void> {
  const requests: { what: string; send(variant?: Variant): Promise<Exchange | undefined> }[] = [
    ...servableOperations(ctx.settings).map((op) => ({
      what: `GET ${op.template}`,
      send: (variant?: Variant) => ctx.call(op.id, { ...variant, shared: !variant }),
    })),
    // Each with a cursor of its own: a server may take each cursor once.
    ...cursorPageSources(ctx).map((source) => ({
      what: `a cursor page of ${source.operation}`,
      send: async (variant?: Variant) => {
        const page = await source.fresh()
        return page && ctx.call(page.operation, { query: page.query, ...variant })
      },
    })),
  ]
  const saysNothing = (status: number | undefined) => status === undefined || status === 429 || isTransient(status)
  const unjudged: string[] = []
  for (const request of requests) {
    const [plain, ...varied] = await Promise.all([request.send(), ...variants.map((variant) => request.send(variant))])
    const outcome = plain?.response?.status
    if (saysNothing(outcome)) {
      unjudged.push(`${request.what} ${plain ? statusOf(plain) : 'not sent (no cursor)'}`)
      continue
    }
    const changed = varied.find(
      (exchange): exchange is Exchange =>
        !!exchange && !saysNothing(exchange.response?.status) && exchange.response!.status !== outcome,
    )
    if (changed)
      ctx.fail(
        `${request.what} answered ${outcome} as the suite sends it and ${changed.response!.status} ${describeVariant(changed)}`,
        { exchange: changed },
      )
  }
  if (unjudged.length === requests.length)
    ctx.skip(
      `no request, as the suite sends it, got an answer that shows its outcome (a 429, a transient 502, 503 or 504 or no response says nothing of a header): ${unjudged.join(', ')}`,
    )
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
    title:
      "every operation, and each list's cursor page, answers a request with a valid X-Request-ID of 8 and of 128 characters as it answers the same request without one",
    needs: ['apiKey'],
    run: (ctx) =>
      expectOutcomeKept(
        ctx,
        BOUNDARY_REQUEST_IDS.map((id) => ({ headers: { 'x-request-id': id } })),
      ),
  },
  {
    id: 'headers/request-without-accept-served',
    requirement: 'EP-ACCEPT-OPTIONAL',
    title:
      'every operation, and each list\'s cursor page, answers a request without Accept as it answers the same request with it (a reading: "may send Accept" stands beside "every authenticated request sends Accept")',
    needs: ['apiKey'],
    run: (ctx) => expectOutcomeKept(ctx, [{ withoutAccept: true }]),
  },
  {
    id: 'headers/content-type-json',
    requirement: 'HDR-CONTENT-TYPE-JSON',
    title: 'a 401 and the answer for an unknown trader each have a JSON content type, when they are errors',
    needs: ['apiKey'],
    async run(ctx) {
      // A success's content type is a reading (every-response/success-json-content-type); the error body's is stated.
      const exchanges = await Promise.all([
        ctx.call('listMarkets', {
          // Stryker disable next-line StringLiteral: equivalent: auth '' sends no key, the same request as 'none'
          auth: 'none',
        }),
        ctx.call('getTraderPnl', { params: { address: STAND_IN.address } }),
      ])
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
      if (!exchanges.some((e) => e.response && headerValues(e.response, 'x-service-source').length > 0))
        ctx.skip('no operation sent x-service-source')
      expectRuleHolds(ctx, 'every-response/service-source', exchanges)
    },
  },
]
