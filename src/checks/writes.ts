import { setTimeout as delay } from 'node:timers/promises'
import { KEY_BOUNDS } from '../contract/idempotency.js'
import { valueAt } from '../core/json-pointer.js'
import { idempotencyKey, unsafeIdempotencyKey } from '../generators/idempotency-keys.js'
import { headerValues, type Exchange } from '../http/exchange.js'
import { mentionsSecret } from '../http/secrets.js'
import { fillStep, sendsReceipt, type EarlierAnswer } from '../profile/chained-step.js'
import { keyPatternOf, type WriteKind, type WriteOperation } from '../profile/profile.js'
import type { Check, CheckContext, WriteAnswer } from './types.js'
import { URL_HEADERS } from './realtime-messages.js'
import { statusOf } from './operation-calls.js'

type Operations = Readonly<Record<string, WriteOperation>>

/** Kinds whose intake returns a status identifier and a receipt (the contract names action and intent intake). */
const INTAKE_KINDS: readonly WriteKind[] = ['action', 'intent']

const names = (operations: Operations, keep: (op: WriteOperation) => boolean = () => true) =>
  Object.keys(operations).filter((name) => keep(operations[name]!))
const intakes = (op: WriteOperation) => INTAKE_KINDS.includes(op.kind) && op.receipt !== undefined
const withStatus = (op: WriteOperation) => intakes(op) && op.statusPath !== undefined
export const cancelling = (op: WriteOperation) => op.cancels !== undefined
const statesKeyReuse = (op: WriteOperation) => op.keyReuse !== undefined
const cancellingWithReceipt = (op: WriteOperation) => op.cancels !== undefined && sendsReceipt(op.cancels)

/** Every write operation of the profile (its schema lists at least one). */
const everyOperation = (ctx: CheckContext) => Object.keys(ctx.settings.profile!.values.writes!.operations)

/** The profile's write operations a check sends to, or a skip naming the profile keys that would give it some. */
export function operationsFor(ctx: CheckContext, keep: (op: WriteOperation) => boolean, keys: string): string[] {
  const chosen = names(ctx.settings.profile!.values.writes!.operations, keep)
  if (chosen.length === 0) ctx.skip(`no write operation of the profile states ${keys}`)
  return chosen
}

/**
 * Fails when a submission was accepted, or got no answer (one that never came refused nothing, and the submission may
 * have been taken), or was refused with a status not among those the profile states (`refused`, when stated).
 */
function expectRefusal(
  ctx: CheckContext,
  operation: string,
  answer: WriteAnswer,
  what: string,
  { why, refused }: { why: string; refused: number[] | undefined },
): void {
  if (!answer.exchange.response)
    ctx.fail(`${operation}: got ${statusOf(answer.exchange)} to a submission ${what}, not a refusal`, {
      exchange: answer.exchange,
    })
  if (answer.accepted)
    ctx.fail(`${operation}: a submission ${what} was accepted (${statusOf(answer.exchange)}): ${why}`, {
      exchange: answer.exchange,
    })
  if (refused && !refused.includes(answer.exchange.response!.status))
    ctx.fail(
      `${operation}: a submission ${what} was answered ${statusOf(answer.exchange)}, not one of the statuses the profile states for a refusal (${refused.join(', ')})`,
      { exchange: answer.exchange },
    )
}

/** Sends a fresh signed body with this key (null: none) and fails unless it is refused as the profile states. */
async function expectRefused(ctx: CheckContext, operation: string, key: string | null, what: string): Promise<void> {
  const answer = await ctx.write(operation, await ctx.signedBody(operation), key)
  expectRefusal(ctx, operation, answer, what, {
    why: 'the header is required, 8 to 128 safe characters',
    refused: ctx.settings.profile!.values.writes!.operations[operation]!.refused,
  })
}

