import type { Exchange } from '../http/exchange.js'
import type { IntentInput, RunSettings } from '../core/settings.js'
import { bodyMember, type RecordedJudgement } from './exchange-judge.js'
import { intentRefusalStatuses, statusOf } from './operation-calls.js'
import type { Check, CheckContext, Need } from './types.js'

const RECEIPT_MAX_LENGTH = 512

/**
 * What is wrong with the answer to a request that must get no status access: a 2xx grants it. The quotes forbid
 * access, and 500, 502, 503 and 504 are declared for the operation too, so any other answer grants none; that the
 * refusal is a declared 4xx is the reading intents/refusals-declared-4xx holds (SHOULD).
 */
function accessProblem(status: number, what: string): string | undefined {
  return status >= 200 && status <= 299 ? `${what} answered ${status}: access was granted` : undefined
}

/** What is wrong with a refusal that is not a declared 4xx (a 5xx, or a 4xx the operation does not declare). */
function refusalStatusProblem(status: number, what: string): string | undefined {
  const refusals = intentRefusalStatuses()
  return refusals.includes(status)
    ? undefined
    : `${what} answered ${status}, not a declared 4xx (one of ${refusals.join(', ')})`
}

/** Fails unless the exchange granted no access; a 429 says nothing either way. */
function expectRefusal(ctx: CheckContext, exchange: Exchange, what: string): void {
  const status = exchange.response?.status
  if (status === undefined) ctx.fail(`${what} got ${statusOf(exchange)}`, { exchange })
  if (status === 429)
    ctx.skip(`${what} was answered 429 (quota exceeded), so whether access is refused was not observed`)
  const problem = accessProblem(status!, what)
  if (problem) ctx.fail(problem, { exchange })
}

/** A recorded request for an intent's status without a receipt must be refused; a 429 says nothing either way. */
const missingReceiptRefused: RecordedJudgement = {
  notApplicable: 'no exchange was a request for an intent status without a receipt',
  applies: (response, exchange) =>
    exchange.operation === 'getIntentStatus' &&
    !new URL(exchange.request.url).searchParams.has('receipt') &&
    response.status !== 429,
  violation: (response) => accessProblem(response.status, 'the intent without a receipt'),
}

function readIntent(ctx: CheckContext, intent: IntentInput): Promise<Exchange> {
  return ctx.call('getIntentStatus', {
    params: { hash: intent.hash },
    query: { receipt: intent.receipt },
    shared: true,
  })
}

/**
 * A member of the intent status an exchange was answered with: undefined unless it was a 200 whose JSON body has it.
 */
export function statusMember(exchange: Exchange, name: string): unknown {
  return exchange.response?.status === 200 ? bodyMember(exchange.response, name) : undefined
}

/**
 * A receipt of the same length as the real one; built from filler so that no part of the real receipt leaks into a
 * report.
 */
function fillerReceipt(real: string): string {
  // Stryker disable next-line ArithmeticOperator: equivalent: a longer filler is sliced to the same string
  return 'not-the-receipt.'.repeat(Math.ceil(real.length / 16)).slice(0, real.length)
}

/** A receipt of the same length as the real one that is not it. */
function wrongReceipt(ctx: CheckContext, real: string): string {
  const wrong = fillerReceipt(real)
  if (wrong === real) ctx.skip('the configured receipt is the filler this check sends as a wrong receipt')
  return wrong
}

/** Every request of the refusal checks that the configured intents allow, each named for a failure message. */
function refusalProbes({
  intent,
  secondIntent,
}: RunSettings): { what: string; hash: string; receipt: string | undefined }[] {
  const { hash, receipt } = intent!
  const otherReceipt =
    secondIntent && secondIntent.hash.toLowerCase() !== hash.toLowerCase() && secondIntent.receipt !== receipt
      ? secondIntent.receipt
      : undefined
  return [
    ...MALFORMED_HASHES.map((malformed) => ({ what: malformed.what, hash: malformed.from(hash), receipt })),
    { what: 'the intent without a receipt', hash, receipt: undefined },
    { what: 'the intent with an empty receipt', hash, receipt: '' },
    {
      what: 'the intent with its receipt padded to 513 characters',
      hash,
      receipt: receipt.padEnd(RECEIPT_MAX_LENGTH + 1, 'x'),
    },
    ...(fillerReceipt(receipt) !== receipt
      ? [{ what: 'the intent with a wrong receipt', hash, receipt: fillerReceipt(receipt) }]
      : []),
    ...(otherReceipt !== undefined
      ? [{ what: "the first intent with the second intent's receipt", hash, receipt: otherReceipt }]
      : []),
  ]
}

