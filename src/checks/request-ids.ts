import { headerShown, headerValue, headerValues, type Exchange, type ExchangeResponse } from '../http/exchange.js'
import { schemaPattern } from '../contract/schemas.js'
import { bodyMember } from './exchange-judge.js'
import type { Check, CheckContext } from './types.js'
import { statusOf } from './operation-calls.js'

const REQUEST_ID = schemaPattern('RequestId')

interface RequestIdExample {
  /** Names the example in a failure message. */
  name: string
  value: string
}

/** Valid X-Request-ID values at the bounds of 8 to 128 of letters, digits, dots, underscores, colons and hyphens. */
const VALID_REQUEST_IDS: readonly RequestIdExample[] = [
  { name: 'shortest (8 characters)', value: 'Rid8char' },
  { name: 'longest (128 characters)', value: `${'x'.repeat(120)}.9_:-AbZ` },
  { name: 'dotted', value: 'ipts.conformance.1' },
  { name: 'underscored', value: 'ipts_conformance_2' },
  { name: 'colon-separated', value: 'ipts:conformance:3' },
  { name: 'hyphenated', value: 'ipts-conformance-4' },
]

/** X-Request-ID values outside the bounds. undici refuses to send CR or LF, so no header-splitting values. */
const INVALID_REQUEST_IDS: readonly RequestIdExample[] = [
  { name: 'too short (7 characters)', value: 'Rid7chr' },
  { name: 'too long (129 characters)', value: `${'x'.repeat(121)}.9_:-AbZ` },
  { name: 'with a space', value: 'ipts conformance' },
  { name: 'with a slash', value: 'ipts/conformance' },
  { name: 'non-ASCII', value: 'ipts-conformancé' },
]

/** Sent with a request that is refused for want of a key, to see what an error response does with it. */
const ERROR_REQUEST_ID = 'ipts-conformance.error_1'

function responseOf(ctx: CheckContext, exchange: Exchange): ExchangeResponse {
  if (!exchange.response) ctx.fail(statusOf(exchange), { exchange })
  return exchange.response!
}

/** GET /v1/config without a key: the one error every deployment can be made to answer. */
async function errorResponse(
  ctx: CheckContext,
  headers: Record<string, string> = {},
): Promise<{ exchange: Exchange; response: ExchangeResponse }> {
  const exchange = await ctx.call('getConfig', {
    // Stryker disable next-line StringLiteral: equivalent: auth '' sends no key, the same request as 'none'
    auth: 'none',
    headers,
  })
  const response = responseOf(ctx, exchange)
  if (response.status < 400) ctx.skip(`GET /v1/config without a key answered ${response.status}, not an error`)
  return { exchange, response }
}

/**
 * A check that sends GET /v1/config once per example and fails on the first response where problem() finds something
 * wrong. Recorded, it judges any request to an operation that sent an X-Request-ID of the kind its examples are.
 */
function examplesCheck(
  check: Pick<Check, 'id' | 'requirement' | 'title'>,
  examples: readonly RequestIdExample[],
  problem: (example: RequestIdExample, response: ExchangeResponse) => string | undefined,
  kind: { valid: boolean; described: string },
): Check {
  const sentId = (exchange: Exchange) => exchange.request.headers['x-request-id']
  return {
    ...check,
    needs: ['apiKey'],
    recorded: {
      notApplicable: `no exchange was a request to an operation with ${kind.valid ? 'a valid' : 'an invalid'} X-Request-ID`,
      applies(_, exchange) {
        const sent = sentId(exchange)
        return exchange.operation !== undefined && sent !== undefined && REQUEST_ID.test(sent) === kind.valid
      },
      violation(response, exchange) {
        const value = sentId(exchange)!
        const found = problem({ name: kind.described, value }, response)
        return found === undefined ? undefined : `${kind.described} X-Request-ID ${JSON.stringify(value)} ${found}`
      },
    },
    async run(ctx) {
      const exchanges = await Promise.all(
        examples.map(({ value }) => ctx.call('getConfig', { headers: { 'x-request-id': value } })),
      )
      examples.forEach((example, i) => {
        const exchange = exchanges[i]!
        const found = problem(example, responseOf(ctx, exchange))
        if (found !== undefined)
          ctx.fail(`the ${example.name} X-Request-ID ${JSON.stringify(example.value)} ${found}`, { exchange })
      })
    },
  }
}

