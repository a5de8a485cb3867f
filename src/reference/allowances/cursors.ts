import type { CheckId } from '../../contract/catalogue-ids.js'
import { createHash, randomBytes } from 'node:crypto'
import { bodyOf, isOperation } from '../response-edits.js'
import type { ReferenceData } from '../data.js'
import type { Allowance, RefRequest, RefResponse } from '../types.js'

const isList = (request: RefRequest) => /^\/v1\/(?:markets|traders\/[^/]+\/balances)$/.test(request.path)

/**
 * A list reads the deployment's parameter under the name the reference handler knows, and ignores that name when sent.
 */
function takeListParameterAs(request: RefRequest, deploymentName: string, referenceName: string): void {
  if (!isList(request)) return
  const value = request.query.get(deploymentName)
  request.query.delete(referenceName)
  if (value !== null) request.query.set(referenceName, value)
}

/**
 * The items of the list a request reads, and the filter its cursors are bound to (the lower-case trader for balances).
 */
function listRead(request: RefRequest, data: ReferenceData): { items: unknown[]; filter: string } | undefined {
  if (isOperation(request, 'listMarkets')) return { items: data.markets, filter: '' }
  if (!isOperation(request, 'listTraderBalances')) return undefined
  const trader = request.route!.params.address!.toLowerCase()
  const items = data.balances.get(trader)
  return items && { items, filter: trader }
}

/**
 * The profile's pagination checks: an allowance that pages otherwise leaves the profile without the reference's
 * pagination facts.
 */
const PAGE_SIZE_PROFILE_CHECKS: readonly CheckId[] = [
  'profile/max-page-walk-ends',
  'profile/page-size-honoured',
  'profile/page-size-in-range',
  'profile/page-size-out-of-range',
]
const WALK_CHECKS: readonly CheckId[] = ['cursors/balances-walk-ends', 'cursors/markets-walk-ends']
/**
 * A list paged under other parameter names than the run's: every check that reads or sends a cursor has nothing to
 * judge.
 */
const OTHER_PARAMETER_NAME_SKIPS: readonly CheckId[] = [
  ...WALK_CHECKS,
  'cursors/cursor-bound-to-operation',
  'cursors/cursor-bound-to-trader',
  'cursors/cursor-is-string',
  'cursors/hand-built-cursor-refused',
  'cursors/issued-cursor-opaque',
  'cursors/items-unique',
  'cursors/tampered-cursor-rejected',
  ...PAGE_SIZE_PROFILE_CHECKS,
]

/** Lists serving every item unless asked for fewer with ?page_size=; ?limit= is ignored. */
const limitParamPageSize: Allowance = {
  name: 'cursors-limit-param-page-size',
  description:
    'Lists serve every item on one page unless asked for fewer with ?page_size=, and ignore ?limit= (the page-size parameter name is not shown).',
  permittedBy: 'EP-LIST-QUERY',
  skips: OTHER_PARAMETER_NAME_SKIPS,
  profileWithout: ['pagination'],
  onRequest: (request) => takeListParameterAs(request, 'page_size', 'limit'),
  onResponse(response, request, data) {
    const body = response.status === 200 ? bodyOf(response) : undefined
    const list = listRead(request, data)
    if (!list || !body || request.query.has('limit') || request.query.has('cursor')) return
    body.data = list.items
    delete body.cursor
  },
}

/** The page a stateful cursor stands for, per reference server: token to the signed cursor of its next page. */
const sessions = new WeakMap<ReferenceData, Map<string, string>>()
/** The token a request sent, between its onRequest and its onResponse. */
const tokensSent = new WeakMap<RefRequest, string>()

function sessionsOf(data: ReferenceData): Map<string, string> {
  let map = sessions.get(data)
  if (!map) sessions.set(data, (map = new Map()))
  return map
}

/** One opaque token per walk, the same on every page; the server keeps where the walk is. */
const statefulCursor: Allowance = {
  name: 'cursors-stateful-token',
  description:
    'A list walk has one opaque cursor: the first page issues a token, every later page carries the same token, and the server keeps the position (cursors are opaque, "never compare cursors", and a walk ends where the cursor is missing or null).',
  permittedBy: 'ENV-CURSOR-END',
  onRequest(request, data) {
    const token = isList(request) ? request.query.get('cursor') : null
    const position = token === null ? undefined : sessionsOf(data).get(token)
    if (token === null || position === undefined) return
    tokensSent.set(request, token)
    request.query.set('cursor', position)
  },
  onResponse(response: RefResponse, request, data) {
    const body = isList(request) && response.status === 200 ? bodyOf(response) : undefined
    if (!body) return
    const map = sessionsOf(data)
    const sent = tokensSent.get(request)
    if (typeof body.cursor !== 'string') {
      if (sent !== undefined) map.delete(sent)
      return
    }
    const token = sent ?? `walk_${randomBytes(16).toString('base64url')}`
    map.set(token, body.cursor)
    body.cursor = token
  },
}

/** A short tag of the key a request carries (none included), so that a cursor names its key without carrying it. */
const keyTag = (key: string | undefined) =>
  createHash('sha256')
    .update(key ?? '')
    .digest('base64url')
    .slice(0, 10)