const REFUSAL_NEEDS: readonly Need[] = ['apiKey', 'intent']

interface IntentProbe {
  /** Names the request in a failure message. */
  what: string
  /** The receipt to send with the configured intent's hash (undefined: none), or a skip. */
  build(settings: RunSettings, ctx: CheckContext): string | undefined
}

/**
 * A check that sends one request for the configured intent's status that must be refused (the engine fills in its
 * hash).
 */
function refusalCheck(
  check: Pick<Check, 'id' | 'requirement' | 'title' | 'recorded'> & { needs?: readonly Need[] },
  probe: IntentProbe,
): Check {
  return {
    needs: REFUSAL_NEEDS,
    ...check,
    async run(ctx) {
      const receipt = probe.build(ctx.settings, ctx)
      const exchange = await ctx.call('getIntentStatus', { query: { receipt }, shared: true })
      expectRefusal(ctx, exchange, probe.what)
    },
  }
}

/** Malformed renderings of the configured hash: each breaks ^0x[0-9a-fA-F]{64}$ in one way. */
const MALFORMED_HASHES: readonly { what: string; from(hash: string): string }[] = [
  { what: 'a hash one hex digit short', from: (hash) => hash.slice(0, -1) },
  { what: 'a hash one hex digit long', from: (hash) => `${hash}0` },
  { what: 'a hash with the prefix 0X', from: (hash) => `0X${hash.slice(2)}` },
  { what: 'a hash with a non-hex digit', from: (hash) => `0xg${hash.slice(3)}` },
  { what: 'a hash without the 0x prefix', from: (hash) => hash.slice(2) },
]

/**
 * A check that the given intent's own receipt reads that intent's status: 200 with a status. The contract never says
 * that the path's {hash} is the status's orderHash, so an orderHash that differs from it is no finding; but two
 * intents, each read with its own receipt, cannot both be answered with the status of one of them.
 */
function grantCheck(check: Pick<Check, 'id' | 'title'>, which: 'intent' | 'secondIntent'): Check {
  return {
    ...check,
    requirement: 'RCPT-VALID-GRANTS',
    needs: ['apiKey', which],
    async run(ctx) {
      const intent = ctx.settings[which]!
      const exchange = await readIntent(ctx, intent)
      if (exchange.response?.status !== 200)
        ctx.fail(`the intent's own receipt answered ${statusOf(exchange)}, expected 200`, { exchange })
      const orderHash = statusMember(exchange, 'orderHash')
      if (typeof orderHash !== 'string')
        return ctx.fail(
          `the status answered has ${orderHash === undefined ? 'no orderHash' : `orderHash ${JSON.stringify(orderHash)}, not a string`}`,
          { exchange },
        )
      if (orderHash.toLowerCase() === intent.hash.toLowerCase()) return
      const other = ctx.settings[which === 'intent' ? 'secondIntent' : 'intent']
      if (!other || other.hash.toLowerCase() === intent.hash.toLowerCase()) return
      const otherHash = statusMember(await readIntent(ctx, other), 'orderHash')
      if (typeof otherHash === 'string' && otherHash.toLowerCase() === orderHash.toLowerCase()) {
        ctx.fail(
          `the status answered has orderHash ${orderHash}, not the hash asked for, and the other intent given, read with its own receipt, answers the same orderHash: one of them was answered with a status not its own`,
          { exchange },
        )
      }
    },
  }
}

