import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { CheckId } from '../../src/contract/catalogue-ids.js'
import { checksByConcern } from '../../src/checks/index.js'
import { wrongReceipt } from '../../src/checks/writes.js'
import type { CheckOutcome } from '../../src/core/report.js'
import { specPath } from '../../src/core/package-root.js'
import { readProfileFile } from '../../src/profile/load.js'
import type { ProfileValues, WriteOperation } from '../../src/profile/profile.js'
import type { IntentRecord } from '../../src/reference/data.js'
import { bodyOf, isOperation } from '../../src/reference/response-edits.js'
import { signedBody } from '../../src/reference/signer.js'
import type { Behaviour, RefRequest, RefResponse } from '../../src/reference/types.js'
import { findWriteRoute } from '../../src/reference/writes.js'
import { failureSummary, runAgainstReference } from '../support/run.js'
import { answering, unreadable } from '../support/scripted-answers.js'

/**
 * The write checks (src/checks/writes.ts) run alone against the embedded reference with --allow-writes, under the
 * reference's own profile or values of the test's own, and answers scripted by the test: the branches no named fault
 * of the reference reaches (npm run mutation judges the checks by these and by test/checks/each-check.test.ts).
 */

const REFERENCE_VALUES = readProfileFile(specPath('reference-profile.yaml'))
const OPERATIONS = REFERENCE_VALUES.writes!.operations

/** The reference's profile with its write operations edited. */
function withOperations(operations: Record<string, WriteOperation>): ProfileValues {
  return { ...REFERENCE_VALUES, writes: { ...REFERENCE_VALUES.writes!, operations } }
}

async function outcomeOf(
  id: CheckId,
  behaviours: readonly Behaviour[] = [],
  values: ProfileValues = REFERENCE_VALUES,
): Promise<CheckOutcome> {
  const report = await runAgainstReference(
    { behaviours },
    { allowWrites: true },
    { only: [id], profile: { values, baseDir: specPath('.'), source: 'test profile' } },
  )
  const outcome = report.checks.find((c) => c.id === id)
  if (!outcome) throw new Error(`${id} is not in the report: ${failureSummary(report)}`)
  expect(outcome.crashed, `${id} crashed: ${outcome.reason}`).toBeFalsy()
  return outcome
}

/** The verdict, without what each write is answered afresh (a hash, a status identifier). */
const verdict = (outcome: CheckOutcome) =>
  `${outcome.status}${outcome.reason === undefined ? '' : `: ${outcome.reason}`}`
    .replace(/\b0x[0-9a-f]{64}\b/g, '0x<written>')
    .replace(/\b([a-z]+)_[0-9a-f]{24,40}\b/g, '$1_<written>')

/** The exchange a failure shows as its evidence: its method, path and status. */
const shown = (outcome: CheckOutcome) =>
  outcome.evidence?.request &&
  `${outcome.evidence.request.method} ${new URL(outcome.evidence.request.url).pathname} ${outcome.evidence.response?.status ?? 'no response'}`

/** Edits the answer to an accepted write of this kind (2xx), the data of its body. */
function acceptedWrite(
  name: string,
  kind: 'intent' | 'cancellation',
  edit: (data: Record<string, unknown>, response: RefResponse, request: RefRequest) => void,
): Behaviour {
  return {
    name,
    description: `accepted ${kind} writes are answered otherwise`,
    onResponse(response, request) {
      if (findWriteRoute(request)?.kind !== kind || response.status >= 300) return
      const data = bodyOf(response)?.data as Record<string, unknown> | undefined
      if (data) edit(data, response, request)
    },
  }
}

/** Refuses every write of this kind with this status. */
function writesRefused(kind: 'intent' | 'cancellation', status: number): Behaviour {
  return {
    name: `${kind}-refused`,
    description: `${kind} writes are refused`,
    onResponse(response, request) {
      if (findWriteRoute(request)?.kind !== kind) return
      Object.assign(response, {
        status,
        body: { error: 'refused', code: 'internal', requestId: response.headers['x-request-id'] },
      })
    },
  }
}

