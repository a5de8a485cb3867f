import { describe, expect, test } from 'vitest'
import type { CheckId } from '../../src/contract/catalogue-ids.js'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { findingMessage } from '../../src/checks/exchange-judge.js'
import { profileChecks } from '../../src/checks/profile.js'
import {
  outOfRangeProblem,
  refusalProblem as pageRefusalProblem,
  type SizedPage,
} from '../../src/checks/profile-page-sizes.js'
import { refusalProblem as scopeRefusalProblem } from '../../src/checks/profile-scopes.js'
import type { Exchange } from '../../src/http/exchange.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'
import type { CheckContext } from '../../src/checks/types.js'
import type { CheckOutcome } from '../../src/core/report.js'
import { specPath } from '../../src/core/package-root.js'
import type { ProfileValues } from '../../src/profile/profile.js'
import { errorResponse } from '../../src/reference/handlers.js'
import { DESCRIPTION_PATH } from '../../src/reference/server.js'
import { bodyFault } from '../../src/reference/record-edits.js'
import { isOperation } from '../../src/reference/response-edits.js'
import type { Behaviour, RefRequest } from '../../src/reference/types.js'
import { failureSummary, outcomeWithInputs, runAgainstReference } from '../support/run.js'
import { answering, withAnswer } from '../support/scripted-answers.js'

/**
 * The profile checks (src/checks/profile-*.ts) run alone against the embedded reference, with profile values and
 * answers of the test's own: the branches of a check that the reference's own profile and its named faults do not
 * reach (npm run mutation judges the checks by these and by test/checks/each-check.test.ts).
 */

// Parsed, not loaded: a load at import would make every mutant of src/profile/load.ts run every test of the model part
// (test/unit/profile-load.test.ts holds the reference's values valid).
const REFERENCE_VALUES = (parse(readFileSync(specPath('reference-profile.yaml'), 'utf8')) as { profile: ProfileValues })
  .profile

/** Runs one check alone under the given profile values (the reference's own by default) and behaviours. */
async function outcomeOf(
  id: CheckId,
  values: ProfileValues = REFERENCE_VALUES,
  behaviours: readonly Behaviour[] = [],
): Promise<CheckOutcome> {
  const report = await runAgainstReference(
    { behaviours },
    {},
    { only: [id], profile: { values, baseDir: specPath('.'), source: 'test profile' } },
  )
  const outcome = report.checks.find((c) => c.id === id)
  if (!outcome) throw new Error(`${id} is not in the report: ${failureSummary(report)}`)
  expect(outcome.crashed, `${id} crashed: ${outcome.reason}`).toBeFalsy()
  return outcome
}

const verdict = (outcome: CheckOutcome) =>
  `${outcome.status}${outcome.reason === undefined ? '' : `: ${outcome.reason}`}`

const restricted = (request: RefRequest, data: { restrictedApiKey: string }) =>
  request.headers['x-api-key'] === data.restrictedApiKey

/** Answers the restricted key's GET of the PnL with this status and body (raw text when a string). */
const pnlRefusal = (status: number, body: unknown) =>
  answering(
    `pnl-refused-${status}`,
    (request, data) => isOperation(request, 'getTraderPnl') && restricted(request, data),
    withAnswer(status, body),
  )