/** Sends a fresh signed body with a fresh key of safe characters; fails unless it was accepted. */
async function acceptedSubmission(
  ctx: CheckContext,
  operation: string,
  keyLength = 32,
): Promise<WriteAnswer & { key: string; body: string }> {
  const body = await ctx.signedBody(operation)
  const key = idempotencyKey(keyLength, keyPatternOf(ctx.settings.profile!.values))
  const answer = await ctx.write(operation, body, key)
  if (!answer.accepted)
    ctx.fail(
      `${operation}: a signed submission with an Idempotency-Key of ${keyLength} letters and digits was not accepted (${statusOf(answer.exchange)})`,
      { exchange: answer.exchange },
    )
  return { ...answer, key, body }
}

/**
 * Sends an accepted submission, then another signed body with its key; fails unless the second is refused with a status
 * the profile states for a used key (keyReuse.refused).
 */
async function expectKeyReuseRefused(ctx: CheckContext, operation: string): Promise<void> {
  const first = await acceptedSubmission(ctx, operation)
  const another = await ctx.signedBody(operation)
  if (another === first.body)
    ctx.skip(
      `${operation}: the profile's signed bodies gave the same body twice (writes.operations.${operation}.bodies): the check needs another`,
    )
  const answer = await ctx.write(operation, another, first.key)
  expectRefusal(ctx, operation, answer, 'with the Idempotency-Key of an accepted submission and another signed body', {
    why: 'a key is kept with its signed body; taking another body under it makes a further order, or answers for the wrong body',
    refused: ctx.settings.profile!.values.writes!.operations[operation]!.keyReuse!.refused,
  })
}

/**
 * The identifier and receipt of an accepted intake, or a failure naming the profile key that points at the missing one.
 */
function intakeValues(ctx: CheckContext, operation: string, answer: WriteAnswer): { id: string; receipt: string } {
  const op = ctx.settings.profile!.values.writes!.operations[operation]!
  if (!answer.statusIdentifier)
    ctx.fail(
      `${operation}: the accepted intake has no status identifier at ${op.statusIdentifier} (writes.operations.${operation}.statusIdentifier)`,
      { exchange: answer.exchange },
    )
  if (!answer.receipt)
    ctx.fail(
      `${operation}: the accepted intake has no receipt capability at ${op.receipt} (writes.operations.${operation}.receipt)`,
      { exchange: answer.exchange },
    )
  return { id: answer.statusIdentifier!, receipt: answer.receipt! }
}

function statusPath(op: WriteOperation, id: string, receipt: string): string {
  return op.statusPath!.replace('{id}', encodeURIComponent(id)).replace('{receipt}', encodeURIComponent(receipt))
}

/**
 * A new submission of a cancellation's intake, accepted, with the values its chained cancellation takes and the
 * intake's exchange.
 */
async function submissionToCancel(
  ctx: CheckContext,
  cancellation: string,
): Promise<EarlierAnswer & { exchange: Exchange }> {
  const intake = ctx.settings.profile!.values.writes!.operations[cancellation]!.cancels!.operation
  const answer = await acceptedSubmission(ctx, intake)
  return { ...intakeValues(ctx, intake, answer), json: answer.exchange.response!.json, exchange: answer.exchange }
}

/**
 * Records a REST step of the lifecycle: the exchange's request and status, the state read at the pointer where the step
 * reads one, and the receipt it carried or was handed.
 */
function restStep(ctx: CheckContext, label: string, exchange: Exchange, receipt?: string, state?: string): void {
  const read = state === undefined || !exchange.response ? undefined : valueAt(exchange.response.json, state)
  ctx.lifecycleStep(
    {
      kind: 'rest',
      label,
      request: `${exchange.request.method} ${exchange.request.url}`,
      outcome: `${statusOf(exchange)}${read === undefined ? '' : `, state ${JSON.stringify(read)}`}`,
      at: exchange.startedAt ?? new Date().toISOString(),
    },
    receipt,
  )
}