/**
 * Answers the status of an intent accepted by the intake with this status, when the request and the intent pass the
 * test.
 */
function writtenStatusWhere(status: number, when: (request: RefRequest, intent: IntentRecord) => boolean): Behaviour {
  return {
    name: `written-status-${status}`,
    description: `the status of a written intent is answered ${status}`,
    onResponse(response, request, data) {
      if (!isOperation(request, 'getIntentStatus')) return
      const hash = request.route!.params.hash!.toLowerCase()
      const intent = data.intents.find((i) => i.written && i.hash === hash)
      if (intent && when(request, intent))
        Object.assign(response, { status, body: { error: 'not granted', code: 'receipt_mismatch' } })
    },
  }
}

const writtenStatus = (status: number) => writtenStatusWhere(status, () => true)

describe('operations of the profile', () => {
  test('a check is skipped, naming the keys, when no write operation of the profile states what it needs', async () => {
    const { statusPath: _statusPath, ...withoutStatus } = OPERATIONS.submitIntent!
    const { cancels: _cancels, ...withoutCancels } = OPERATIONS.cancelIntent!
    const values = withOperations({
      submitIntent: withoutStatus as WriteOperation,
      cancelIntent: withoutCancels as WriteOperation,
    })
    expect(verdict(await outcomeOf('writes/receipt-grants-only-its-own-status', [], values))).toBe(
      'skipped: no write operation of the profile states an intake with its receipt and status operation (writes.operations.*.receipt and statusPath)',
    )
    expect(verdict(await outcomeOf('writes/cancellation-ends-lifecycle', [], values))).toBe(
      'skipped: no write operation of the profile states a cancellation with what it cancels (writes.operations.*.cancels)',
    )
    // A cancellation is no intake, though it has a status identifier.
    const { receipt: _receipt, ...withoutReceipt } = OPERATIONS.submitIntent!
    expect(
      verdict(
        await outcomeOf(
          'writes/receipt-not-in-response-url',
          [],
          withOperations({
            submitIntent: withoutReceipt as WriteOperation,
            cancelIntent: { ...OPERATIONS.cancelIntent!, receipt: '/data/id' },
          }),
        ),
      ),
    ).toBe(
      'skipped: no write operation of the profile states an action or intent intake with its receipt (writes.operations.*.receipt)',
    )
  })
})

describe('accepted submissions', () => {
  test('a signed write with a key of safe characters must be accepted', async () => {
    expect(verdict(await outcomeOf('writes/key-length-within-bounds-accepted', [writesRefused('intent', 400)]))).toBe(
      'failed: submitIntent: a signed submission with an Idempotency-Key of 8 letters and digits was not accepted (400)',
    )
    expect(
      verdict(await outcomeOf('writes/intake-returns-identifier-and-receipt', [writesRefused('intent', 503)])),
    ).toBe(
      'failed: submitIntent: a signed submission with an Idempotency-Key of 32 letters and digits was not accepted (503)',
    )
  })

  test('an intake without its status identifier fails, naming the profile key', async () => {
    const noHash = acceptedWrite('no-hash', 'intent', (data) => delete data.hash)
    const intake = await outcomeOf('writes/intake-returns-identifier-and-receipt', [noHash])
    expect(verdict(intake)).toBe(
      'failed: submitIntent: the accepted intake has no status identifier at /data/hash (writes.operations.submitIntent.statusIdentifier)',
    )
    expect(shown(intake)).toBe('POST /v1/intents 202')
    const replay = await outcomeOf('writes/replay-creates-no-second-order', [noHash])
    expect(verdict(replay)).toBe(
      'failed: submitIntent: the accepted submission has no status identifier (writes.operations.submitIntent.statusIdentifier)',
    )
    expect(shown(replay)).toBe('POST /v1/intents 202')
  })
})

