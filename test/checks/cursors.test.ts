import { describe, expect, test } from 'vitest'
import type { CheckId } from '../../src/contract/catalogue-ids.js'
import { otherTrader } from '../../src/checks/cursors.js'
import type { CheckContext } from '../../src/checks/types.js'
import type { Report } from '../../src/core/report.js'
import type { ReferenceData } from '../../src/reference/data.js'
import { findRoute } from '../../src/reference/handlers.js'
import { bodyOf, isOperation } from '../../src/reference/response-edits.js'
import type { Behaviour, RefRequest, RefResponse } from '../../src/reference/types.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'
import { outcomeWithBehaviours, outcomeWithInputs, runAgainstReference } from '../support/run.js'

/**
 * The cursor checks on answers scripted by hand: pages, cursors and refusals the plain reference and its named faults
 * never give, each making one branch of a check decide the verdict and its reason. Judged under mutation (npm run
 * mutation).
 */

type Edit = (response: RefResponse, request: RefRequest, data: ReferenceData) => void

/** A behaviour editing every answer of listMarkets. */
const onMarkets = (name: string, edit: Edit): Behaviour => ({
  name,
  description: name,
  onResponse: (response, request, data) =>
    isOperation(request, 'listMarkets') ? edit(response, request, data) : undefined,
})

/** The position a request's cursor carries, when the reference signed it. */
const positionOf = (request: RefRequest, data: ReferenceData) => data.cursors.read(request.query.get('cursor') ?? '')

/** The markets cursor that leads to the given offset, as the reference signs it. */
const marketsCursor = (data: ReferenceData, offset: number) =>
  data.cursors.encode({ operation: 'listMarkets', filter: '', offset })

/** The list a request addresses and the filter its cursors are bound to (the lower-case trader for balances). */
function listOf(request: RefRequest): { operation: string; filter: string } | undefined {
  const found = findRoute(request.path)
  if (!found || found === 'malformed') return undefined
  if (found.route.operation === 'listMarkets') return { operation: 'listMarkets', filter: '' }
  if (found.route.operation === 'listTraderBalances')
    return { operation: 'listTraderBalances', filter: found.params.address!.toLowerCase() }
  return undefined
}

/** An error answer of the contract's shape. */
function refuse(response: RefResponse, status: number, code: string): void {
  response.status = status
  response.body = {
    error: `scripted ${code}`,
    code,
    requestId: (bodyOf(response)?.requestId as string | undefined) ?? 'ref-0000000000000000',
  }
}

/** Markets as a list of only its first `count` items, paged as the reference pages (10 unless ?limit= asks fewer). */
function shortMarkets(count: number): Behaviour {
  return onMarkets(`markets-of-${count}`, (response, request, data) => {
    const body = response.status === 200 ? bodyOf(response) : undefined
    if (!body) return
    const offset = positionOf(request, data)?.offset ?? 0
    const limit = Number(request.query.get('limit') ?? 10)
    body.data = data.markets.slice(0, count).slice(offset, offset + limit)
    if (offset + limit < count) body.cursor = marketsCursor(data, offset + limit)
    else delete body.cursor
  })
}

function reportOf(behaviours: Behaviour[], only: CheckId[], settings = {}): Promise<Report> {
  return runAgainstReference({ behaviours }, settings, { only })
}

function outcomeIn(report: Report, id: string) {
  const outcome = report.checks.find((c) => c.id === id)
  if (!outcome) throw new Error(`${id} is not in the report`)
  return { status: outcome.status, reason: outcome.reason, crashed: outcome.crashed ?? false }
}