/**
 * Sends the chained cancellation of a submission, given its values (its receipt as the check chooses), or fails naming
 * the profile key whose placeholder its intake's answer has no value for.
 */
async function cancel(ctx: CheckContext, cancellation: string, submission: EarlierAnswer): Promise<WriteAnswer> {
  const op = ctx.settings.profile!.values.writes!.operations[cancellation]!
  const filled = fillStep(op.cancels!, op.path, submission)
  if ('missing' in filled)
    ctx.fail(
      `${cancellation}: the accepted ${op.cancels!.operation} intake has no value for {${filled.missing}} (writes.operations.${cancellation}.cancels.${filled.where})`,
    )
  const body = await ctx.cancellationBody(cancellation, filled.fill)
  const step = { path: filled.path, headers: filled.headers, accepted: op.cancels!.accepted }
  return ctx.write(cancellation, body, idempotencyKey(32, keyPatternOf(ctx.settings.profile!.values)), step)
}

/**
 * The start of a lifecycle, its steps recorded: a new submission of a cancellation's intake, accepted, and its status
 * read with its receipt.
 */
export async function newSubmissionWithStatus(
  ctx: CheckContext,
  cancellation: string,
): Promise<EarlierAnswer & { exchange: Exchange }> {
  const intake = ctx.settings.profile!.values.writes!.operations[cancellation]!.cancels!.operation
  const submission = await submissionToCancel(ctx, cancellation)
  restStep(ctx, `${intake} intake`, submission.exchange, submission.receipt)
  await grantedStatus(ctx, cancellation, submission, 'a new', 'status read with its receipt')
  return submission
}

/** The chained cancellation of a submission, a step of its lifecycle, or a failure when it is not accepted. */
export async function acceptedCancellation(
  ctx: CheckContext,
  cancellation: string,
  submission: EarlierAnswer,
): Promise<void> {
  const chained = ctx.settings.profile!.values.writes!.operations[cancellation]!.cancels!
  const answer = await cancel(ctx, cancellation, submission)
  const withReceipt = sendsReceipt(chained)
  restStep(
    ctx,
    `${cancellation}${withReceipt ? ' with its receipt' : ''}`,
    answer.exchange,
    withReceipt ? submission.receipt : undefined,
  )
  if (!answer.accepted)
    ctx.fail(
      `${cancellation}: the cancellation of a new ${chained.operation} submission was not accepted (${statusOf(answer.exchange)})`,
      { exchange: answer.exchange },
    )
}

/**
 * The status of a submission read with its receipt, a step of the lifecycle (its label given), or a failure when it is
 * not granted.
 */
async function grantedStatus(
  ctx: CheckContext,
  cancellation: string,
  submission: EarlierAnswer,
  which: string,
  label: string,
): Promise<Exchange> {
  const { operation: intake, state } = ctx.settings.profile!.values.writes!.operations[cancellation]!.cancels!
  const op = ctx.settings.profile!.values.writes!.operations[intake]!
  const exchange = await ctx.get(statusPath(op, submission.id, submission.receipt))
  restStep(ctx, label, exchange, submission.receipt, state)
  if (!exchange.response || exchange.response.status >= 300)
    ctx.fail(`${cancellation}: the status of ${which} ${intake} submission is not granted (${statusOf(exchange)})`, {
      exchange,
    })
  return exchange
}

/**
 * A receipt of the same length that is not the one given and shares none of it: a receipt derived from the real one
 * would show most of a secret in the report.
 */
export const wrongReceipt = (receipt: string) => (receipt.startsWith('x') ? '0' : 'x').repeat(receipt.length)

/** How long a cancelled lifecycle may take to report its terminal state: the relayer executes after the intake. */
const TERMINAL_POLLS = 5
const TERMINAL_POLL_MS = 1000

/**
 * Reads the status of a cancelled submission with its receipt until it reports one of the profile's terminal states,
 * or fails after TERMINAL_POLLS reads.
 */