describe('writes/replay-creates-no-second-order', () => {
  const id = 'writes/replay-creates-no-second-order'
  const replay = (name: string, edit: (data: Record<string, unknown>) => void) =>
    acceptedWrite(name, 'intent', (data) => data.duplicate === true && edit(data))

  test('a replay naming another identifier is a further order, whatever duplicate says', async () => {
    expect(
      verdict(
        await outcomeOf(id, [
          replay('other-hash', (data) => {
            data.hash = `0x${'ab'.repeat(32)}`
          }),
        ]),
      ),
    ).toBe(
      'failed: submitIntent: the same body and key sent again were accepted as a further order: the answer reports duplicate: true but names status identifier "0x<written>", not "0x<written>"',
    )
    expect(
      verdict(
        await outcomeOf(id, [
          replay('other-hash-new', (data) => {
            data.hash = `0x${'ab'.repeat(32)}`
            data.duplicate = false
          }),
        ]),
      ),
    ).toBe(
      'failed: submitIntent: the same body and key sent again were accepted as a further order: the answer names status identifier "0x<written>", not "0x<written>"',
    )
  })

  test('a replay with no identifier is the same order only when it reports duplicate: true', async () => {
    expect(verdict(await outcomeOf(id, [replay('duplicate-only', (data) => delete data.hash)]))).toBe('passed')
    expect(
      verdict(
        await outcomeOf(id, [
          replay('nothing', (data) => {
            delete data.hash
            data.duplicate = 'yes'
          }),
        ]),
      ),
    ).toBe(
      'failed: submitIntent: the same body and key sent again were accepted as a further order: the answer names status identifier null, not "0x<written>"',
    )
  })
})

describe('writes/receipt-grants-only-its-own-status', () => {
  const id = 'writes/receipt-grants-only-its-own-status'

  test('the status asked with its own receipt must be granted (2xx)', async () => {
    const notGranted = await outcomeOf(id, [writtenStatus(404)])
    expect(verdict(notGranted)).toBe(
      'failed: submitIntent: the status of a new submission, asked with its own receipt, is not granted (404)',
    )
    expect(shown(notGranted)).toMatch(/^GET \/v1\/intents\/0x[0-9a-f]{64} 404$/)
    expect(verdict(await outcomeOf(id, [writtenStatus(300)]))).toBe(
      'failed: submitIntent: the status of a new submission, asked with its own receipt, is not granted (300)',
    )
  })
})

describe('writes/receipt-not-in-response-url', () => {
  const id = 'writes/receipt-not-in-response-url'
  const header = (name: string, value: (data: Record<string, unknown>) => string) =>
    acceptedWrite(`receipt-in-${name}`, 'intent', (data, response) => {
      response.headers[name] = value(data)
    })

  test('a Content-Location or Link carrying the receipt fails; one without it passes', async () => {
    expect(
      verdict(
        await outcomeOf(id, [header('content-location', (data) => `/v1/intents/${data.hash}?receipt=${data.receipt}`)]),
      ),
    ).toBe(
      "failed: submitIntent: the intake answer's content-location header carries the receipt it returns: a URL handed out is kept by proxies, caches and histories",
    )
    expect(
      verdict(
        await outcomeOf(id, [
          header('link', (data) => `</v1/intents/${data.hash}?receipt=${data.receipt}>; rel="status"`),
        ]),
      ),
    ).toBe(
      "failed: submitIntent: the intake answer's link header carries the receipt it returns: a URL handed out is kept by proxies, caches and histories",
    )
    expect(verdict(await outcomeOf(id, [header('link', (data) => `</v1/intents/${data.hash}>; rel="status"`)]))).toBe(
      'passed',
    )
  })
})