describe('cursors/issued-cursor-opaque', () => {
  test('fails a signed bare integer cursor ("+1020", no market ID) as a bare integer', async () => {
    const signed: Behaviour = {
      name: 'markets-signed-integer-cursor',
      description: 'Markets cursors are the offset plus 1010 with a plus sign, and such a cursor is accepted.',
      onRequest(request, data) {
        // A + the client did not percent-encode reads as a space.
        const match = /^[+ ]([0-9]+)$/.exec(request.query.get('cursor') ?? '')
        if (match && request.path === '/v1/markets')
          request.query.set('cursor', marketsCursor(data, Number(match[1]) - 1010))
      },
      onResponse(response, request, data) {
        const body = isOperation(request, 'listMarkets') ? bodyOf(response) : undefined
        const position = typeof body?.cursor === 'string' ? data.cursors.read(body.cursor) : undefined
        if (position) body!.cursor = `+${position.offset + 1010}`
      },
    }
    const outcome = await outcomeWithBehaviours(['cursors/issued-cursor-opaque'], [signed])
    expect(outcome.status, outcome.reason).toBe('failed')
    expect(outcome.reason).toBe(
      'cursor is not opaque: listMarkets issued "+1020", a bare integer, which a client could build',
    )
  })

  test('passes a cursor that is not a string: cursors/cursor-is-string judges it', async () => {
    const report = await reportOf(
      [numberCursor(['listMarkets'])],
      [
        'cursors/issued-cursor-opaque',
        'cursors/cursor-is-string',
        'cursors/markets-walk-ends',
        'cursors/hand-built-cursor-refused',
        'cursors/cursor-bound-to-operation',
      ],
    )
    expect(outcomeIn(report, 'cursors/issued-cursor-opaque')).toEqual({
      status: 'passed',
      reason: undefined,
      crashed: false,
    })
    expect(outcomeIn(report, 'cursors/cursor-is-string')).toEqual({
      status: 'failed',
      reason: 'page 1 of listMarkets carries a cursor of type number: 10',
      crashed: false,
    })
    expect(outcomeIn(report, 'cursors/markets-walk-ends')).toEqual({
      status: 'skipped',
      reason:
        'page 1 carries a cursor that is not a string, so the walk cannot go on (cursors/cursor-is-string reports it)',
      crashed: false,
    })
    // The balances cursor is still there to judge.
    expect(outcomeIn(report, 'cursors/hand-built-cursor-refused')).toEqual({
      status: 'passed',
      reason: undefined,
      crashed: false,
    })
    expect(outcomeIn(report, 'cursors/cursor-bound-to-operation')).toEqual({
      status: 'skipped',
      reason: 'only listTraderBalances has a cursor, so there is no cursor of another list operation to send',
      crashed: false,
    })
  })
})

/** Both lists' cursors as numbers (the offset) instead of strings. */
function numberCursor(operations: string[]): Behaviour {
  return {
    name: 'cursor-as-number',
    description: 'List cursors are the next offset as a JSON number.',
    onResponse(response, request, data) {
      const body = operations.some((op) => isOperation(request, op)) ? bodyOf(response) : undefined
      const position = typeof body?.cursor === 'string' ? data.cursors.read(body.cursor) : undefined
      if (position) body!.cursor = position.offset
    },
  }
}

describe('the first cursors the checks that send cursors start from', () => {
  test('none that is a string: the check is skipped, naming each list', async () => {
    const outcome = await outcomeWithBehaviours(
      ['cursors/hand-built-cursor-refused'],
      [numberCursor(['listMarkets', 'listTraderBalances'])],
    )
    expect(outcome.status, outcome.reason).toBe('skipped')
    expect(outcome.reason).toBe(
      'the first cursor of listMarkets is not a string; the first cursor of listTraderBalances is not a string',
    )
  })

  test('none that leads to a page (500): the check is skipped, naming each list and what came', async () => {
    const failing: Behaviour = {
      name: 'cursor-pages-500',
      description: 'Every list page asked with a cursor is answered 500.',
      onResponse: (response, request) =>
        listOf(request) && request.query.has('cursor') ? refuse(response, 500, 'internal') : undefined,
    }
    const outcome = await outcomeWithBehaviours(['cursors/hand-built-cursor-refused'], [failing])
    expect(outcome.status, outcome.reason).toBe('skipped')
    expect(outcome.reason).toBe(
      'following the first cursor of listMarkets came with status 500, not 200; following the first cursor of listTraderBalances came with status 500, not 200',
    )
  })
})