describe('profile/restricted-key-refused and profile/restricted-key-granted', () => {
  test('each is skipped when the profile lists none of its kind, and names the key', async () => {
    expect(
      verdict(await outcomeOf('profile/restricted-key-refused', { restrictedKey: { granted: ['getVault'] } })),
    ).toBe('skipped: the profile lists no refused operation (restrictedKey.refused)')
    expect(
      verdict(await outcomeOf('profile/restricted-key-granted', { restrictedKey: { refused: ['getTraderPnl'] } })),
    ).toBe('skipped: the profile lists no granted operation (restrictedKey.granted)')
  })

  test('a refusal must be a 403 whose body is an error body', async () => {
    const values: ProfileValues = { restrictedKey: { refused: ['getTraderPnl'] } }
    expect(verdict(await outcomeOf('profile/restricted-key-refused', values))).toBe('passed')
    expect(verdict(await outcomeOf('profile/restricted-key-refused', values, [pnlRefusal(403, 'denied')]))).toMatch(
      /^failed: the restricted key was not refused as the profile says: getTraderPnl: the 403 body is not JSON \(it begins /,
    )
    expect(
      verdict(await outcomeOf('profile/restricted-key-refused', values, [pnlRefusal(403, { message: 'denied' })])),
    ).toBe(
      "failed: the restricted key was not refused as the profile says: getTraderPnl: the 403 carries no error body: ErrorBody must have required property 'error'",
    )
    expect(
      verdict(
        await outcomeOf('profile/restricted-key-refused', values, [
          pnlRefusal(401, errorResponse(401, 'unauthorized', 'no').body),
        ]),
      ),
    ).toBe('failed: the restricted key was not refused as the profile says: getTraderPnl answered 401, not 403')
  })
})

describe("profile/restricted-key-granted and the intent's receipt, given for the API key's intent", () => {
  /**
   * The restricted key has the intent operation's scope, and the API key's receipt is refused it with this status (a
   * receipt bound to its key).
   */
  function receiptBoundToKey(status: number): Behaviour {
    const byRestricted = new WeakSet<RefRequest>()
    return {
      name: `receipt-bound-to-key-${status}`,
      description: `the restricted key has the intent scope, and the API key's receipt is refused it with ${status}`,
      onRequest(request, data) {
        if (!restricted(request, data) || !request.path.startsWith('/v1/intents/')) return
        byRestricted.add(request)
        request.headers['x-api-key'] = data.apiKey
      },
      onResponse(response, request) {
        if (byRestricted.has(request))
          Object.assign(response, {
            status,
            body: errorResponse(status, 'intent_not_found', 'no intent for this receipt').body,
          })
      },
    }
  }

  test.each([404, 422])(
    'a %s to the receipt is not judged; the operations the receipt is not sent to are',
    async (status) => {
      const granted = { restrictedKey: { granted: ['getIntentStatus', 'getVault'] } } as ProfileValues
      expect(verdict(await outcomeOf('profile/restricted-key-granted', granted, [receiptBoundToKey(status)]))).toBe(
        'passed',
      )
      const intentAlone = { restrictedKey: { granted: ['getIntentStatus'] } } as ProfileValues
      expect(verdict(await outcomeOf('profile/restricted-key-granted', intentAlone, [receiptBoundToKey(status)]))).toBe(
        `skipped: the restricted key was refused the intent's receipt (getIntentStatus ${status}): given for the API key's intent, it may be bound to that key, so the scope is not shown`,
      )
    },
  )

  test('a 403 to the intent the profile grants still fails', async () => {
    const intentAlone = { restrictedKey: { granted: ['getIntentStatus'] } } as ProfileValues
    expect(verdict(await outcomeOf('profile/restricted-key-granted', intentAlone, [receiptBoundToKey(403)]))).toBe(
      'failed: the restricted key was not served 200: getIntentStatus 403',
    )
  })
})

const MARKETS_REJECT = { minPageSize: 1, maxPageSize: 25, outOfRange: 'reject' } as const
/** A request to a list, by its path: behaviours see a request before it is routed. */
const isList = (request: RefRequest) => /^\/v1\/(?:markets|traders\/[^/]+\/balances)$/.test(request.path)
const isMarkets = (request: RefRequest) => request.path === '/v1/markets'
const isBalances = (request: RefRequest) => isList(request) && !isMarkets(request)

/** Answers the lists with this status and body (raw text when a string) when the page size asked passes the test. */
const listAnswer = (
  name: string,
  when: (limit: string | null, request: RefRequest) => boolean,
  status: number,
  body: unknown,
) =>
  answering(name, (request) => isList(request) && when(request.query.get('limit'), request), withAnswer(status, body))

/** Lists ignore the page size asked (all of them, or those the test picks), serving the default page. */
function limitIgnored(which: (request: RefRequest) => boolean = isList): Behaviour {
  return {
    name: 'limit-ignored',
    description: 'lists ignore ?limit=',
    onRequest(request) {
      if (which(request)) request.query.delete('limit')
    },
  }
}

describe('profile/page-size-out-of-range', () => {
  const id = 'profile/page-size-out-of-range'

  test("reject: sizes the reference serves inside its own bounds but outside the profile's are found, below the minimum first", async () => {
    expect(
      verdict(
        await outcomeOf(id, { pagination: { listMarkets: { minPageSize: 5, maxPageSize: 20, outOfRange: 'reject' } } }),
      ),
    ).toBe('failed: listMarkets (5 to 20, reject) with limit=4: got 200, not 400 or 422')
    expect(
      verdict(
        await outcomeOf(id, { pagination: { listMarkets: { minPageSize: 1, maxPageSize: 20, outOfRange: 'reject' } } }),
      ),
    ).toBe('failed: listMarkets (1 to 20, reject) with limit=21: got 200, not 400 or 422')
    expect(
      verdict(
        await outcomeOf(id, {
          pagination: { listTraderBalances: { minPageSize: 1, maxPageSize: 25, outOfRange: 'reject' } },
        }),
      ),
    ).toBe('failed: listTraderBalances (1 to 25, reject) with limit=26: got 200, not 400 or 422')
  })

  test('reject: a refusal is 400 or 422 with an error body', async () => {
    const values: ProfileValues = { pagination: { listMarkets: MARKETS_REJECT } }
    const above = (limit: string | null) => limit === '26'
    expect(
      verdict(
        await outcomeOf(id, values, [
          listAnswer('422', above, 422, { error: 'limit too large', code: 'invalid_limit' }),
        ]),
      ),
    ).toBe('passed')
    expect(
      verdict(
        await outcomeOf(id, values, [
          listAnswer('409', above, 409, { error: 'limit too large', code: 'invalid_limit' }),
        ]),
      ),
    ).toBe('failed: listMarkets (1 to 25, reject) with limit=26: got 409, not 400 or 422')
    expect(verdict(await outcomeOf(id, values, [listAnswer('raw', above, 400, 'too large')]))).toMatch(
      /^failed: listMarkets \(1 to 25, reject\) with limit=26: got 400 whose body is not JSON \(it begins /,
    )
    expect(verdict(await outcomeOf(id, values, [listAnswer('no-error', above, 422, { message: 'too large' })]))).toBe(
      "failed: listMarkets (1 to 25, reject) with limit=26: got 422 without an error body (ErrorBody must have required property 'error')",
    )
    expect(
      verdict(await outcomeOf(id, values, [listAnswer('zero', (limit) => limit === '0', 200, { data: [] })])),
    ).toBe('failed: listMarkets (1 to 25, reject) with limit=0: got 200, not 400 or 422')
    expect(
      verdict(await outcomeOf(id, values, [listAnswer('negative', (limit) => limit === '-1', 200, { data: [] })])),
    ).toBe('failed: listMarkets (1 to 25, reject) with limit=-1: got 200, not 400 or 422')
    expect(
      verdict(await outcomeOf(id, values, [listAnswer('fraction', (limit) => limit === '1.5', 200, { data: [] })])),
    ).toBe('failed: listMarkets (1 to 25, reject) with limit=1.5: got 200, not 400 or 422')
    expect(
      verdict(await outcomeOf(id, values, [listAnswer('letters', (limit) => limit === 'abc', 200, { data: [] })])),
    ).toBe('failed: listMarkets (1 to 25, reject) with limit=abc: got 200, not 400 or 422')
  })

  test('clamp: above the maximum a page of at most maxPageSize items; a size that is no page size may be refused or served clamped', async () => {
    const clamp = (maxPageSize: number): ProfileValues => ({
      pagination: { listMarkets: { minPageSize: 1, maxPageSize, outOfRange: 'clamp' } },
    })
    // The reference refuses 26 on the markets: clamping is what the profile says.
    expect(verdict(await outcomeOf(id, clamp(25)))).toBe(
      'failed: listMarkets (1 to 25, clamp) with limit=26: clamp: expected 200 with at most 25 items, got 400',
    )
    // At 9 the reference serves 10 items, one more than the clamp allows.
    expect(
      verdict(
        await outcomeOf(id, clamp(9), [
          listAnswer('ten', (limit) => limit === '10', 200, { data: Array.from({ length: 10 }, (_, i) => ({ i })) }),
        ]),
      ),
    ).toBe('failed: listMarkets (1 to 9, clamp) with limit=10: clamp: expected 200 with at most 9 items, got 10 items')
    expect(
      verdict(
        await outcomeOf(id, clamp(25), [listAnswer('served', (limit) => limit === '26', 200, { data: [{}, {}] })]),
      ),
    ).toBe('passed')
    // A page, but not a 200: clamping serves the page as any other.
    expect(
      verdict(await outcomeOf(id, clamp(25), [listAnswer('203', (limit) => limit === '26', 203, { data: [{}, {}] })])),
    ).toBe('failed: listMarkets (1 to 25, clamp) with limit=26: clamp: expected 200 with at most 25 items, got 203')
    expect(
      verdict(
        await outcomeOf(id, clamp(25), [
          listAnswer('served', (limit) => limit === '26' || limit === 'abc', 200, { data: [{}, {}] }),
        ]),
      ),
    ).toBe('passed')
    expect(
      verdict(
        await outcomeOf(id, clamp(25), [
          listAnswer('served', (limit) => limit === '26', 200, { data: [{}, {}] }),
          listAnswer('409', (limit) => limit === 'abc', 409, { error: 'no' }),
        ]),
      ),
    ).toBe(
      'failed: listMarkets (1 to 25, clamp) with limit=abc: clamp: expected 200 with at most 25 items, or 400 or 422 with an error body; got 409, not 400 or 422',
    )
    expect(
      verdict(
        await outcomeOf(id, clamp(25), [
          listAnswer('served', (limit) => limit === '26', 200, { data: [{}, {}] }),
          listAnswer('many', (limit) => limit === '0', 200, { data: Array.from({ length: 26 }, () => ({})) }),
        ]),
      ),
    ).toBe(
      'failed: listMarkets (1 to 25, clamp) with limit=0: clamp: expected 200 with at most 25 items, or 400 or 422 with an error body; got 200, not 400 or 422',
    )
  })

  test('a list that ignores the page-size parameter is not judged; the check is skipped only when no list reads it', async () => {
    expect(verdict(await outcomeOf(id, REFERENCE_VALUES, [limitIgnored(isBalances)]))).toBe('passed')
    expect(verdict(await outcomeOf(id, REFERENCE_VALUES, [limitIgnored()]))).toBe(
      "skipped: listMarkets ignores ?limit= (every page size asked, in and out of the profile's bounds, got the answer it gives without one: 10 items) — set --limit-param (the contract does not show its name); listTraderBalances ignores ?limit= (every page size asked, in and out of the profile's bounds, got the answer it gives without one: 10 items) — set --limit-param (the contract does not show its name)",
    )
    const unavailable = listAnswer('503', () => true, 503, { error: 'unavailable', code: 'index_unavailable' })
    // A list that answers 503 to every attempt is not assessed (the 5xx policy), rather than taken to ignore the
    // parameter.
    expect(verdict(await outcomeOf(id, { pagination: { listMarkets: MARKETS_REJECT } }, [unavailable]))).toMatch(
      /^not run: not assessed: the target answered 503 to \d+ attempts of GET \/v1\/markets, /,
    )
  })

  test('a list read only by its in-range sizes is judged', async () => {
    // Every out-of-range size gets the page served without one; the in-range sizes show the parameter is read.
    const outOfRangeIgnored: Behaviour = {
      name: 'out-ignored',
      description: '',
      onRequest(request) {
        const limit = request.query.get('limit')
        if (isList(request) && limit !== null && !/^([1-9]|1[0-9]|2[0-5])$/.test(limit)) request.query.delete('limit')
      },
    }
    expect(verdict(await outcomeOf(id, { pagination: { listMarkets: MARKETS_REJECT } }, [outOfRangeIgnored]))).toBe(
      'failed: listMarkets (1 to 25, reject) with limit=0: got 200, not 400 or 422',
    )
  })
})

describe('profile/page-size-in-range', () => {
  const id = 'profile/page-size-in-range'

  test('the minimum, the maximum and the size between them must each be a 200 with a data array', async () => {
    const values: ProfileValues = {
      pagination: { listMarkets: { minPageSize: 2, maxPageSize: 24, outOfRange: 'reject' } },
    }
    expect(verdict(await outcomeOf(id, values))).toBe('passed')
    expect(
      verdict(await outcomeOf(id, values, [listAnswer('13', (limit) => limit === '13', 400, { error: 'no' })])),
    ).toBe('failed: listMarkets (2 to 24, reject) with limit=13: got 400, not 200 with a data array')
    expect(verdict(await outcomeOf(id, values, [listAnswer('24', (limit) => limit === '24', 200, { data: {} })]))).toBe(
      'failed: listMarkets (2 to 24, reject) with limit=24: got 200, not 200 with a data array',
    )
    expect(
      verdict(await outcomeOf(id, values, [listAnswer('2', (limit) => limit === '2', 422, { error: 'no' })])),
    ).toBe('failed: listMarkets (2 to 24, reject) with limit=2: got 422, not 200 with a data array')
    // A size between them is the midpoint rounded down: 12 for 1 to 24.
    expect(
      verdict(
        await outcomeOf(
          id,
          { pagination: { listMarkets: { minPageSize: 1, maxPageSize: 24, outOfRange: 'reject' } } },
          [listAnswer('12', (limit) => limit === '12', 400, { error: 'no' })],
        ),
      ),
    ).toBe('failed: listMarkets (1 to 24, reject) with limit=12: got 400, not 200 with a data array')
  })
})

describe('profile/page-size-honoured', () => {
  const id = 'profile/page-size-honoured'

  test('a page of more items than asked fails; one of as many passes', async () => {
    const values: ProfileValues = { pagination: { listMarkets: MARKETS_REJECT } }
    expect(verdict(await outcomeOf(id, values))).toBe('passed')
    const thirteen = { data: Array.from({ length: 13 }, () => ({})) }
    expect(verdict(await outcomeOf(id, values, [listAnswer('13', (limit) => limit === '13', 200, thirteen)]))).toBe(
      'passed',
    )
    expect(
      verdict(
        await outcomeOf(id, values, [
          listAnswer('14', (limit) => limit === '13', 200, { data: Array.from({ length: 14 }, () => ({})) }),
        ]),
      ),
    ).toBe('failed: listMarkets (1 to 25, reject) with limit=13 served 14 items')
  })

  test('is skipped when no size within the bounds was served 200, and when no list reads the parameter', async () => {
    const values: ProfileValues = { pagination: { listMarkets: MARKETS_REJECT } }
    expect(
      verdict(await outcomeOf(id, values, [listAnswer('refused', (limit) => limit !== null, 400, { error: 'no' })])),
    ).toBe('skipped: no page size within the bounds was served 200 (profile/page-size-in-range reports it)')
    // One size served 200 is judged.
    expect(
      verdict(
        await outcomeOf(id, values, [
          listAnswer('refused', (limit) => limit !== null && limit !== '1', 400, { error: 'no' }),
        ]),
      ),
    ).toBe('passed')
    expect(verdict(await outcomeOf(id, values, [limitIgnored()]))).toMatch(/^skipped: listMarkets ignores \?limit= /)
    expect(verdict(await outcomeOf(id, REFERENCE_VALUES, [limitIgnored(isMarkets)]))).toBe('passed')
  })
})

/** Edits the 200 body of one operation (a behaviour of the test's own, breaking nothing it names). */
const edited = (operation: Parameters<typeof bodyFault>[3], edit: Parameters<typeof bodyFault>[4]): Behaviour =>
  bodyFault(`${operation}-edited`, `the ${operation} body is edited`, [], operation, edit)

/** Answers one operation with this status and body (raw text when a string). */
const answer = (operation: string, status: number, body: unknown) =>
  answering(`${operation}-${status}`, (request) => isOperation(request, operation), withAnswer(status, body))

describe('profile/*-required-members', () => {
  test('each is skipped when the profile lists no required member of its component', async () => {
    expect(verdict(await outcomeOf('profile/vault-required-members', { requiredMembers: { Market: ['id'] } }))).toBe(
      'skipped: the profile lists no required member of Vault (requiredMembers.Vault)',
    )
    expect(verdict(await outcomeOf('profile/pnl-required-members', { requiredMembers: { Vault: ['id'] } }))).toBe(
      'skipped: the profile lists no required member of PnL (requiredMembers.PnL)',
    )
  })

  test('a missing member is named with the record that lacks it', async () => {
    expect(
      verdict(
        await outcomeOf('profile/market-required-members', REFERENCE_VALUES, [
          edited('listMarkets', (body) => delete body.data[1].activationDepthWad),
        ]),
      ),
    ).toMatch(/^failed: market 1 \(id "[^"]+"\) has no activationDepthWad, which the profile says is required$/)
    expect(
      verdict(
        await outcomeOf('profile/balance-required-members', REFERENCE_VALUES, [
          edited('listTraderBalances', (body) => {
            delete body.data[2].updatedAt
            delete body.data[2].account
          }),
        ]),
      ),
    ).toMatch(
      /^failed: balance 2 \(token "0x[0-9a-f]{40}"\) has no account, updatedAt, which the profile says is required$/,
    )
    expect(
      verdict(
        await outcomeOf('profile/pnl-required-members', REFERENCE_VALUES, [
          edited('getTraderPnl', (body) => delete body.data.funding.receiverWad),
        ]),
      ),
    ).toBe('failed: the PnL has no funding.receiverWad, which the profile says is required')
    expect(
      verdict(
        await outcomeOf('profile/pnl-required-members', REFERENCE_VALUES, [
          edited('getTraderPnl', (body) => {
            body.data.settlements = null
          }),
        ]),
      ),
    ).toBe(
      'failed: the PnL has no settlements.haircutWad, settlements.paidWad, settlements.realizedPnlWad, which the profile says is required',
    )
    expect(
      verdict(
        await outcomeOf('profile/pnl-required-members', REFERENCE_VALUES, [
          edited('getTraderPnl', (body) => {
            body.data.settlements = 'none'
          }),
        ]),
      ),
    ).toBe(
      'failed: the PnL has no settlements.haircutWad, settlements.paidWad, settlements.realizedPnlWad, which the profile says is required',
    )
    expect(
      verdict(
        await outcomeOf('profile/vault-required-members', {
          requiredMembers: { Vault: ['cumulativeDepositedTokens', 'nothing'] },
        }),
      ),
    ).toBe('failed: the vault has no nothing, which the profile says is required')
  })

  test('items of a list that are no objects are not judged; a body without records is skipped', async () => {
    expect(
      verdict(
        await outcomeOf('profile/market-required-members', REFERENCE_VALUES, [
          edited('listMarkets', (body) => {
            body.data = [null, 7, ...body.data.slice(0, 1)]
          }),
        ]),
      ),
    ).toBe('passed')
    expect(
      verdict(
        await outcomeOf('profile/market-required-members', REFERENCE_VALUES, [
          edited('listMarkets', (body) => {
            body.data = [null, 'market']
          }),
        ]),
      ),
    ).toBe(
      'skipped: listMarkets answered no market to judge (envelope/data and the shapes checks judge the body itself)',
    )
    expect(
      verdict(
        await outcomeOf('profile/market-required-members', REFERENCE_VALUES, [
          edited('listMarkets', (body) => {
            body.data = { id: 'm' }
          }),
        ]),
      ),
    ).toBe(
      'skipped: listMarkets answered no market to judge (envelope/data and the shapes checks judge the body itself)',
    )
    expect(
      verdict(
        await outcomeOf('profile/vault-required-members', REFERENCE_VALUES, [
          edited('getVault', (body) => {
            body.data = null
          }),
        ]),
      ),
    ).toBe(
      'skipped: getVault answered no Vault object to judge (envelope/data and the shapes checks judge the body itself)',
    )
    expect(
      verdict(
        await outcomeOf('profile/vault-required-members', REFERENCE_VALUES, [
          edited('getVault', (body) => {
            body.data = [body.data]
          }),
        ]),
      ),
    ).toBe(
      'skipped: getVault answered no Vault object to judge (envelope/data and the shapes checks judge the body itself)',
    )
  })

  test('the operation must answer 200 with a JSON body', async () => {
    expect(
      verdict(
        await outcomeOf('profile/vault-required-members', REFERENCE_VALUES, [
          answer('getVault', 500, { error: 'internal', code: 'internal' }),
        ]),
      ),
    ).toBe('failed: answered 500, expected 200')
    expect(
      verdict(await outcomeOf('profile/vault-required-members', REFERENCE_VALUES, [answer('getVault', 200, 'vault')])),
    ).toMatch(/^failed: the body is not JSON \(it begins /)
  })
})

describe('profile/config-schema', () => {
  const id = 'profile/config-schema'

  test('a config body the schema refuses fails with where; one it accepts passes', async () => {
    expect(verdict(await outcomeOf(id))).toBe('passed')
    expect(
      verdict(
        await outcomeOf(id, REFERENCE_VALUES, [
          edited('getConfig', (body) => {
            body.chainId = 'one'
          }),
        ]),
      ),
    ).toBe(
      'failed: configSchema/chainId must match pattern "^(?:0|[1-9][0-9]*)$" (pattern at #/properties/chainId/pattern)',
    )
    expect(
      verdict(
        await outcomeOf(id, REFERENCE_VALUES, [answer('getConfig', 500, { error: 'internal', code: 'internal' })]),
      ),
    ).toBe('failed: answered 500, expected 200')
  })
})

/** Edits the description the reference publishes (GET /openapi.json), which its own profile names. */
function published(edit: (document: Record<string, any>) => void): Behaviour {
  return {
    name: 'published-description-edited',
    description: 'the published description is edited',
    onResponse(response, request) {
      if (request.path === DESCRIPTION_PATH && response.status === 200) edit(response.body as Record<string, any>)
    },
  }
}

async function withPublished(id: CheckId, edit: (document: Record<string, any>) => void): Promise<CheckOutcome> {
  const report = await runAgainstReference({ behaviours: [published(edit)] }, {}, { only: [id] })
  return report.checks.find((c) => c.id === id)!
}

describe('profile/openapi-document and profile/openapi-compatible', () => {
  const url = String.raw`http://127\.0\.0\.1:\d+/openapi\.json`

  test('the first problem of the document is the reason, with the number and text of the others', async () => {
    expect(
      verdict(
        await withPublished('profile/openapi-document', (document) => {
          document.info.version = '2.0.0'
        }),
      ),
    ).toMatch(new RegExp(`^failed: ${url} declares info\\.version "2\\.0\\.0", not "1\\.0\\.0"$`))
    expect(
      verdict(
        await withPublished('profile/openapi-document', (document) => {
          document.info.version = '2.0.0'
          document.openapi = '3.0.3'
        }),
      ),
    ).toMatch(
      new RegExp(
        `^failed: ${url} is not a valid OpenAPI document \\(@seriousme/openapi-schema-validator\\): / must NOT have additional properties \\(additionalProperties\\) \\(and 2 more: ${url} declares openapi "3\\.0\\.3", not "3\\.1\\.0"; ${url} declares info\\.version "2\\.0\\.0", not "1\\.0\\.0"\\)$`,
      ),
    )
  })

  test('the first disagreement is the reason, with the number of the others and the size of the corpus', async () => {
    const corpus = '; judged on 43 bodies the contract accepts and 28 it forbids'
    const one = verdict(
      await withPublished('profile/openapi-compatible', (document) => {
        delete document.components.schemas.IntentTrigger.additionalProperties
      }),
    )
    expect(one).toMatch(
      new RegExp(
        `^failed: ${url} accepts a getIntentStatus body the contract forbids \\(fault trigger-extra-member\\): \\{.*${corpus}$`,
      ),
    )
    expect(one).not.toContain('more disagreements')
    const two = verdict(
      await withPublished('profile/openapi-compatible', (document) => {
        delete document.components.schemas.IntentStatus.additionalProperties
      }),
    )
    expect(two).toMatch(
      new RegExp(
        `^failed: ${url} accepts a getIntentStatus body the contract forbids \\(fault intent-extra-member\\): .* \\(and 1 more disagreements\\)${corpus}$`,
      ),
    )
  })
})

/**
 * A check's run on a hand-made context that only skips: what a run against another target decides before it sends
 * anything (the embedded reference always gives the trader and the intent, so a run against it cannot show these).
 */
function skippingContext(settings: Record<string, unknown>): CheckContext {
  const refuse = (what: string) => () => {
    throw new Error(`unexpected ${what}`)
  }
  return {
    settings,
    skip: (reason: string) => {
      throw new Error(`skipped: ${reason}`)
    },
    fail: refuse('failure'),
    call: refuse('call'),
    get: refuse('get'),
  } as unknown as CheckContext
}

const checkOf = (id: string) => profileChecks.find((check) => check.id === id)!

describe('against a target without a trader or an intent', () => {
  test('the required-members checks of the trader records need the trader; the vault and the markets need the key only', () => {
    expect(checkOf('profile/vault-required-members').needs).toEqual(['apiKey'])
    expect(checkOf('profile/market-required-members').needs).toEqual(['apiKey'])
    expect(checkOf('profile/balance-required-members').needs).toEqual(['apiKey', 'trader'])
    expect(checkOf('profile/pnl-required-members').needs).toEqual(['apiKey', 'trader'])
  })

  test('profile/restricted-key-granted is skipped when no operation it lists has its inputs', async () => {
    const settings = { profile: { values: { restrictedKey: { granted: ['getTraderPnl', 'getIntentStatus'] } } } }
    await expect(checkOf('profile/restricted-key-granted').run(skippingContext(settings))).rejects.toThrow(
      'skipped: the inputs of getTraderPnl, getIntentStatus were not given (--trader, --intent-hash)',
    )
  })

  test('the page-size checks are skipped when the profile bounds only the balances', async () => {
    const settings = {
      profile: {
        values: { pagination: { listTraderBalances: { minPageSize: 1, maxPageSize: 25, outOfRange: 'clamp' } } },
      },
    }
    for (const id of [
      'profile/page-size-out-of-range',
      'profile/page-size-in-range',
      'profile/page-size-honoured',
      'profile/max-page-walk-ends',
    ]) {
      await expect(checkOf(id).run(skippingContext(settings)), id).rejects.toThrow(
        'skipped: the profile bounds only listTraderBalances, and no trader was given (--trader)',
      )
    }
  })

  test('the page-size checks judge the markets alone when the profile bounds both lists', async () => {
    const values: ProfileValues = { pagination: { listMarkets: MARKETS_REJECT, listTraderBalances: MARKETS_REJECT } }
    const outcome = await outcomeWithInputs(
      'profile/page-size-in-range',
      (server) => ({ apiKey: server.data.apiKey }),
      { profile: { values, baseDir: specPath('.'), source: 'test profile' } },
    )
    expect(verdict(outcome)).toBe('passed')
  })
})

/** An exchange that got no response: the transport error is all there is to report. */
const unanswered = (operation: string) =>
  ({ ...exchangeOf(undefined, { operation }), error: { message: 'socket hang up' } }) as unknown as Exchange

describe('answers that never came', () => {
  test('a refusal of the restricted key names the transport error', () => {
    expect(scopeRefusalProblem(unanswered('getTraderPnl'))).toBe(
      'getTraderPnl answered no response (socket hang up), not 403',
    )
  })

  test('a page size asked names the transport error, for reject and for clamp', () => {
    const page: SizedPage = { size: '26', exchange: unanswered('listMarkets') }
    expect(pageRefusalProblem(page)).toBe('got no response (socket hang up), not 400 or 422')
    expect(outOfRangeProblem(page, true, { minPageSize: 1, maxPageSize: 25, outOfRange: 'clamp' })).toBe(
      'clamp: expected 200 with at most 25 items, got no response (socket hang up)',
    )
    expect(
      outOfRangeProblem({ ...page, size: 'abc' }, false, { minPageSize: 1, maxPageSize: 25, outOfRange: 'clamp' }),
    ).toBe(
      'clamp: expected 200 with at most 25 items, or 400 or 422 with an error body; got no response (socket hang up), not 400 or 422',
    )
    expect(outOfRangeProblem(page, true, MARKETS_REJECT)).toBe('got no response (socket hang up), not 400 or 422')
  })

  test('a clamped page of exactly maxPageSize items is served; one more is not', () => {
    const served = (items: number): SizedPage => ({
      size: '26',
      exchange: exchangeOf(responseOf(200, {}, { data: [] })),
      items,
    })
    const clamp = { minPageSize: 1, maxPageSize: 25, outOfRange: 'clamp' } as const
    expect(outOfRangeProblem(served(25), true, clamp)).toBeUndefined()
    expect(outOfRangeProblem(served(26), true, clamp)).toBe('clamp: expected 200 with at most 25 items, got 26 items')
  })

  test('a size that is no page size under clamp may be served within the maximum or refused, not served above it', () => {
    const page = (items: number): SizedPage => ({ size: '0', exchange: exchangeOf(responseOf(200, {}, {})), items })
    const clamp = { minPageSize: 1, maxPageSize: 25, outOfRange: 'clamp' } as const
    expect(outOfRangeProblem(page(25), false, clamp)).toBeUndefined()
    expect(outOfRangeProblem(page(26), false, clamp)).toBe(
      'clamp: expected 200 with at most 25 items, or 400 or 422 with an error body; got 200, not 400 or 422',
    )
    const refused: SizedPage = { size: '0', exchange: exchangeOf(responseOf(400, {}, { error: 'bad', code: 'x' })) }
    expect(outOfRangeProblem(refused, false, clamp)).toBeUndefined()
  })
})

/**
 * What a check's recorded judgement decides about one exchange made by hand (as in check-har and the proxy): 'not
 * applied', 'holds', or the finding's message.
 */
function recordedVerdict(id: string, exchange: Exchange, values: ProfileValues | undefined): string {
  const { recorded } = checkOf(id)
  const settings =
    values === undefined
      ? {}
      : {
          profile: {
            source: 'test',
            baseDir: specPath('.'),
            values,
            ...(values.configSchema ? { configSchema: configSchemaOf(values.configSchema) } : {}),
          },
        }
  if (!recorded!.applies(exchange.response!, exchange, settings as never)) return 'not applied'
  const finding = recorded!.violation(exchange.response!, exchange, settings as never)
  return finding === undefined ? 'holds' : findingMessage(finding)
}

const configSchemaOf = (file: string) => JSON.parse(readFileSync(specPath(file), 'utf8')) as object
const JSON_TYPE = { 'content-type': 'application/json' }
const answered = (operation: string, status: number, body: unknown) =>
  exchangeOf(responseOf(status, JSON_TYPE, body), { operation })

describe('the recorded judgements of the required members and the config schema', () => {
  const markets = { requiredMembers: { Market: ['activationDepthWad'] } }

  test('judge only a 200 with a JSON body from their operation, where the profile states what it is held to', () => {
    const body = { data: [{ id: 'm1' }] }
    expect(recordedVerdict('profile/market-required-members', answered('listMarkets', 200, body), markets)).toBe(
      'market 0 (id "m1") has no activationDepthWad, which the profile says is required',
    )
    expect(recordedVerdict('profile/market-required-members', answered('getVault', 200, body), markets)).toBe(
      'not applied',
    )
    expect(recordedVerdict('profile/market-required-members', answered('listMarkets', 404, body), markets)).toBe(
      'not applied',
    )
    expect(
      recordedVerdict(
        'profile/market-required-members',
        exchangeOf(responseOf(200, JSON_TYPE), { operation: 'listMarkets' }),
        markets,
      ),
    ).toBe('not applied')
    expect(
      recordedVerdict('profile/market-required-members', answered('listMarkets', 200, body), {
        requiredMembers: { Vault: ['id'] },
      }),
    ).toBe('not applied')
    expect(recordedVerdict('profile/market-required-members', answered('listMarkets', 200, body), undefined)).toBe(
      'not applied',
    )
    expect(
      recordedVerdict(
        'profile/market-required-members',
        answered('listMarkets', 200, { data: [{ id: 'm1', activationDepthWad: '1' }] }),
        markets,
      ),
    ).toBe('holds')
  })

  test('name the record that lacks a member', () => {
    expect(
      recordedVerdict(
        'profile/balance-required-members',
        answered('listTraderBalances', 200, { data: [{ token: '0xa', account: 'x' }, { token: '0xb' }] }),
        { requiredMembers: { Balance: ['account'] } },
      ),
    ).toBe('balance 1 (token "0xb") has no account, which the profile says is required')
    expect(
      recordedVerdict('profile/vault-required-members', answered('getVault', 200, { data: { id: 'v' } }), {
        requiredMembers: { Vault: ['cumulativeDepositedTokens'] },
      }),
    ).toBe('the vault has no cumulativeDepositedTokens, which the profile says is required')
    expect(
      recordedVerdict('profile/pnl-required-members', answered('getTraderPnl', 200, { data: { funding: {} } }), {
        requiredMembers: { PnL: ['funding.receiverWad'] },
      }),
    ).toBe('the PnL has no funding.receiverWad, which the profile says is required')
  })

  test('the config schema judges a config body only where the profile gives one', () => {
    const values = { configSchema: 'reference-config.schema.json' }
    expect(recordedVerdict('profile/config-schema', answered('getConfig', 200, { chainId: 'one' }), values)).toBe(
      "configSchema must have required property 'interfaceVersion' (required at #/required)",
    )
    expect(
      recordedVerdict('profile/config-schema', answered('getConfig', 200, { chainId: 'one' }), { requiredMembers: {} }),
    ).toBe('not applied')
    expect(recordedVerdict('profile/config-schema', answered('getVault', 200, { chainId: 'one' }), values)).toBe(
      'not applied',
    )
  })
})

/** Lists ignore the page size asked when it passes the test (served as the page without one). */
function limitIgnoredWhen(test: (limit: string) => boolean): Behaviour {
  return {
    name: 'some-limits-ignored',
    description: 'lists ignore some page sizes',
    onRequest(request) {
      const limit = request.query.get('limit')
      if (isList(request) && limit !== null && test(limit)) request.query.delete('limit')
    },
  }
}

describe('whether a list reads the page-size parameter', () => {
  const id = 'profile/page-size-out-of-range'
  const values: ProfileValues = { pagination: { listMarkets: MARKETS_REJECT } }

  test('a list that refuses the sizes out of range reads it, though it ignores those in range', async () => {
    expect(
      verdict(await outcomeOf(id, values, [limitIgnoredWhen((limit) => /^([1-9]|1[0-9]|2[0-5])$/.test(limit))])),
    ).toBe('passed')
  })

  test('one size out of range answered otherwise than the page without one is enough', async () => {
    expect(
      verdict(await outcomeOf(id, values, [limitIgnoredWhen((limit) => /^([1-9]|1[0-9]|2[0-5]|abc)$/.test(limit))])),
    ).toBe('failed: listMarkets (1 to 25, reject) with limit=abc: got 200, not 400 or 422')
  })

  test('one size in range answered otherwise is enough', async () => {
    // 0, -1, 11, 1.5 and abc get the page without a size, as does 10; 1 and 5 do not.
    const ten: ProfileValues = {
      pagination: { listMarkets: { minPageSize: 1, maxPageSize: 10, outOfRange: 'reject' } },
    }
    expect(verdict(await outcomeOf(id, ten, [limitIgnoredWhen((limit) => !/^([1-9]|10)$/.test(limit))]))).toBe(
      'failed: listMarkets (1 to 10, reject) with limit=0: got 200, not 400 or 422',
    )
  })

  test('a status other than that of the page without a size is enough, when neither serves a page', async () => {
    const plainUnavailable = listAnswer('plain-500', (limit) => limit === null, 500, {
      error: 'internal',
      code: 'internal',
    })
    const everySizeRefused = listAnswer('sized-400', (limit) => limit !== null, 400, {
      error: 'invalid limit',
      code: 'invalid_limit',
    })
    expect(verdict(await outcomeOf(id, values, [plainUnavailable, everySizeRefused]))).toBe('passed')
  })
})

describe('records that are no objects', () => {
  test('a page whose data is a string has no data array', async () => {
    const values: ProfileValues = {
      pagination: { listMarkets: { minPageSize: 2, maxPageSize: 24, outOfRange: 'reject' } },
    }
    expect(
      verdict(
        await outcomeOf('profile/page-size-in-range', values, [
          listAnswer('24', (limit) => limit === '24', 200, { data: 'markets' }),
        ]),
      ),
    ).toBe('failed: listMarkets (2 to 24, reject) with limit=24: got 200, not 200 with a data array')
  })

  test('a vault that is a string, or a body that is null, is no record to judge', async () => {
    const skipped =
      'skipped: getVault answered no Vault object to judge (envelope/data and the shapes checks judge the body itself)'
    expect(
      verdict(
        await outcomeOf('profile/vault-required-members', REFERENCE_VALUES, [
          edited('getVault', (body) => {
            body.data = 'vault'
          }),
        ]),
      ),
    ).toBe(skipped)
    expect(
      verdict(await outcomeOf('profile/vault-required-members', REFERENCE_VALUES, [answer('getVault', 200, 'null')])),
    ).toBe(skipped)
  })

  test('a profile without requiredMembers, or none, states no member for the recorded judgement', () => {
    const body = { data: [{ id: 'm1' }] }
    expect(
      recordedVerdict('profile/market-required-members', answered('listMarkets', 200, body), {
        intentStates: ['open'],
      }),
    ).toBe('not applied')
    expect(recordedVerdict('profile/config-schema', answered('getConfig', 200, { chainId: 'one' }), undefined)).toBe(
      'not applied',
    )
  })
})

describe('the openapi checks report the findings of the published description as they are', () => {
  /** A hand-made context holding the judged description's findings; a failure rejects with its message. */
  const judged = (document: string[], compatibility: string[]) =>
    ({
      settings: {
        profile: {
          openapi: { source: 'x', findings: { document, compatibility, corpus: { accepted: 3, forbidden: 2 } } },
        },
      },
      fail: (message: string) => {
        throw new Error(message)
      },
    }) as unknown as CheckContext

  test('profile/openapi-document: the first problem, and the others after it', async () => {
    await expect(checkOf('profile/openapi-document').run(judged([], ['A']))).resolves.toBeUndefined()
    await expect(checkOf('profile/openapi-document').run(judged(['P'], []))).rejects.toThrow(/^P$/)
    await expect(checkOf('profile/openapi-document').run(judged(['P', 'Q', 'R'], []))).rejects.toThrow(
      /^P \(and 2 more: Q; R\)$/,
    )
  })

  test('profile/openapi-compatible: the first disagreement, how many more, and the corpus', async () => {
    await expect(checkOf('profile/openapi-compatible').run(judged(['P'], []))).resolves.toBeUndefined()
    await expect(checkOf('profile/openapi-compatible').run(judged([], ['A']))).rejects.toThrow(
      /^A; judged on 3 bodies the contract accepts and 2 it forbids$/,
    )
    await expect(checkOf('profile/openapi-compatible').run(judged([], ['A', 'B']))).rejects.toThrow(
      /^A \(and 1 more disagreements\); judged on 3 bodies the contract accepts and 2 it forbids$/,
    )
  })
})

test("a config body the profile's schema refuses is reported with its violations, named for the configSchema", () => {
  const exchange = answered('getConfig', 200, { chainId: 'one' })
  const settings = {
    profile: {
      source: 'test',
      baseDir: specPath('.'),
      values: { configSchema: 'reference-config.schema.json' },
      configSchema: configSchemaOf('reference-config.schema.json'),
    },
  }
  const finding = checkOf('profile/config-schema').recorded!.violation(
    exchange.response!,
    exchange,
    settings as never,
  ) as { violations: { schema: string; keyword: string }[] }
  expect(finding.violations.length).toBeGreaterThan(0)
  expect(finding.violations.map((v) => v.schema)).toEqual(finding.violations.map(() => 'configSchema'))
  expect(finding.violations[0]!.keyword).toBe('required')
})