describe('writes/cancellation-ends-lifecycle', () => {
  const id = 'writes/cancellation-ends-lifecycle'

  test('the cancellation must be accepted, and the status of what it cancels granted', async () => {
    const refused = await outcomeOf(id, [writesRefused('cancellation', 409)])
    expect(verdict(refused)).toBe(
      'failed: cancelIntent: the cancellation of a new submitIntent submission was not accepted (409)',
    )
    expect(shown(refused)).toMatch(/^POST \/v1\/intents\/0x[0-9a-f]{64}\/cancellation 409$/)
    const notGranted = await outcomeOf(id, [writtenStatus(403)])
    expect(verdict(notGranted)).toBe(
      'failed: cancelIntent: the status of a new submitIntent submission is not granted (403)',
    )
    expect(shown(notGranted)).toMatch(/^GET \/v1\/intents\/0x[0-9a-f]{64} 403$/)
    expect(verdict(await outcomeOf(id, [writtenStatus(300)]))).toBe(
      'failed: cancelIntent: the status of a new submitIntent submission is not granted (300)',
    )
    const cancelledNotGranted = writtenStatusWhere(403, (_, intent) => intent.status.state === 'cancelled')
    expect(verdict(await outcomeOf(id, [cancelledNotGranted]))).toBe(
      'failed: cancelIntent: the status of the cancelled submitIntent submission is not granted (403)',
    )
  })

  test("a cancellation is accepted only by a status of the profile's accepted, where it states them", async () => {
    const acceptedAs = (accepted: number[]) =>
      withOperations({
        ...OPERATIONS,
        cancelIntent: { ...OPERATIONS.cancelIntent!, cancels: { ...OPERATIONS.cancelIntent!.cancels!, accepted } },
      })
    expect(verdict(await outcomeOf(id, [], acceptedAs([200])))).toBe(
      'failed: cancelIntent: the cancellation of a new submitIntent submission was not accepted (202)',
    )
    expect(verdict(await outcomeOf(id, [], acceptedAs([200, 202])))).toBe('passed')
  })

  test('a placeholder the intake answer has no value for fails, naming the profile key', async () => {
    const values = withOperations({
      ...OPERATIONS,
      cancelIntent: {
        ...OPERATIONS.cancelIntent!,
        cancels: {
          ...OPERATIONS.cancelIntent!.cancels!,
          headers: { 'X-Receipt': '{receipt}', 'X-Order': '{/data/order}' },
        },
      },
    })
    expect(verdict(await outcomeOf(id, [], values))).toBe(
      'failed: cancelIntent: the accepted submitIntent intake has no value for {/data/order} (writes.operations.cancelIntent.cancels.headers.X-Order)',
    )
  })

  test('a lifecycle that ends after the first poll is waited for', async () => {
    let polls = 0
    const lateEnd: Behaviour = {
      name: 'late-end',
      description: 'the first status after a cancellation is still pending',
      onResponse(response, request) {
        if (!isOperation(request, 'getIntentStatus') || response.status !== 200) return
        const body = bodyOf(response)
        // A copy: the body is the reference's stored status.
        if (body?.state === 'cancelled' && polls++ === 0) response.body = { ...body, state: 'pending' }
      },
    }
    expect(verdict(await outcomeOf(id, [lateEnd]))).toBe('passed')
    expect(polls).toBe(2)
  })

  test('the cancellation step names the receipt only where the chained step sends it', async () => {
    const stepsOf = (outcome: CheckOutcome) =>
      outcome.lifecycle?.map(({ label, receipt }) => [label, receipt !== undefined])
    expect(stepsOf(await outcomeOf(id))).toEqual([
      ['submitIntent intake', true],
      ['status read with its receipt', true],
      ['cancelIntent with its receipt', true],
      ['status after the cancellation', true],
    ])
    const { headers: _headers, ...withoutReceipt } = OPERATIONS.cancelIntent!.cancels!
    const values = withOperations({
      ...OPERATIONS,
      cancelIntent: { ...OPERATIONS.cancelIntent!, cancels: withoutReceipt },
    })
    // The reference refuses a cancellation without its receipt (400, receipt_required): the lifecycle ends there.
    const unsent = await outcomeOf(id, [], values)
    expect(verdict(unsent)).toBe(
      'failed: cancelIntent: the cancellation of a new submitIntent submission was not accepted (400)',
    )
    expect(stepsOf(unsent)).toEqual([
      ['submitIntent intake', true],
      ['status read with its receipt', true],
      ['cancelIntent', false],
    ])
  })
})