describe('cursors/markets-walk-ends: how the first pages decide whether the list can be walked', () => {
  test('a first page answered 500 leaves no cursor to follow (no page size is asked for instead)', async () => {
    const failing = onMarkets('first-page-500', (response, request) =>
      [...request.query.keys()].length === 0 ? refuse(response, 500, 'internal') : undefined,
    )
    const outcome = await outcomeWithBehaviours(['cursors/markets-walk-ends'], [failing])
    expect(outcome.status, outcome.reason).toBe('skipped')
    expect(outcome.reason).toBe(
      'the first page of listMarkets came with status 500, not 200, so there is no cursor to follow',
    )
  })

  test('a first page that is not JSON has no data array', async () => {
    const garbled = onMarkets('first-page-not-json', (response, request) => {
      if (!request.query.has('cursor')) response.raw = 'markets follow'
    })
    const outcome = await outcomeWithBehaviours(['cursors/markets-walk-ends'], [garbled])
    expect(outcome.status, outcome.reason).toBe('skipped')
    expect(outcome.reason).toBe(
      'the first page of listMarkets came with no data array, so there is no cursor to follow',
    )
  })

  test('a list of one item has no cursor: it does not paginate', async () => {
    const outcome = await outcomeWithBehaviours(['cursors/markets-walk-ends'], [shortMarkets(1)])
    expect(outcome.status, outcome.reason).toBe('skipped')
    expect(outcome.reason).toBe(
      'listMarkets does not paginate: its first page carries no cursor (nor when asked for half its items through the page-size parameter)',
    )
  })

  test('a list of two items on one page is asked for one item a page, and walked', async () => {
    const outcome = await outcomeWithBehaviours(['cursors/markets-walk-ends'], [shortMarkets(2)])
    expect(outcome.status, outcome.reason).toBe('passed')
  })

  test('a first cursor refused with 400 is a cursor parameter the list does not read', async () => {
    const unread: Behaviour = {
      name: 'markets-cursor-refused',
      description: 'Markets refuse every cursor as invalid.',
      onRequest: (request) =>
        request.path === '/v1/markets' && request.query.has('cursor')
          ? request.query.set('cursor', 'unread')
          : undefined,
    }
    const outcome = await outcomeWithBehaviours(['cursors/markets-walk-ends'], [unread])
    expect(outcome.status, outcome.reason).toBe('skipped')
    expect(outcome.reason).toBe(
      'listMarkets ignores ?cursor= (its first cursor sent there was refused with 400) — set --cursor-param (the contract does not show its name)',
    )
  })

  test('empty pages that carry a cursor are walked through, not taken for a page served again', async () => {
    // The first page and the page its cursor leads to are both empty, with cursors; then the list from its start.
    const empty = onMarkets('markets-empty-pages-first', (response, request, data) => {
      const body = response.status === 200 ? bodyOf(response) : undefined
      if (!body) return
      const offset = positionOf(request, data)?.offset
      if (offset !== undefined && offset !== 500) return
      body.data = []
      body.cursor = marketsCursor(data, offset === undefined ? 500 : 0)
    })
    const report = await reportOf([empty], ['cursors/markets-walk-ends', 'cursors/hand-built-cursor-refused'])
    expect(outcomeIn(report, 'cursors/markets-walk-ends')).toEqual({
      status: 'passed',
      reason: undefined,
      crashed: false,
    })
    // A first page without items has no identifiers to build cursors of.
    expect(outcomeIn(report, 'cursors/hand-built-cursor-refused')).toEqual({
      status: 'passed',
      reason: undefined,
      crashed: false,
    })
  })
})

