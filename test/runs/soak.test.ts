import { describe, expect, test } from 'vitest'
import type { CheckId } from '../../src/contract/catalogue-ids.js'
import { relationRules, type ListWalk } from '../../src/checks/relations.js'
import { parseCli } from '../../src/cli/options.js'
import type { Exchange, ExchangeResponse } from '../../src/http/exchange.js'
import type { RefRequest } from '../../src/reference/types.js'
import { failureSummary, idsWithStatus, runAgainstReference } from '../support/run.js'

/** A request the embedded reference answered, as a test looks at it afterwards. */
interface Seen {
  connection: number
  path: string
  query: URLSearchParams
  headers: Record<string, string | undefined>
  at: number
}

function recorder(): { seen: Seen[]; record: (request: RefRequest) => void } {
  const seen: Seen[] = []
  return {
    seen,
    record: (request) =>
      seen.push({
        connection: request.connection ?? 0,
        path: request.path,
        query: new URLSearchParams(request.query),
        headers: { ...request.headers },
        at: Date.now(),
      }),
  }
}

const RELATIONS = relationRules.map((rule) => rule.id as CheckId)

describe('a soak (--duration)', () => {
  test('passes against the reference, reads every class of input on whole walks, one connection a round, at most --rate a second', async () => {
    const { seen, record } = recorder()
    const rate = 100
    const report = await runAgainstReference({ record }, { durationMs: 1000, rate }, { only: RELATIONS })
    expect(report.summary.verdict, failureSummary(report)).toBe('pass')
    const relations = report.checks.filter((check) => RELATIONS.some((id) => id === check.id))
    expect(
      relations.map((check) => `${check.id} ${check.status}`),
      'every relation compared something',
    ).toEqual(RELATIONS.map((id) => `${id} passed`))
    const { resampling } = report
    expect(resampling?.kind).toBe('soak')
    expect(resampling!.rounds, 'a whole turn of the inputs at least').toBeGreaterThanOrEqual(4)
    // The soak's requests are the last ones; each round on one connection of its own, none a connection used before.
    const soak = seen.slice(-resampling!.requests)
    const connections = [...new Set(soak.map((request) => request.connection))]
    expect(connections.length, 'one connection a round').toBe(resampling!.rounds)
    const before = new Set(seen.slice(0, -resampling!.requests).map((request) => request.connection))
    expect(connections.filter((connection) => before.has(connection))).toEqual([])
    // Paced: n requests at most `rate` a second take at least (n - 1) / rate seconds (the pacer only ever waits).
    expect(soak.at(-1)!.at - soak[0]!.at).toBeGreaterThanOrEqual(((soak.length - 1) * 1000) / rate - 5)
    // Each class of input on whole walks and repeated reads.
    const balancesPages = (size: string) =>
      soak.filter((r) => r.path.endsWith('/balances') && r.query.get('limit') === size && r.query.has('cursor'))
    for (const size of ['1', '13', '25'])
      expect(balancesPages(size).length, `balances walked on in pages of ${size}`).toBeGreaterThan(0)
    const addresses = soak.filter((r) => r.path.endsWith('/pnl')).map((r) => r.path.split('/')[3]!)
    expect(
      addresses.some((address) => /[A-F]/.test(address) && !/[a-f]/.test(address)),
      'an upper-case address',
    ).toBe(true)
    expect(
      addresses.some((address) => /[a-f]/.test(address) && !/[A-F]/.test(address)),
      'a lower-case address',
    ).toBe(true)
    const walkIds = soak.filter((r) => r.query.has('cursor') && r.headers['x-request-id'] !== undefined)
    expect(walkIds.length, 'X-Request-IDs on later pages of walks').toBeGreaterThan(0)
    const firstPageIds = new Set(soak.filter((r) => !r.query.has('cursor')).map((r) => r.headers['x-request-id']))
    expect(
      walkIds.every((r) => firstPageIds.has(r.headers['x-request-id'])),
      "a walk sends its first page's ID on every page",
    ).toBe(true)
    const restricted = soak.filter((r) => r.headers['x-api-key']?.startsWith('ipts_restricted_'))
    expect(new Set(restricted.map((r) => r.path.split('/')[2])).size, 'the restricted key on every operation').toBe(5)
  })

  test('stopped by its signal after a round, writes the report marked interrupted with the rounds it made', async () => {
    const stop = new AbortController()
    const report = await runAgainstReference(
      {},
      { durationMs: 60_000, rate: 200 },
      {
        only: RELATIONS,
        signal: stop.signal,
        onRound: (progress) => {
          if (progress.round === 2) stop.abort()
        },
      },
    )
    expect(report.interrupted?.by).toBe('abort')
    expect(report.resampling?.rounds).toBe(2)
    expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([])
  })
})

describe('the last sweep of a run without --duration', () => {
  test('reads every operation again on one new connection, and the run stays under 900 requests', async () => {
    const { seen, record } = recorder()
    const report = await runAgainstReference({ record })
    expect(report.summary.verdict, failureSummary(report)).toBe('pass')
    expect(report.resampling).toMatchObject({ kind: 'last sweep', rounds: 1 })
    const sweep = seen.slice(-report.resampling!.requests)
    const [connection, ...others] = new Set(sweep.map((request) => request.connection))
    expect(others, 'one connection').toEqual([])
    expect(seen.slice(0, -sweep.length).some((request) => request.connection === connection)).toBe(false)
    const operations = new Set(sweep.map((request) => request.path.replace(/0x[0-9a-fA-F]+/, '{}')))
    expect([...operations].sort()).toEqual([
      '/v1/config',
      '/v1/intents/{}',
      '/v1/markets',
      '/v1/traders/{}/balances',
      '/v1/traders/{}/pnl',
      '/v1/vault',
    ])
    expect(seen.length, 'requests of a default run').toBeLessThan(900)
  })

  test('is left out of a run narrowed by --check to checks that are no relation', async () => {
    const report = await runAgainstReference({}, {}, { only: ['shapes/vault-members'] })
    expect(report.resampling).toBeUndefined()
  })
})