describe("the statuses an operation's profile states", () => {
  const withStatuses = (name: string, statuses: Pick<WriteOperation, 'accepted' | 'refused'>) =>
    withOperations({ ...OPERATIONS, [name]: { ...OPERATIONS[name]!, ...statuses } })

  test('a refusal must get one of its refused statuses, where it states them', async () => {
    expect(
      verdict(await outcomeOf('writes/missing-key-refused', [], withStatuses('submitIntent', { refused: [422] }))),
    ).toBe(
      'failed: submitIntent: a submission without Idempotency-Key was answered 400, not one of the statuses the profile states for a refusal (422)',
    )
    expect(
      verdict(await outcomeOf('writes/missing-key-refused', [], withStatuses('submitIntent', { refused: [400, 422] }))),
    ).toBe('passed')
  })

  test('an answer is accepted only with one of its accepted statuses, where it states them', async () => {
    expect(
      verdict(
        await outcomeOf(
          'writes/intake-returns-identifier-and-receipt',
          [],
          withStatuses('submitIntent', { accepted: [200] }),
        ),
      ),
    ).toBe(
      'failed: submitIntent: a signed submission with an Idempotency-Key of 32 letters and digits was not accepted (202)',
    )
  })

  test("a chained cancellation that states none takes the operation's", async () => {
    const { refused: _refused, ...unstated } = OPERATIONS.cancelIntent!.cancels!
    const values = withOperations({
      ...OPERATIONS,
      cancelIntent: { ...OPERATIONS.cancelIntent!, refused: [409], cancels: unstated },
    })
    expect(verdict(await outcomeOf('writes/cancellation-needs-its-receipt', [], values))).toBe(
      'failed: cancelIntent: the cancellation of a new submitIntent submission without its receipt was answered 400, not one of the statuses the profile states for a refusal (409)',
    )
    const accepting = withOperations({
      ...OPERATIONS,
      cancelIntent: { ...OPERATIONS.cancelIntent!, accepted: [200] },
    })
    expect(verdict(await outcomeOf('writes/cancellation-ends-lifecycle', [], accepting))).toBe(
      'failed: cancelIntent: the cancellation of a new submitIntent submission was not accepted (202)',
    )
  })
})