describe('cursors/markets-walk-ends: following the cursor', () => {
  test('a last page whose cursor is null ends the walk', async () => {
    const nullCursor = onMarkets('markets-null-last-cursor', (response) => {
      const body = response.status === 200 ? bodyOf(response) : undefined
      if (body && body.cursor === undefined) body.cursor = null
    })
    const report = await reportOf([nullCursor], ['cursors/markets-walk-ends', 'cursors/cursor-is-string'])
    expect(outcomeIn(report, 'cursors/markets-walk-ends')).toEqual({
      status: 'passed',
      reason: undefined,
      crashed: false,
    })
    expect(outcomeIn(report, 'cursors/cursor-is-string')).toEqual({
      status: 'passed',
      reason: undefined,
      crashed: false,
    })
  })

  test('a second page answered 201 with its page intact fails the walk: a list page is a 200, the status it declares', async () => {
    const created = onMarkets('markets-second-page-201', (response, request) => {
      if (request.query.has('cursor')) response.status = 201
    })
    const outcome = await outcomeWithBehaviours(['cursors/markets-walk-ends'], [created])
    expect(outcome.status, outcome.reason).toBe('failed')
    expect(outcome.reason).toBe('page 2 of listMarkets, following the cursor of page 1, came with status 201, not 200')
  })

  test('a second page answered 500, and 500 again on the retry, fails the walk, with that page as evidence (the page already asked for is not asked again)', async () => {
    let failures = 0
    const twice = onMarkets('markets-second-page-500-twice', (response, request) => {
      if (!request.query.has('cursor') || failures >= 2) return
      failures++
      refuse(response, 500, 'internal')
    })
    const outcome = await outcomeWithBehaviours(['cursors/markets-walk-ends'], [twice])
    expect(outcome.status, outcome.reason).toBe('failed')
    expect(outcome.reason).toBe('page 2 of listMarkets, following the cursor of page 1, came with status 500, not 200')
    expect(outcome.evidence?.response?.status).toBe(500)
    expect(outcome.evidence?.retries?.map((r) => r.status)).toEqual([500])
  })

  test('a second page answered 500 once is sent again, and the walk is judged by the second answer', async () => {
    let failed = false
    const once = onMarkets('markets-second-page-500-once', (response, request) => {
      if (!request.query.has('cursor') || failed) return
      failed = true
      refuse(response, 500, 'internal')
    })
    const outcome = await outcomeWithBehaviours(['cursors/markets-walk-ends'], [once])
    expect(outcome.status, outcome.reason).toBe('passed')
    expect(outcome.retried).toBe(true)
  })

  test('a second page without a data array fails the walk', async () => {
    const noData = onMarkets('markets-second-page-without-data', (response, request) => {
      if (request.query.has('cursor')) delete bodyOf(response)!.data
    })
    const outcome = await outcomeWithBehaviours(['cursors/markets-walk-ends'], [noData])
    expect(outcome.status, outcome.reason).toBe('failed')
    expect(outcome.reason).toBe('page 2 of listMarkets, following the cursor of page 1, came with no data array')
  })

  test('a walk is judged up to --max-pages: 5 pages pass, 4 are not judged', async () => {
    const bounded = await outcomeWithBehaviours(['cursors/markets-walk-ends'], [], { maxPages: 4 })
    expect(bounded.status, bounded.reason).toBe('skipped')
    expect(bounded.reason).toBe(
      'no last page within 4 pages (--max-pages) and no page came again: the list may be longer, so the walk is not judged',
    )
    const whole = await outcomeWithBehaviours(['cursors/markets-walk-ends'], [], { maxPages: 5 })
    expect(whole.status, whole.reason).toBe('passed')
  })

  test('a cursor that does not advance fails the walk at once: a third page that is the second again, within --max-pages 3', async () => {
    const stuck = onMarkets('markets-second-page-cursor-to-itself', (response, request, data) => {
      const body = response.status === 200 ? bodyOf(response) : undefined
      if (body && positionOf(request, data)?.offset === 10) body.cursor = marketsCursor(data, 10)
    })
    for (const maxPages of [3, 20]) {
      const outcome = await outcomeWithBehaviours(['cursors/markets-walk-ends'], [stuck], { maxPages })
      expect(outcome.status, `--max-pages ${maxPages}: ${outcome.reason}`).toBe('failed')
      expect(outcome.reason).toBe(
        'page 3 holds the same items as page 2 and carries a cursor again: the walk has come round and never reaches a last page',
      )
    }
  })

  test('a third page that is the first again, with a cursor, fails the walk with the third page as evidence', async () => {
    const back = onMarkets('markets-second-page-cursor-to-start', (response, request, data) => {
      const body = response.status === 200 ? bodyOf(response) : undefined
      if (body && positionOf(request, data)?.offset === 10) body.cursor = marketsCursor(data, 0)
    })
    const outcome = await outcomeWithBehaviours(['cursors/markets-walk-ends'], [back])
    expect(outcome.status, outcome.reason).toBe('failed')
    expect(outcome.reason).toBe(
      'page 3 holds the same items as page 1 and carries a cursor again: the walk has come round and never reaches a last page',
    )
    expect(outcome.evidence?.response?.bodyExcerpt, 'page 3 is the first page again').toContain('"id":"1"')
  })
})