describe('--duration and --rate', () => {
  test.each([
    ['90s', 90_000],
    ['10m', 600_000],
    ['2h', 7_200_000],
  ])('--duration %s is %i ms', (value, ms) => {
    expect(parseCli(['--duration', value], {}).run.settings.durationMs).toBe(ms)
  })

  test('come from the environment and the config file too; the rate has a default', () => {
    const options = parseCli([], { IPTS_DURATION: '2m', IPTS_RATE: '5' })
    expect(options.run.settings).toMatchObject({ durationMs: 120_000, rate: 5 })
    expect(parseCli([], {}).run.settings).toMatchObject({ durationMs: undefined, rate: 2 })
  })

  test.each([['90'], ['1.5h'], ['-5s'], ['0s'], ['25h'], ['ten minutes']])(
    '--duration %s is a usage error naming it',
    (value) => {
      expect(() => parseCli([`--duration=${value}`], {})).toThrow(/^--duration must be /)
    },
  )

  test('a bad IPTS_RATE is a usage error naming it', () => {
    expect(() => parseCli([], { IPTS_RATE: '0' })).toThrow(/^IPTS_RATE must be from 1 to 1000, got 0$/)
  })
})

describe('the relations', () => {
  const response = (headers: Record<string, string>, json?: unknown): ExchangeResponse => ({
    status: 200,
    headers,
    body: JSON.stringify(json ?? {}),
    json: json ?? {},
    truncated: false,
  })
  const exchange = (url: string, sent: Record<string, string> = {}, operation = 'getVault'): Exchange => ({
    operation,
    request: { method: 'GET', url, headers: sent },
    durationMs: 0,
    retries: [],
  })
  const rule = (id: string) => relationRules.find((r) => r.id === id)!.remember()

  test('an x-request-id echoed from the request is no repeat; one the server gives twice is', () => {
    const memory = rule('relations/request-id-unique')
    const sent = { 'x-request-id': 'client-id-1' }
    expect(memory.response!(response(sent), exchange('http://x/v1/vault', sent))).toBeNull()
    expect(memory.response!(response(sent), exchange('http://x/v1/vault', sent))).toBeNull()
    expect(memory.response!(response({ 'x-request-id': 'server-1' }), exchange('http://x/v1/vault'))).toBeUndefined()
    expect(memory.response!(response({ 'x-request-id': 'server-1' }), exchange('http://x/v1/vault'))).toMatch(
      /server-1" was carried by an earlier response/,
    )
    // A server that derives its ID from the one sent (cut short) gives two requests that sent the same ID the same one.
    const long = { 'x-request-id': 'client-id-2-long' }
    expect(memory.response!(response({ 'x-request-id': 'client-id-2' }), exchange('http://x/v1/vault', long))).toBe(
      undefined,
    )
    expect(memory.response!(response({ 'x-request-id': 'client-id-2' }), exchange('http://x/v1/vault', long))).toBe(
      undefined,
    )
    expect(memory.response!(response({ 'x-request-id': 'client-id-2' }), exchange('http://x/v1/vault'))).toMatch(
      /did not send the same X-Request-ID/,
    )
  })

  test('a resource is compared only at the same checkpoint, its address in any case', () => {
    const memory = rule('relations/same-resource-same-members')
    const pnl = (checkpoint: string, data: unknown, address = '0xab') =>
      memory.response!(
        response({}, { checkpoint, data }),
        exchange(`http://x/v1/traders/${address}/pnl`, {}, 'getTraderPnl'),
      )
    expect(pnl('1', { a: '1' })).toBeNull()
    expect(pnl('2', { b: 1 }), 'another checkpoint: not compared').toBeNull()
    expect(pnl('2', { b: 2 }, '0xAB')).toBeUndefined()
    expect(pnl('2', { b: '2' })).toMatch(/without \/data\/b number and with \/data\/b string/)
  })

  const walk = (identities: string[], checkpoint?: string, complete = true): ListWalk => ({
    operation: 'listMarkets',
    resource: 'listMarkets /v1/markets',
    first: exchange('http://x/v1/markets', {}, 'listMarkets'),
    identities,
    ...(checkpoint === undefined ? {} : { checkpoint }),
    complete,
  })

  test('walks are compared whole and at one checkpoint; an item twice in one walk is a finding alone', () => {
    const memory = rule('relations/list-walks-agree')
    expect(memory.walk!(walk(['1', '2', '3'], 'c1'))).toBeNull()
    expect(memory.walk!(walk(['1', '3'], 'c1', false)), 'an incomplete walk').toBeNull()
    expect(memory.walk!(walk(['1', '3'], undefined)), 'a walk across checkpoints').toBeNull()
    expect(memory.walk!(walk(['1', '2', '3'], 'c1'))).toBeUndefined()
    expect(memory.walk!(walk(['1', '3'], 'c1'))).toMatch(/item 2 is "3" where it was "2" \(2 items, were 3\)/)
    expect(memory.walk!(walk(['1', '2', '2'], 'c9'))).toMatch(/yields "2" twice/)
  })
})