describe('writes/cancellation-needs-its-receipt', () => {
  const id = 'writes/cancellation-needs-its-receipt'

  test("sends the cancellation without the receipt header, with a wrong one of its length, and with the other submission's", async () => {
    const seen: { path: string; receipt: string | undefined }[] = []
    const intakes: string[] = []
    const record = (request: RefRequest) => {
      if (request.method === 'POST' && request.path.endsWith('/cancellation'))
        seen.push({ path: request.path, receipt: request.headers['x-receipt'] })
    }
    const intakeReceipts = acceptedWrite('intake-receipts', 'intent', (data) => intakes.push(data.receipt as string))
    const report = await runAgainstReference(
      { record, behaviours: [intakeReceipts] },
      { allowWrites: true },
      { only: [id], profile: { values: REFERENCE_VALUES, baseDir: specPath('.'), source: 'test profile' } },
    )
    expect(report.checks.find((c) => c.id === id)!.status, failureSummary(report)).toBe('passed')
    const [own, other] = intakes
    expect(seen.map((s) => s.receipt)).toEqual([undefined, 'x'.repeat(own!.length), other])
    expect(new Set(seen.map((s) => s.path)).size).toBe(1)
    expect(seen[0]!.path).toMatch(/^\/v1\/intents\/0x[0-9a-f]{64}\/cancellation$/)
  })

  test("a refusal's status is held to the profile's refused only where it states them", async () => {
    const conflict: Behaviour = {
      name: 'receipt-conflict',
      description: 'a wrong receipt is refused with 409',
      onResponse(response) {
        if (bodyOf(response)?.code === 'receipt_mismatch') response.status = 409
      },
    }
    expect(verdict(await outcomeOf(id, [conflict]))).toBe(
      'failed: cancelIntent: the cancellation of a new submitIntent submission with a receipt of its length that is not its own was answered 409, not one of the statuses the profile states for a refusal (400, 403, 404)',
    )
    const { refused: _refused, ...unstated } = OPERATIONS.cancelIntent!.cancels!
    const values = withOperations({ ...OPERATIONS, cancelIntent: { ...OPERATIONS.cancelIntent!, cancels: unstated } })
    expect(verdict(await outcomeOf(id, [conflict], values))).toBe('passed')
  })

  test('fails on a cancellation that gets no response, showing it', async () => {
    const unanswered = answering(
      'cancellation-without-receipt-unreadable',
      (request) => request.path.endsWith('/cancellation') && request.headers['x-receipt'] === undefined,
      unreadable,
    )
    const outcome = await outcomeOf(id, [unanswered])
    expect(verdict(outcome)).toBe(
      'failed: cancelIntent: got no response (the response body did not match its content-length) to the cancellation of a new submitIntent submission without its receipt, not a refusal',
    )
    expect(shown(outcome)).toMatch(/^POST \/v1\/intents\/0x[0-9a-f]{64}\/cancellation no response$/)
  })

  test('is skipped when the chained cancellation sends no receipt', async () => {
    const { headers: _headers, ...withoutReceipt } = OPERATIONS.cancelIntent!.cancels!
    const values = withOperations({
      ...OPERATIONS,
      cancelIntent: { ...OPERATIONS.cancelIntent!, cancels: withoutReceipt },
    })
    expect(verdict(await outcomeOf(id, [], values))).toBe(
      'skipped: no write operation of the profile states a cancellation whose chained step sends {receipt} (writes.operations.*.cancels)',
    )
  })
})

describe('writes/key-reuse-with-another-body-refused', () => {
  const id = 'writes/key-reuse-with-another-body-refused'

  test('is skipped, naming the key, when no write operation states keyReuse', async () => {
    const { keyReuse: _intake, ...submitIntent } = OPERATIONS.submitIntent!
    const { keyReuse: _cancellation, ...cancelIntent } = OPERATIONS.cancelIntent!
    expect(verdict(await outcomeOf(id, [], withOperations({ submitIntent, cancelIntent })))).toBe(
      'skipped: no write operation of the profile states how it refuses a used key with another body (writes.operations.*.keyReuse)',
    )
  })

  test('another body answered as the earlier submission (its identifier, duplicate: true) is accepted, and fails', async () => {
    const sameOrder: Behaviour = {
      name: 'key-reuse-answers-earlier-submission',
      description: 'another body under a used key is answered as the earlier submission',
      onResponse(response, request, data) {
        if (findWriteRoute(request)?.kind !== 'intent' || bodyOf(response)?.code !== 'idempotency_key_reused') return
        const earlier = data.submissions.get(`${request.path} ${request.headers['idempotency-key']}`)!.answer
        Object.assign(response, { status: 200, body: { data: { ...earlier, duplicate: true } } })
      },
    }
    const outcome = await outcomeOf(id, [sameOrder])
    expect(verdict(outcome)).toBe(
      'failed: submitIntent: a submission with the Idempotency-Key of an accepted submission and another signed body was accepted (200): a key is kept with its signed body; taking another body under it makes a further order, or answers for the wrong body',
    )
    expect(shown(outcome)).toBe('POST /v1/intents 200')
  })

  test('is skipped when the signed bodies give the same body twice: there is no other body to send', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ipts-same-body-')), 'intent.json')
    writeFileSync(file, signedBody('intent'))
    const submitIntent = { ...OPERATIONS.submitIntent!, bodies: { command: ['cat', file] } }
    expect(verdict(await outcomeOf(id, [], withOperations({ submitIntent })))).toBe(
      "skipped: submitIntent: the profile's signed bodies gave the same body twice (writes.operations.submitIntent.bodies): the check needs another",
    )
  })
})