describe('cursors/items-unique: the identity of an item', () => {
  test('items without the identity member are told apart by their whole value', async () => {
    const anonymous = onMarkets('markets-without-id', (response) => {
      const items = response.status === 200 ? bodyOf(response)?.data : undefined
      if (Array.isArray(items))
        bodyOf(response)!.data = items.map(({ id: _, ...rest }: Record<string, unknown>) => rest)
    })
    const outcome = await outcomeWithBehaviours(['cursors/items-unique'], [anonymous])
    expect(outcome.status, outcome.reason).toBe('passed')
  })

  test('a null item on two pages is the same item', async () => {
    const nulls = onMarkets('markets-null-item-on-every-page', (response) => {
      const items = response.status === 200 ? bodyOf(response)?.data : undefined
      if (Array.isArray(items)) items.push(null)
    })
    const outcome = await outcomeWithBehaviours(['cursors/items-unique'], [nulls])
    expect(outcome.status, outcome.reason).toBe('failed')
    expect(outcome.reason).toBe('page 2 of listMarkets repeats the market with id null, already met in the walk')
  })
})

describe('profile/max-page-walk-ends', () => {
  test('a first page at the maximum page size that is refused is no walk: skipped', async () => {
    const refused = onMarkets('markets-max-page-size-refused', (response, request) =>
      request.query.get('limit') === '25' ? refuse(response, 400, 'invalid_limit') : undefined,
    )
    const outcome = await outcomeWithBehaviours(['profile/max-page-walk-ends'], [refused])
    expect(outcome.status, outcome.reason).toBe('skipped')
    expect(outcome.reason).toBe(
      'the first page of listMarkets with limit=25 came with status 400, not 200, so there is no walk to follow',
    )
  })
})

describe('cursors/tampered-cursor-rejected', () => {
  test('a tampering that leaves the issued cursor as it was is skipped, and counted in a failure', async () => {
    // Cursors are "NaN" (an offset gone wrong) and taken back as the page after the first; "N" gets a 500.
    const nan: Behaviour = {
      name: 'cursor-nan',
      description: 'The cursor of every first page is "NaN"; a cursor "N" is answered 500.',
      onRequest(request, data) {
        const list = listOf(request)
        if (list && request.query.get('cursor') === 'NaN')
          request.query.set('cursor', data.cursors.encode({ ...list, offset: 10 }))
      },
      onResponse(response, request, data) {
        if (!listOf(request)) return
        if (request.query.get('cursor') === 'N') return refuse(response, 500, 'internal')
        const body = bodyOf(response)
        const position = typeof body?.cursor === 'string' ? data.cursors.read(body.cursor) : undefined
        if (position?.offset === 10) body!.cursor = 'NaN'
      },
    }
    const outcome = await outcomeWithBehaviours(['cursors/tampered-cursor-rejected'], [nan])
    expect(outcome.status, outcome.reason).toBe('failed')
    expect(outcome.reason).toMatch(
      /^listMarkets with the tampered cursor "N": status 500, expected a 4xx; coverage input 0 \(cut to one character\) .*; 1 coverage inputs skipped \(random text equal to the issued cursor, so not tampered\)\)$/,
    )
  })
})