export async function expectTerminalStatus(
  ctx: CheckContext,
  cancellation: string,
  submission: EarlierAnswer,
): Promise<void> {
  const {
    operation: intake,
    state,
    terminalStates,
  } = ctx.settings.profile!.values.writes!.operations[cancellation]!.cancels!
  let last: { exchange: Exchange; state: unknown } | undefined
  for (let poll = 0; poll < TERMINAL_POLLS && !terminalStates.includes(last?.state as string); poll++) {
    if (poll > 0) await delay(TERMINAL_POLL_MS)
    const exchange = await grantedStatus(
      ctx,
      cancellation,
      submission,
      'the cancelled',
      'status after the cancellation',
    )
    last = { exchange, state: valueAt(exchange.response!.json, state) }
  }
  if (!terminalStates.includes(last!.state as string)) {
    ctx.fail(
      `${cancellation}: ${TERMINAL_POLLS} s after its cancellation was accepted, the ${intake} submission reports state ${JSON.stringify(last!.state ?? null)} at ${state}, not one of the profile's terminal states (${terminalStates.join(', ')})`,
      { exchange: last!.exchange },
    )
  }
}

export const writesChecks: readonly Check[] = [
  {
    id: 'writes/missing-key-refused',
    requirement: 'IDEM-KEY-REQUIRED',
    title: 'a write without Idempotency-Key is not accepted',
    needs: ['apiKey'],
    profile: 'writes',
    writes: (operations) => names(operations).length,
    async run(ctx) {
      for (const operation of everyOperation(ctx)) await expectRefused(ctx, operation, null, 'without Idempotency-Key')
    },
  },
  {
    id: 'writes/key-length-outside-bounds-refused',
    requirement: 'IDEM-KEY-REQUIRED',
    title: `a write whose Idempotency-Key has ${KEY_BOUNDS.min - 1} or ${KEY_BOUNDS.max + 1} characters is not accepted`,
    needs: ['apiKey'],
    profile: 'writes',
    writes: (operations) => 2 * names(operations).length,
    async run(ctx) {
      for (const operation of everyOperation(ctx)) {
        for (const length of [KEY_BOUNDS.min - 1, KEY_BOUNDS.max + 1])
          await expectRefused(ctx, operation, idempotencyKey(length), `with an Idempotency-Key of ${length} characters`)
      }
    },
  },
  {
    id: 'writes/key-length-within-bounds-accepted',
    requirement: 'IDEM-KEY-REQUIRED',
    title: `a signed write whose Idempotency-Key has ${KEY_BOUNDS.min} or ${KEY_BOUNDS.max} letters, digits and hyphens is accepted`,
    needs: ['apiKey'],
    profile: 'writes',
    writes: (operations) => 2 * names(operations).length,
    async run(ctx) {
      for (const operation of everyOperation(ctx)) {
        for (const length of [KEY_BOUNDS.min, KEY_BOUNDS.max]) await acceptedSubmission(ctx, operation, length)
      }
    },
  },
  {
    id: 'writes/unsafe-key-refused',
    requirement: 'IDEM-KEY-REQUIRED',
    title:
      "a write whose Idempotency-Key holds a space, quotes, angle brackets or braces (or a character the profile's keyPattern refuses) is not accepted",
    needs: ['apiKey'],
    profile: 'writes',
    writes: (operations) => names(operations).length,
    async run(ctx) {
      for (const operation of everyOperation(ctx)) {
        const { key, holds } = unsafeIdempotencyKey(keyPatternOf(ctx.settings.profile!.values))
        await expectRefused(ctx, operation, key, `with an Idempotency-Key holding ${holds}`)
      }
    },
  },
  {
    id: 'writes/replay-creates-no-second-order',
    requirement: 'IDEM-DUPLICATE',
    title:
      'the same signed body sent again with the same Idempotency-Key creates no further order (the same status identifier, or duplicate: true)',
    needs: ['apiKey'],
    profile: 'writes',
    writes: (operations) => 2 * names(operations).length,
    async run(ctx) {
      for (const operation of everyOperation(ctx)) {
        const first = await acceptedSubmission(ctx, operation)
        if (!first.statusIdentifier)
          ctx.fail(
            `${operation}: the accepted submission has no status identifier (writes.operations.${operation}.statusIdentifier)`,
            { exchange: first.exchange },
          )
        const again = await ctx.write(operation, first.body, first.key)
        // Not accepted: no further order either; which answer a replay gets is not shown.
        if (!again.accepted) continue
        const sameOrder =
          again.statusIdentifier === undefined
            ? again.duplicate === true
            : again.statusIdentifier === first.statusIdentifier
        if (!sameOrder) {
          const said = again.duplicate === true ? 'reports duplicate: true but names' : 'names'
          ctx.fail(
            `${operation}: the same body and key sent again were accepted as a further order: the answer ${said} status identifier ${JSON.stringify(again.statusIdentifier ?? null)}, not ${JSON.stringify(first.statusIdentifier)}`,
            { exchange: again.exchange },
          )
        }
      }
    },
  },
  {
    id: 'writes/key-reuse-with-another-body-refused',
    requirement: 'IDEM-KEY-REUSE-REFUSED',
    title:
      'another signed body sent with the Idempotency-Key of an accepted submission is not accepted, and is refused with a status the profile states (keyReuse.refused)',
    needs: ['apiKey'],
    profile: 'writes',
    writes: (operations) => 2 * names(operations, statesKeyReuse).length,
    async run(ctx) {
      for (const operation of operationsFor(
        ctx,
        statesKeyReuse,
        'how it refuses a used key with another body (writes.operations.*.keyReuse)',
      ))
        await expectKeyReuseRefused(ctx, operation)
    },
  },
  {
    id: 'writes/intake-returns-identifier-and-receipt',
    requirement: 'IDEM-INTAKE-RECEIPT',
    title: 'an accepted action or intent intake returns a status identifier and a receipt capability',
    needs: ['apiKey'],
    profile: 'writes',
    writes: (operations) => names(operations, intakes).length,
    async run(ctx) {
      for (const operation of operationsFor(
        ctx,
        intakes,
        'an action or intent intake with its receipt (writes.operations.*.receipt)',
      ))
        intakeValues(ctx, operation, await acceptedSubmission(ctx, operation))
    },
  },
  {
    id: 'writes/receipt-grants-only-its-own-status',
    requirement: 'IDEM-INTAKE-RECEIPT',
    title: "the receipt an intake returns, sent unchanged, grants its own submission's status and not another's",
    needs: ['apiKey'],
    profile: 'writes',
    writes: (operations) => 2 * names(operations, withStatus).length,
    async run(ctx) {
      for (const operation of operationsFor(
        ctx,
        withStatus,
        'an intake with its receipt and status operation (writes.operations.*.receipt and statusPath)',
      )) {
        const op = ctx.settings.profile!.values.writes!.operations[operation]!
        const own = intakeValues(ctx, operation, await acceptedSubmission(ctx, operation))
        const other = intakeValues(ctx, operation, await acceptedSubmission(ctx, operation))
        const granted = await ctx.get(statusPath(op, own.id, own.receipt))
        // A final status is never below 200 (1xx answers are interim, never an exchange's response): 2xx is below 300.
        if (!granted.response || granted.response.status >= 300)
          ctx.fail(
            `${operation}: the status of a new submission, asked with its own receipt, is not granted (${statusOf(granted)})`,
            { exchange: granted },
          )
        const crossed = await ctx.get(statusPath(op, own.id, other.receipt))
        if (crossed.response && crossed.response.status < 300)
          ctx.fail(
            `${operation}: the status of a new submission is granted (${crossed.response.status}) with the receipt of another submission`,
            { exchange: crossed },
          )
      }
    },
  },
  {
    id: 'writes/receipt-not-in-response-url',
    requirement: 'RCPT-NOT-IN-RESPONSE-URL',
    title: 'no Location, Content-Location or Link of an intake answer carries the receipt it returns',
    needs: ['apiKey'],
    profile: 'writes',
    writes: (operations) => names(operations, intakes).length,
    async run(ctx) {
      for (const operation of operationsFor(
        ctx,
        intakes,
        'an action or intent intake with its receipt (writes.operations.*.receipt)',
      )) {
        const answer = await acceptedSubmission(ctx, operation)
        const { receipt } = intakeValues(ctx, operation, answer)
        const exposing = URL_HEADERS.find((name) =>
          headerValues(answer.exchange.response!, name).some((url) => mentionsSecret(url, receipt)),
        )
        if (exposing)
          ctx.fail(
            `${operation}: the intake answer's ${exposing} header carries the receipt it returns: a URL handed out is kept by proxies, caches and histories`,
            { exchange: answer.exchange },
          )
      }
    },
  },
  {
    id: 'writes/cancellation-ends-lifecycle',
    requirement: 'STATE-CANCELLATION-TERMINAL',
    title:
      "a new submission, its status read with its receipt, then cancelled by the profile's chained cancellation, ends its lifecycle: its status reports one of the profile's terminal states",
    needs: ['apiKey'],
    profile: 'writes',
    writes: (operations) => 2 * names(operations, cancelling).length,
    async run(ctx) {
      for (const operation of operationsFor(
        ctx,
        cancelling,
        'a cancellation with what it cancels (writes.operations.*.cancels)',
      )) {
        const submission = await newSubmissionWithStatus(ctx, operation)
        await acceptedCancellation(ctx, operation, submission)
        await expectTerminalStatus(ctx, operation, submission)
      }
    },
  },
  {
    id: 'writes/cancellation-needs-its-receipt',
    requirement: 'RCPT-CANCELLATION-CREDENTIAL',
    title:
      "a chained cancellation that the profile says carries the receipt is not accepted without it, with a wrong one or with another submission's, and is refused with a status the profile states",
    needs: ['apiKey'],
    profile: 'writes',
    writes: (operations) => 5 * names(operations, cancellingWithReceipt).length,
    async run(ctx) {
      for (const operation of operationsFor(
        ctx,
        cancellingWithReceipt,
        'a cancellation whose chained step sends {receipt} (writes.operations.*.cancels)',
      )) {
        const op = ctx.settings.profile!.values.writes!.operations[operation]!
        const { operation: intake, refused = op.refused } = op.cancels!
        const own = await submissionToCancel(ctx, operation)
        const other = await submissionToCancel(ctx, operation)
        for (const [receipt, what] of [
          ['', 'without its receipt'],
          [wrongReceipt(own.receipt), 'with a receipt of its length that is not its own'],
          [other.receipt, "with another submission's receipt"],
        ] as const) {
          const answer = await cancel(ctx, operation, { ...own, receipt })
          if (!answer.exchange.response)
            ctx.fail(
              `${operation}: got ${statusOf(answer.exchange)} to the cancellation of a new ${intake} submission ${what}, not a refusal`,
              { exchange: answer.exchange },
            )
          if (answer.accepted)
            ctx.fail(
              `${operation}: the cancellation of a new ${intake} submission ${what} was accepted (${statusOf(answer.exchange)}): the receipt is a per-lifecycle credential`,
              { exchange: answer.exchange },
            )
          if (refused && !refused.includes(answer.exchange.response!.status))
            ctx.fail(
              `${operation}: the cancellation of a new ${intake} submission ${what} was answered ${statusOf(answer.exchange)}, not one of the statuses the profile states for a refusal (${refused.join(', ')})`,
              { exchange: answer.exchange },
            )
        }
      }
    },
  },
]