describe('the writes each check declares', () => {
  // The write checks, and the realtime check that walks a lifecycle on its channel.
  const ids = [...checksByConcern.writes!.map((check) => check.id), 'realtime/lifecycle-ends-on-channel' as const]
  // Two operations of each kind: a budget that counts one operation's writes, or halves them, is told apart.
  const doubled = {
    values: withOperations({
      ...OPERATIONS,
      submitIntentAgain: OPERATIONS.submitIntent!,
      cancelIntentAgain: {
        ...OPERATIONS.cancelIntent!,
        cancels: { ...OPERATIONS.cancelIntent!.cancels!, operation: 'submitIntentAgain' },
      },
    }),
    baseDir: specPath('.'),
    source: 'test profile',
  }

  test.each(ids)(
    '%s declares exactly the submissions it sends, with two operations of each kind: it runs within --max-writes of that many, and is skipped below',
    async (id) => {
      let sent = 0
      const record = (request: RefRequest) => {
        // A realtime ticket is asked for with a POST, and is no submission.
        if (request.method !== 'GET' && request.path !== REFERENCE_VALUES.realtime!.ticket.path) sent++
      }
      const within = await runAgainstReference({ record }, { allowWrites: true }, { only: [id], profile: doubled })
      const outcome = within.checks.find((c) => c.id === id)!
      expect(outcome.status, failureSummary(within)).toBe('passed')
      expect(sent).toBeGreaterThan(0)
      const exact = (
        await runAgainstReference({}, { allowWrites: true, maxWrites: sent }, { only: [id], profile: doubled })
      ).checks.find((c) => c.id === id)!
      expect(exact.status, exact.reason).toBe('passed')
      const below = (
        await runAgainstReference({}, { allowWrites: true, maxWrites: sent - 1 }, { only: [id], profile: doubled })
      ).checks.find((c) => c.id === id)!
      expect(below.status).toBe('skipped')
      expect(below.reason).toBe(
        `skipped: it sends up to ${sent} submissions, more than the ${sent - 1} left of --max-writes ${sent - 1}`,
      )
    },
  )
})

describe('intakes of the contract', () => {
  test('an action intake with its receipt is judged as an intake; a batch intake is not one', async () => {
    const asKind = (kind: WriteOperation['kind']) =>
      withOperations({ ...OPERATIONS, submitIntent: { ...OPERATIONS.submitIntent!, kind } })
    expect(verdict(await outcomeOf('writes/intake-returns-identifier-and-receipt', [], asKind('action')))).toBe(
      'passed',
    )
    expect(verdict(await outcomeOf('writes/intake-returns-identifier-and-receipt', [], asKind('batch-intent')))).toBe(
      'skipped: no write operation of the profile states an action or intent intake with its receipt (writes.operations.*.receipt)',
    )
    // A status operation alone makes no intake whose receipt grants it.
    expect(verdict(await outcomeOf('writes/receipt-grants-only-its-own-status', [], asKind('batch-intent')))).toBe(
      'skipped: no write operation of the profile states an intake with its receipt and status operation (writes.operations.*.receipt and statusPath)',
    )
  })
})

/**
 * Gives each intent the intake accepts a receipt with characters a URL must escape, kept as the intent's receipt too.
 */
const reservedReceipts: Behaviour = {
  name: 'reserved-receipts',
  description: 'receipts hold +, /, &, = and a space',
  onResponse(response, request, data) {
    if (findWriteRoute(request)?.kind !== 'intent' || response.status !== 202) return
    const answer = bodyOf(response)?.data as Record<string, unknown>
    const intent = data.intents.find((i) => i.written && i.hash === answer.hash)!
    intent.receipt = `${intent.receipt} +/&=é`
    answer.receipt = intent.receipt
  },
}