describe('cursors/hand-built-cursor-refused', () => {
  test('a hand-built offset answered with another 2xx (299) is accepted', async () => {
    const accepted = onMarkets('markets-offset-1-299', (response, request) => {
      if (request.query.get('cursor') === '1')
        Object.assign(response, { status: 299, body: { data: [], requestId: bodyOf(response)?.requestId } })
    })
    const outcome = await outcomeWithBehaviours(['cursors/hand-built-cursor-refused'], [accepted])
    expect(outcome.status, outcome.reason).toBe('failed')
    expect(outcome.reason).toMatch(
      /^cursor is not opaque: listMarkets accepted the hand-built cursor "1" with status 299; coverage input/,
    )
  })

  test('a hand-built offset answered 300, the first status past the 2xx, is not accepted', async () => {
    const redirected = onMarkets('markets-offset-1-300', (response, request) => {
      if (request.query.get('cursor') === '1')
        Object.assign(response, { status: 300, body: { data: [], requestId: bodyOf(response)?.requestId } })
    })
    const outcome = await outcomeWithBehaviours(['cursors/hand-built-cursor-refused'], [redirected])
    expect(outcome.status, outcome.reason).toBe('passed')
  })

  test('an offset beyond the coverage cases (21 to 100) is found among the generated offsets', async () => {
    const offsets: Behaviour = {
      name: 'markets-far-offsets',
      description: 'Markets take a bare integer from 21 to 100 as an offset.',
      onRequest(request, data) {
        const cursor = request.query.get('cursor') ?? ''
        if (
          request.path === '/v1/markets' &&
          /^[1-9][0-9]*$/.test(cursor) &&
          Number(cursor) >= 21 &&
          Number(cursor) <= 100
        )
          request.query.set('cursor', marketsCursor(data, Number(cursor)))
      },
    }
    const outcome = await outcomeWithBehaviours(['cursors/hand-built-cursor-refused'], [offsets], { runs: 40 })
    expect(outcome.status, outcome.reason).toBe('failed')
    expect(outcome.reason).toMatch(
      /^cursor is not opaque: listMarkets accepted the hand-built cursor "([2-9][0-9]|100)" with status 200; /,
    )
  })

  test("an item's identifier beyond the first three is found among the generated identifiers", async () => {
    const tokens: Behaviour = {
      name: 'balances-token-cursor',
      description: 'Balances take the token of the 4th to 10th balance as a cursor.',
      onRequest(request, data) {
        const list = listOf(request)
        const token = request.query.get('cursor')
        if (list?.operation !== 'listTraderBalances' || token === null) return
        const index = (data.balances.get(list.filter) ?? []).findIndex((balance) => balance.token === token)
        if (index >= 3 && index < 10) request.query.set('cursor', data.cursors.encode({ ...list, offset: index + 1 }))
      },
    }
    const outcome = await outcomeWithBehaviours(['cursors/hand-built-cursor-refused'], [tokens], { runs: 40 })
    expect(outcome.status, outcome.reason).toBe('failed')
    expect(outcome.reason).toMatch(
      /^cursor is not opaque: listTraderBalances accepted the hand-built cursor "0x[0-9a-f]{40}" with status 200; /,
    )
  })

  test('an empty cursor taken as no cursor is no hand-built cursor: never sent', async () => {
    const empty = onMarkets('markets-empty-cursor-first-page', () => undefined)
    empty.onRequest = (request) => (request.query.get('cursor') === '' ? request.query.delete('cursor') : undefined)
    const outcome = await outcomeWithBehaviours(['cursors/hand-built-cursor-refused'], [empty], { runs: 100 })
    expect(outcome.status, outcome.reason).toBe('passed')
  })
})