export const requestIdChecks: readonly Check[] = [
  {
    id: 'request-ids/present-on-success',
    requirement: 'RID-HEADER-PRESENT',
    title: 'a successful response carries x-request-id',
    needs: ['apiKey'],
    async run(ctx) {
      const exchange = await ctx.call('getConfig')
      if (headerValues(responseOf(ctx, exchange), 'x-request-id').length === 0)
        ctx.fail('x-request-id is missing', { exchange })
    },
  },
  {
    id: 'request-ids/present-on-error',
    requirement: 'RID-HEADER-PRESENT',
    title: 'an error response carries x-request-id',
    async run(ctx) {
      const { exchange, response } = await errorResponse(ctx)
      if (headerValues(response, 'x-request-id').length === 0)
        ctx.fail(`x-request-id is missing from a ${response.status}`, { exchange })
    },
  },
  examplesCheck(
    {
      id: 'request-ids/valid-echoed',
      requirement: 'RID-ECHO-VALID',
      title:
        'a valid X-Request-ID comes back unchanged in x-request-id, at its bounds and with each allowed punctuation',
    },
    VALID_REQUEST_IDS,
    ({ value }, response) => {
      const echoed = headerValue(response, 'x-request-id')
      return echoed === value
        ? undefined
        : `came back as ${echoed === undefined ? 'no single x-request-id' : JSON.stringify(echoed)}`
    },
    { valid: true, described: 'the valid' },
  ),
  examplesCheck(
    {
      id: 'request-ids/invalid-not-echoed',
      requirement: 'RID-INVALID-NOT-ECHOED',
      title: 'an X-Request-ID outside its bounds is not echoed back verbatim',
    },
    INVALID_REQUEST_IDS,
    ({ value }, response) => {
      if (headerValues(response, 'x-request-id').includes(value)) return 'is echoed in x-request-id'
      return bodyMember(response, 'requestId') === value ? "is echoed in the body's requestId" : undefined
    },
    { valid: false, described: 'the invalid' },
  ),
  {
    id: 'request-ids/error-echoes-sent-id',
    requirement: 'RID-ECHO-VALID',
    title: 'an error response to a request with a valid X-Request-ID carries it back in x-request-id',
    async run(ctx) {
      const { exchange, response } = await errorResponse(ctx, { 'x-request-id': ERROR_REQUEST_ID })
      const inHeader = headerValue(response, 'x-request-id')
      if (inHeader !== ERROR_REQUEST_ID)
        ctx.fail(`a ${response.status} carries ${headerShown(response, 'x-request-id')}, not the X-Request-ID sent`, {
          exchange,
        })
    },
  },
  {
    id: 'request-ids/error-body-id-matches-header',
    requirement: 'RID-BODY-MATCHES-HEADER',
    title:
      "an error body's requestId, sent with a valid X-Request-ID, is the x-request-id of its response (whichever ID the service chose)",
    async run(ctx) {
      const { exchange, response } = await errorResponse(ctx, { 'x-request-id': ERROR_REQUEST_ID })
      const inBody = bodyMember(response, 'requestId')
      if (inBody === undefined) ctx.skip(`the ${response.status} body carries no requestId (it is optional)`)
      const inHeader = headerValue(response, 'x-request-id')
      if (inBody !== inHeader)
        ctx.fail(
          `a ${response.status} body carries requestId ${JSON.stringify(inBody)}, ${inHeader === undefined ? 'and no single x-request-id' : `its header x-request-id ${JSON.stringify(inHeader)}`}`,
          { exchange },
        )
    },
  },
]
