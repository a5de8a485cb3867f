import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { allCheckIds } from '../../src/checks/index.js'
import type { CheckId } from '../../src/contract/catalogue-ids.js'
import type { Report } from '../../src/core/report.js'
import type { ReferenceData } from '../../src/reference/data.js'
import { DESCRIPTION_PATH } from '../../src/reference/server.js'
import type { Behaviour, RefRequest, RefResponse } from '../../src/reference/types.js'
import type { RunOptions } from '../../src/runner/run.js'
import { requestText, responseText } from './behaviours.js'
import { runAgainstReference } from './run.js'

/** One exchange of a run against the plain reference, as a behaviour would have met it, and the checks that sent it. */
interface PlainExchange {
  /** As it arrived, before routing: what a behaviour's onRequest meets. */
  request: RefRequest
  route: RefRequest['route']
  /** As the reference answered it: what a behaviour's onResponse meets. */
  response: RefResponse
  /** Empty for a request no check sent: the preflight's, the profile's fetch of the published description. */
  checks: readonly string[]
}

/** A whole run against the plain reference, every exchange recorded with the checks that sent it. */
export interface PlainRun {
  report: Report
  exchanges: PlainExchange[]
  data: ReferenceData
}

const copyOfRequest = (request: RefRequest): RefRequest => ({
  ...request,
  query: new URLSearchParams(request.query),
  headers: { ...request.headers },
})

const copyOfResponse = (response: RefResponse): RefResponse => ({
  ...structuredClone({ status: response.status, headers: response.headers, body: response.body }),
  ...(response.raw !== undefined && { raw: response.raw }),
  ...(response.encoded && { encoded: Buffer.from(response.encoded) }),
})

/** What the reference serves with, besides its behaviours: a quota, receipts of other characters. */
type Serving = Pick<NonNullable<RunOptions['reference']>, 'quota' | 'receipts'>

const plainRuns = new Map<string, Promise<PlainRun>>()

/**
 * The whole run against the plain reference with these settings and serving, recorded once per test file and shared
 * by the behaviours that need the same.
 */
export function plainRunWith(settings: RunOptions['settings'], serving: Serving): Promise<PlainRun> {
  const key = JSON.stringify([settings, serving])
  if (!plainRuns.has(key)) plainRuns.set(key, recordPlainRun(settings, serving))
  return plainRuns.get(key)!
}

/**
 * Runs the whole suite against the plain reference with these settings and serving, recording each exchange as the
 * reference met it; the HAR of the run names the checks that sent each (joined on the x-request-id of the answer).
 */
async function recordPlainRun(settings: RunOptions['settings'], serving: Serving): Promise<PlainRun> {
  const arrived = new WeakMap<RefRequest, RefRequest>()
  const answered: { request: RefRequest; route: RefRequest['route']; response: RefResponse }[] = []
  let data: ReferenceData | undefined
  const recorder: Behaviour = {
    name: 'plain-exchanges',
    description: 'records each exchange as a behaviour would meet it',
    onRequest: (request) => void arrived.set(request, copyOfRequest(request)),
    onResponse(response, request, served) {
      data = served
      answered.push({ request: arrived.get(request)!, route: request.route, response: copyOfResponse(response) })
    },
  }
  const dir = mkdtempSync(join(tmpdir(), 'ipts-plain-run-'))
  try {
    const harPath = join(dir, 'run.har')
    const report = await runAgainstReference({ behaviours: [recorder], ...serving }, settings, { harPath })
    const checksById = new Map<string, readonly string[]>()
    const har = JSON.parse(readFileSync(harPath, 'utf8')) as {
      log: { entries: { response: { headers: { name: string; value: string }[] }; _checks?: string[] }[] }
    }
    for (const entry of har.log.entries) {
      const id = entry.response.headers.find((header) => header.name.toLowerCase() === 'x-request-id')?.value
      if (id !== undefined) checksById.set(id, entry._checks ?? [])
    }
    const exchanges = answered.map((exchange) => ({
      ...exchange,
      checks: checksById.get(String(exchange.response.headers['x-request-id'])) ?? [],
    }))
    return { report, exchanges, data: data! }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The checks whose exchanges of the plain run the behaviour would change (its onRequest the request, else its
 * onResponse the answer), met in the run's order by a server of its own; 'all' when it would change the published
 * description the run's profile is read from, which any check may read. Every other check meets exactly the plain
 * reference's answers under the behaviour, so it ends as in the plain run.
 */
const CHECK_IDS = new Set<string>(allCheckIds())
const isCheckId = (id: string): id is CheckId => CHECK_IDS.has(id)

export function checksReached(behaviour: Behaviour, plain: PlainRun): Set<CheckId> | 'all' {
  // A server of its own: state a behaviour keeps per server (first attempts, cursor sessions) starts afresh.
  const data = { ...plain.data }
  const reached = new Set<CheckId>()
  // What a channel sends is no exchange of the plain run: a behaviour of channels reaches every check that opens one.
  if (behaviour.onSubscribe || behaviour.onChannelOutput)
    for (const id of CHECK_IDS) if (id.startsWith('realtime/') && isCheckId(id)) reached.add(id)
  for (const exchange of plain.exchanges) {
    const request = copyOfRequest(exchange.request)
    const arrived = requestText(request)
    behaviour.onRequest?.(request, data)
    let changed = requestText(request) !== arrived
    if (!changed && behaviour.onResponse) {
      request.route = exchange.route
      const response = copyOfResponse(exchange.response)
      const answered = responseText(response)
      behaviour.onResponse(response, request, data)
      changed = responseText(response) !== answered
    }
    if (!changed) continue
    // The preflight's probes, the other exchanges no check sent, are sent and judged in every run, whatever it selects.
    if (exchange.checks.length === 0 && exchange.request.path === DESCRIPTION_PATH) return 'all'
    // The last sweep's reads (LAST_SWEEP) are made in any run that selects a relation, which the breaks name.
    for (const id of exchange.checks) if (isCheckId(id)) reached.add(id)
  }
  return reached
}