describe('cursors/cursor-bound-to-trader', () => {
  const unknown = `0x${'0e'.repeat(20)}`

  test('is skipped as inconclusive when the other trader is answered 404 without a cursor too', async () => {
    const outcome = await outcomeWithBehaviours(['cursors/cursor-bound-to-trader'], [], { secondTrader: unknown })
    expect(outcome.status, outcome.reason).toBe('skipped')
    expect(outcome.reason).toBe(
      `the balances of ${unknown} are answered 404 without a cursor too: the trader is unknown here, so the cursor was never read (inconclusive; give --second-trader, a trader with balances)`,
    )
  })

  test('passes a cursor refused with 400 before the trader is looked up', async () => {
    const cursorFirst: Behaviour = {
      name: 'balances-cursor-read-before-trader',
      description: 'Balances read the cursor before the trader: a foreign cursor gets 400 even for an unknown trader.',
      onResponse: (response, request) =>
        isOperation(request, 'listTraderBalances') && response.status === 404 && request.query.has('cursor')
          ? refuse(response, 400, 'cursor_mismatch')
          : undefined,
    }
    const outcome = await outcomeWithBehaviours(['cursors/cursor-bound-to-trader'], [cursorFirst], {
      secondTrader: unknown,
    })
    expect(outcome.status, outcome.reason).toBe('passed')
  })
})

describe('otherTrader: a trader other than the configured one', () => {
  const trader = `0x${'aa'.repeat(20)}`
  const other = `0x${'bb'.repeat(20)}`
  const intent = { hash: `0x${'11'.repeat(32)}`, receipt: 'rcpt_1' }
  const secondIntent = { hash: `0x${'22'.repeat(32)}`, receipt: 'rcpt_2' }

  /** A context answering getIntentStatus for each hash with the response given, and recording what it was asked. */
  function contextOf(
    settings: Record<string, unknown>,
    answers: Record<string, ReturnType<typeof responseOf> | undefined>,
  ) {
    const calls: unknown[] = []
    const ctx = {
      settings: { trader, ...settings },
      call: async (operation: string, options: { params: { hash: string }; query: Record<string, string> }) => {
        calls.push({ operation, ...options })
        return exchangeOf(answers[options.params.hash], { operation })
      },
      skip: (reason: string) => {
        throw new Error(`skipped: ${reason}`)
      },
    } as unknown as CheckContext
    return { ctx, calls }
  }
  const order = (of: string) => responseOf(200, {}, { orderHash: intent.hash, state: 'pending', order: { trader: of } })

  test('is the trader of an order among the intents given, passed over the configured one in another letter case', async () => {
    const { ctx, calls } = contextOf(
      { intent, secondIntent },
      { [intent.hash]: order(trader.toUpperCase().replace('0X', '0x')), [secondIntent.hash]: order(other) },
    )
    expect(await otherTrader(ctx)).toBe(other)
    expect(calls).toEqual([
      { operation: 'getIntentStatus', params: { hash: intent.hash }, query: { receipt: intent.receipt } },
      { operation: 'getIntentStatus', params: { hash: secondIntent.hash }, query: { receipt: secondIntent.receipt } },
    ])
  })

  test('asks only for the intents given, and reads past answers without an order or without JSON', async () => {
    const { ctx, calls } = contextOf({ secondIntent }, { [secondIntent.hash]: order(other) })
    expect(await otherTrader(ctx)).toBe(other)
    expect(calls).toHaveLength(1)
    const refused = contextOf(
      { intent, secondIntent },
      {
        [intent.hash]: responseOf(404, {}, { error: 'not found', code: 'not_found' }),
        [secondIntent.hash]: responseOf(502),
      },
    )
    await expect(otherTrader(refused.ctx)).rejects.toThrow(
      "skipped: no other trader is known: give --second-trader (a trader with balances); the orders of the intents given are all the configured trader's",
    )
  })

  test('is --second-trader when it is another trader', async () => {
    const { ctx, calls } = contextOf({ secondTrader: other, intent }, {})
    expect(await otherTrader(ctx)).toBe(other)
    expect(calls).toEqual([])
  })
})