export const intentsChecks: readonly Check[] = [
  grantCheck(
    {
      id: 'intents/receipt-grants-status',
      title: "GET /v1/intents/{hash} with the intent's receipt answers that intent's status",
    },
    'intent',
  ),
  grantCheck(
    {
      id: 'intents/second-receipt-grants-status',
      title: "GET /v1/intents/{hash} with the second intent's receipt answers the second intent's status",
    },
    'secondIntent',
  ),
  {
    id: 'intents/malformed-hash-refused',
    requirement: 'EP-INTENT-HASH-FORMAT',
    title: 'GET /v1/intents/{hash} with a malformed hash answers no status (no 2xx)',
    needs: REFUSAL_NEEDS,
    async run(ctx) {
      const { hash, receipt } = ctx.settings.intent!
      const exchanges = await Promise.all(
        MALFORMED_HASHES.map((malformed) =>
          ctx.call('getIntentStatus', { params: { hash: malformed.from(hash) }, query: { receipt }, shared: true }),
        ),
      )
      MALFORMED_HASHES.forEach(({ what }, i) => expectRefusal(ctx, exchanges[i]!, what))
    },
  },
  refusalCheck(
    {
      id: 'intents/missing-receipt-refused',
      requirement: 'RCPT-MISSING-NO-ACCESS',
      title: 'GET /v1/intents/{hash} without a receipt grants no access',
      recorded: missingReceiptRefused,
    },
    {
      what: 'the intent without a receipt',
      build: () => undefined,
    },
  ),
  refusalCheck(
    {
      id: 'intents/empty-receipt-refused',
      requirement: 'RCPT-LENGTH-NO-ACCESS',
      title: 'GET /v1/intents/{hash} with an empty receipt grants no access',
    },
    {
      what: 'the intent with an empty receipt',
      build: () => '',
    },
  ),
  refusalCheck(
    {
      id: 'intents/oversized-receipt-refused',
      requirement: 'RCPT-LENGTH-NO-ACCESS',
      title: 'GET /v1/intents/{hash} with a 513-character receipt that starts with the real one grants no access',
    },
    {
      what: 'the intent with its receipt padded to 513 characters',
      // The receipts given are 1 to 512 characters (validateRunOptions), so padding always makes one too long.
      build: ({ intent }) => intent!.receipt.padEnd(RECEIPT_MAX_LENGTH + 1, 'x'),
    },
  ),
  refusalCheck(
    {
      id: 'intents/wrong-receipt-refused',
      requirement: 'RCPT-WRONG-NO-ACCESS',
      title: 'GET /v1/intents/{hash} with a wrong receipt of valid length grants no access',
    },
    {
      what: 'the intent with a wrong receipt',
      build: ({ intent }, ctx) => wrongReceipt(ctx, intent!.receipt),
    },
  ),
  refusalCheck(
    {
      id: 'intents/receipt-bound-to-intent',
      requirement: 'RCPT-BOUND-TO-INTENT',
      title: "GET /v1/intents/{hash} with the second intent's receipt on the first intent grants no access",
      needs: [...REFUSAL_NEEDS, 'secondIntent'],
    },
    {
      what: "the first intent with the second intent's receipt",
      build({ intent, secondIntent }, ctx) {
        if (intent!.hash.toLowerCase() === secondIntent!.hash.toLowerCase())
          ctx.skip('the two intents given have the same hash')
        if (intent!.receipt === secondIntent!.receipt) ctx.skip('the two intents given have the same receipt')
        return secondIntent!.receipt
      },
    },
  ),
  {
    id: 'intents/refusals-declared-4xx',
    requirement: 'RCPT-REFUSAL-4XX',
    title:
      "GET /v1/intents/{hash} refuses a malformed hash and a receipt that is missing, empty, too long, wrong or another intent's with a declared 4xx, not a 5xx",
    needs: REFUSAL_NEEDS,
    async run(ctx) {
      const probes = refusalProbes(ctx.settings)
      const exchanges = await Promise.all(
        probes.map(({ hash, receipt }) =>
          ctx.call('getIntentStatus', { params: { hash }, query: { receipt }, shared: true }),
        ),
      )
      // A grant of access is the finding of the MUST checks above; a 429 answers the quota, not the request.
      const refused = exchanges.flatMap((exchange, i) => {
        const status = exchange.response?.status
        // A final status is never below 200 (a 1xx is interim, never an exchange's response): a 2xx is below 300.
        return status === undefined || status === 429 || status < 300
          ? []
          : [{ exchange, status, what: probes[i]!.what }]
      })
      if (refused.length === 0)
        ctx.skip(
          'no request was refused: a grant of access is the finding of the intents/ refusal checks, and a 429 says nothing of the refusal',
        )
      for (const { exchange, status, what } of refused) {
        const problem = refusalStatusProblem(status, what)
        if (problem) ctx.fail(problem, { exchange })
      }
    },
  },
  {
    id: 'intents/failure-not-retryable',
    requirement: 'STATE-FAILURE-NOT-RETRYABLE',
    title: 'an intent status with failure has failure.retryable false',
    needs: ['apiKey', 'intent'],
    async run(ctx) {
      const given = [ctx.settings.intent, ctx.settings.secondIntent].filter(
        (intent): intent is IntentInput => intent !== undefined,
      )
      const exchanges = await Promise.all(given.map((intent) => readIntent(ctx, intent)))
      const failed = exchanges.filter((exchange) => statusMember(exchange, 'failure') !== undefined)
      if (failed.length === 0) ctx.skip('no intent given reports a failure')
      for (const exchange of failed) {
        const failure = statusMember(exchange, 'failure') as { retryable?: unknown } | null
        if (failure?.retryable !== false)
          ctx.fail(`failure.retryable is ${JSON.stringify(failure?.retryable)}, expected false`, { exchange })
      }
    },
  },
]