describe('the status of a written intent', () => {
  test('is asked with its receipt escaped in the query', async () => {
    expect(verdict(await outcomeOf('writes/receipt-grants-only-its-own-status', [reservedReceipts]))).toBe('passed')
    expect(verdict(await outcomeOf('writes/cancellation-ends-lifecycle', [reservedReceipts]))).toBe('passed')
  })

  test("a 2xx other than 200 to another submission's receipt grants the status (201, and 299 at the edge)", async () => {
    for (const status of [201, 299]) {
      const otherReceipt = writtenStatusWhere(
        status,
        (request, intent) => request.query.get('receipt') !== intent.receipt,
      )
      expect(verdict(await outcomeOf('writes/receipt-grants-only-its-own-status', [otherReceipt]))).toBe(
        `failed: submitIntent: the status of a new submission is granted (${status}) with the receipt of another submission`,
      )
    }
  })

  test("a 3xx to another submission's receipt grants nothing", async () => {
    const otherReceipt = writtenStatusWhere(300, (request, intent) => request.query.get('receipt') !== intent.receipt)
    expect(verdict(await outcomeOf('writes/receipt-grants-only-its-own-status', [otherReceipt]))).toBe('passed')
  })
})

describe('the wrong receipt a cancellation is sent with', () => {
  test.each(['x', 'xxxx', 'x-receipt-1', 'abc', '0', '00x'])(
    'for %j is of its length, another, and differs from it at its first character',
    (receipt) => {
      const wrong = wrongReceipt(receipt)
      expect(wrong).toHaveLength(receipt.length)
      expect(wrong).not.toBe(receipt)
      expect(wrong[0]).not.toBe(receipt[0])
    },
  )
})

describe('the polls after a cancellation', () => {
  test('a lifecycle that never ends is polled at once, then five times in all a second apart, and its last state reported', async () => {
    const polls: number[] = []
    let cancelled = 0
    const stateless: Behaviour = {
      name: 'cancelled-without-state',
      description: 'the status of a cancelled intent has no state',
      onResponse(response, request) {
        if (findWriteRoute(request)?.kind === 'cancellation') cancelled = Date.now()
        if (
          !isOperation(request, 'getIntentStatus') ||
          response.status !== 200 ||
          bodyOf(response)?.state !== 'cancelled'
        )
          return
        polls.push(Date.now())
        const { state: _state, ...rest } = bodyOf(response)!
        response.body = rest
      },
    }
    expect(verdict(await outcomeOf('writes/cancellation-ends-lifecycle', [stateless]))).toBe(
      "failed: cancelIntent: 5 s after its cancellation was accepted, the submitIntent submission reports state null at /state, not one of the profile's terminal states (settled, failed, cancelled)",
    )
    expect(polls).toHaveLength(5)
    expect(polls.at(-1)! - polls[0]!).toBeGreaterThanOrEqual(3900)
    // The first poll does not wait: a lifecycle ended within the window is seen at the first poll after it ends.
    expect(polls[0]! - cancelled).toBeLessThan(1000)
  }, 30_000)
})

describe('a status the client cannot ask', () => {
  test('is not granted, and the transport error is named', async () => {
    // A statusPath with a space makes no valid request path: the status asked gets no response.
    const values = withOperations({
      ...OPERATIONS,
      submitIntent: { ...OPERATIONS.submitIntent!, statusPath: '/v1/intents/{id} ?receipt={receipt}' },
    })
    expect(verdict(await outcomeOf('writes/receipt-grants-only-its-own-status', [], values))).toBe(
      'failed: submitIntent: the status of a new submission, asked with its own receipt, is not granted (no response (the request could not be sent (invalid request path)))',
    )
    expect(verdict(await outcomeOf('writes/cancellation-ends-lifecycle', [], values))).toBe(
      'failed: cancelIntent: the status of a new submitIntent submission is not granted (no response (the request could not be sent (invalid request path)))',
    )
  })
})