/** Why a request's cursor is refused, between its onRequest and its onResponse. */
const refusedCursors = new WeakMap<RefRequest, 'invalid_cursor' | 'cursor_mismatch'>()

/**
 * Each cursor is bound to the key it was issued to (its tag after a "~"): presented with any other key, or with none,
 * it is refused before authentication, 403 where the request carries a key and 400 where it carries none.
 */
const cursorBoundToKey: Allowance = {
  name: 'cursor-refused-with-another-key',
  description:
    'A cursor is bound to the key it was issued to: presented with another key it is refused with 403, without a key with 400, before the key itself is looked at (the contract binds a cursor to its operation and filters and says nothing of keys).',
  permittedBy: 'ENV-CURSOR-REJECT-FOREIGN',
  onRequest(request) {
    const sent = isList(request) ? request.query.get('cursor') : null
    if (sent === null) return
    const at = sent.lastIndexOf('~')
    if (at < 0) {
      refusedCursors.set(request, 'invalid_cursor')
      return
    }
    if (sent.slice(at + 1) !== keyTag(request.headers['x-api-key'])) refusedCursors.set(request, 'cursor_mismatch')
    request.query.set('cursor', sent.slice(0, at))
  },
  onResponse(response, request) {
    const refusal = refusedCursors.get(request)
    // A quota or a failure of the service comes first.
    if (refusal && response.status !== 429 && response.status < 500) {
      const key = request.headers['x-api-key']
      response.status = refusal === 'cursor_mismatch' && key !== undefined ? 403 : 400
      response.body = {
        error: refusal === 'cursor_mismatch' ? 'the cursor was issued to another key' : 'cursor is not valid',
        code: refusal,
        requestId: response.headers['x-request-id'],
      }
      return
    }
    const body = isList(request) && response.status === 200 ? bodyOf(response) : undefined
    if (typeof body?.cursor === 'string') body.cursor = `${body.cursor}~${keyTag(request.headers['x-api-key'])}`
  },
}

export const cursorsAllowances: readonly Allowance[] = [
  {
    name: 'cursors-empty-last-page',
    description: 'The page with the last items still carries a cursor; following it gives an empty page without one.',
    permittedBy: 'ENV-CURSOR-END',
    onResponse(response, request, data) {
      const body = response.status === 200 ? bodyOf(response) : undefined
      const list = listRead(request, data)
      if (list && Array.isArray(body?.data) && body.data.length > 0 && body.cursor === undefined) {
        body.cursor = data.cursors.encode({
          operation: request.route!.operation,
          filter: list.filter,
          offset: list.items.length,
        })
      }
    },
  },
  {
    name: 'cursors-cursor-param-page-token',
    description:
      'Lists take their cursor as ?page_token= and ignore ?cursor= (the cursor parameter name is not shown).',
    permittedBy: 'EP-LIST-QUERY',
    // A walk that sends ?cursor= gets the first page again: it never reaches the last page, so no walk is compared.
    skips: [...OTHER_PARAMETER_NAME_SKIPS, 'relations/list-walks-agree'],
    // The reference's pagination facts are stated for ?cursor= and ?limit=; a deployment paging otherwise would state
    // them for its own names.
    profileWithout: ['pagination'],
    onRequest: (request) => takeListParameterAs(request, 'page_token', 'cursor'),
  },
  limitParamPageSize,
  {
    ...limitParamPageSize,
    name: 'page-size-param-named-otherwise-profile-stated',
    description: `${limitParamPageSize.description} The profile states the page-size bounds all the same (for the deployment's own parameter), and the run is not told its name (no --limit-param).`,
    // The page-size checks show first that the list reads the run's page-size parameter; this one does not, so they
    // have nothing to judge.
    profileWithout: undefined,
    skips: [
      ...OTHER_PARAMETER_NAME_SKIPS.filter((id) => !PAGE_SIZE_PROFILE_CHECKS.includes(id)),
      'profile/page-size-honoured',
      'profile/page-size-out-of-range',
    ],
  },
  statefulCursor,
  cursorBoundToKey,
  {
    name: 'cursors-long-list',
    description:
      "Lists serve one item a page, so a walk is longer than the run's --max-pages (20): the walk is reported skipped, not failed.",
    permittedBy: 'ENV-CURSOR-END',
    skips: [...WALK_CHECKS, ...PAGE_SIZE_PROFILE_CHECKS],
    // One item a page whatever is asked: a deployment doing so would not state the reference's page-size bounds.
    profileWithout: ['pagination'],
    run: { maxPages: 20 },
    onRequest(request) {
      if (isList(request)) request.query.set('limit', '1')
    },
  },
  {
    name: 'cursors-max-page-size-4',
    description:
      'Lists serve pages of at most 4 items, whatever page size is asked for (the maximum page size is not shown).',
    permittedBy: 'LIM-PAGE-SIZE',
    skips: PAGE_SIZE_PROFILE_CHECKS,
    // A deployment serving 4 items at most would not promise the reference's page-size bounds.
    profileWithout: ['pagination'],
    onRequest(request) {
      if (!isList(request)) return
      const asked = request.query.get('limit') ?? '4'
      if (/^[1-9][0-9]*$/.test(asked)) request.query.set('limit', String(Math.min(Number(asked), 4)))
    },
  },
]