describe('the lists a run reads', () => {
  test('without a trader, only markets are walked', async () => {
    const outcome = await outcomeWithInputs('cursors/items-unique', (server) => ({ apiKey: server.data.apiKey }))
    expect(outcome.status, outcome.reason).toBe('passed')
  })
})

/** An answer the client cannot read: Content-Length and Transfer-Encoding both, so the exchange has no response. */
const unreadable = (response: RefResponse) => {
  response.headers['transfer-encoding'] = 'chunked'
}
const NO_RESPONSE = 'no response (the response is not valid HTTP/1.1)'

describe('answers the client cannot read', () => {
  test('a first page with no response leaves no cursor to follow', async () => {
    const outcome = await outcomeWithBehaviours(
      ['cursors/markets-walk-ends'],
      [
        onMarkets('markets-first-page-unreadable', (response, request) =>
          request.query.has('cursor') ? undefined : unreadable(response),
        ),
      ],
    )
    expect(outcome.status, outcome.reason).toBe('skipped')
    expect(outcome.reason).toBe(
      `the first page of listMarkets came with ${NO_RESPONSE}, so there is no cursor to follow`,
    )
  })

  test('a second page with no response fails the walk', async () => {
    const outcome = await outcomeWithBehaviours(
      ['cursors/markets-walk-ends'],
      [
        onMarkets('markets-cursor-pages-unreadable', (response, request) =>
          request.query.has('cursor') ? unreadable(response) : undefined,
        ),
      ],
    )
    expect(outcome.status, outcome.reason).toBe('failed')
    expect(outcome.reason).toBe(`page 2 of listMarkets, following the cursor of page 1, came with ${NO_RESPONSE}`)
  })

  test('a hand-built cursor with no response is not accepted', async () => {
    const outcome = await outcomeWithBehaviours(
      ['cursors/hand-built-cursor-refused'],
      [
        onMarkets('markets-offset-1-unreadable', (response, request) =>
          request.query.get('cursor') === '1' ? unreadable(response) : undefined,
        ),
      ],
    )
    expect(outcome.status, outcome.reason).toBe('passed')
  })

  test('a balances cursor sent for another trader with no response is no refusal', async () => {
    const behaviour: Behaviour = {
      name: 'other-trader-cursor-unreadable',
      description: 'Balances asked with a cursor for a trader it was not issued for get no readable answer.',
      onResponse: (response, request) =>
        isOperation(request, 'listTraderBalances') && response.status === 400 ? unreadable(response) : undefined,
    }
    const outcome = await outcomeWithBehaviours(['cursors/cursor-bound-to-trader'], [behaviour])
    expect(outcome.status, outcome.reason).toBe('failed')
    expect(outcome.reason).toMatch(
      new RegExp(
        `^balances of 0x[0-9a-f]{40} with a cursor issued for the configured trader: ${NO_RESPONSE.replace(/[()]/g, '\\$&')}$`,
      ),
    )
  })

  test('an unknown trader whose balances without a cursor get no response is not taken for unknown', async () => {
    const unknown = `0x${'0e'.repeat(20)}`
    const behaviour: Behaviour = {
      name: 'unknown-trader-unreadable-without-cursor',
      description: 'Balances of an unknown trader asked without a cursor get no readable answer.',
      onResponse: (response, request) =>
        isOperation(request, 'listTraderBalances') && response.status === 404 && !request.query.has('cursor')
          ? unreadable(response)
          : undefined,
    }
    const outcome = await outcomeWithBehaviours(['cursors/cursor-bound-to-trader'], [behaviour], {
      secondTrader: unknown,
    })
    expect(outcome.status, outcome.reason).toBe('passed')
  })
})
