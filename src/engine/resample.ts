import { setTimeout as delay } from 'node:timers/promises'
import { itemIdentity, checkpointOf, resourceOf, type ListWalk } from '../checks/relations.js'
import { settingDefaults } from '../core/defaults.js'
import { addRoundSpan, type Resampling } from '../core/report.js'
import type { RunSettings } from '../core/settings.js'
import type { HttpClient } from '../http/client.js'
import type { Exchange } from '../http/exchange.js'
import type { RetryPolicy } from '../http/retry.js'
import type { Secret } from '../http/secrets.js'
import { logExchanges } from '../har/exchange-log.js'
import type { ObservationTally } from './judged-outcomes.js'
import type { Judge } from './judges.js'
import { observe } from './observations.js'
import { readSet, roundsPerTurn, type Read } from './read-set.js'
import type { RelationTally } from './relations.js'
import type { ResponsesSeen } from './responses-seen.js'

/** How the run reads its read set again after the checks: one last sweep, or a soak of rounds for a duration. */
export interface ResampleOptions {
  /** How long the soak reads, in ms; without it the run makes one last sweep, at the pace of its checks. */
  durationMs?: number
  /** The soak's pace: requests per second at most. */
  rate?: number
  /** Called after each round, for progress. */
  onRound?: (progress: RoundProgress) => void
}

export interface RoundProgress {
  round: number
  elapsedMs: number
  durationMs?: number
  /** Requests sent by all rounds so far (each attempt one). */
  requests: number
  /** 429s waited out so far. */
  quotaRefusals: number
  /** Relations and every-response rules that have shown a violation by now. */
  findings: number
}

/** What the rounds read with and where they put what they saw. */
export interface ResampleEnvironment {
  settings: RunSettings
  /** A client of its own for each round: a new dispatcher, so new connections that a load balancer may spread. */
  newClient(): HttpClient
  secrets: () => readonly Secret[]
  judges: readonly Judge[]
  tally: ObservationTally
  relations: RelationTally
  responses: ResponsesSeen
  exchangeLog?: string
  stop?: AbortSignal
  retryPolicy?: RetryPolicy
}

/** Spaces requests at most `rate` a second, over all rounds. */
class Pacer {
  private next = Date.now()

  constructor(private readonly rate: number | undefined) {}

  /** Waits for the next request's turn; false when the stop came first. */
  async turn(stop: AbortSignal | undefined): Promise<boolean> {
    if (this.rate === undefined) return !stop?.aborted
    const at = Math.max(this.next, Date.now())
    this.next = at + 1000 / this.rate
    const wait = at - Date.now()
    if (wait > 0)
      try {
        await delay(wait, undefined, { signal: stop })
      } catch {
        return false
      }
    return !stop?.aborted
  }
}

/** What the HAR's `_checks` and the evidence's sentBy name as the sender of the last sweep's reads. */
export const LAST_SWEEP = 'last sweep'
/** The prefix of what they name as the sender of a soak's round's reads: `soak round 3`. */
export const SOAK_ROUND = 'soak round '

const sentByOf = (kind: Resampling['kind'], round: number) => (kind === 'soak' ? `${SOAK_ROUND}${round}` : LAST_SWEEP)

/**
 * The round of a recorded exchange, from the senders a HAR names (`_checks`): a soak's round, 1 for the last sweep,
 * else 0 (the checks, or traffic no run's rounds made).
 */
export function roundOfSenders(senders: readonly string[] | undefined): number {
  for (const sender of senders ?? []) {
    if (sender === LAST_SWEEP) return 1
    const round = sender.startsWith(SOAK_ROUND) ? Number(sender.slice(SOAK_ROUND.length)) : NaN
    if (Number.isSafeInteger(round) && round > 0) return round
  }
  return 0
}

/**
 * Reads the run's read set again after its checks (src/engine/read-set.ts): once, as a last sweep, or in rounds until
 * the soak's duration is spent. Each round reads on a new client (new connections); every response is judged by every
 * rule that applies and shown to every relation; each walk of a list is shown to the relations whole. Keeps counts,
 * never the responses.
 */
export async function resample(env: ResampleEnvironment, options: ResampleOptions): Promise<Resampling> {
  const kind = options.durationMs === undefined ? 'last sweep' : 'soak'
  const pacer = new Pacer(kind === 'soak' ? (options.rate ?? settingDefaults.rate) : undefined)
  const started = Date.now()
  const stopped = () => !!env.stop?.aborted || Date.now() >= (env.settings.deadlineAt ?? Infinity)
  // A soak takes one whole turn of its inputs (each letter case, page size...) however short its duration.
  const rounds = kind === 'soak' ? roundsPerTurn(env.settings) : 1
  const spent = (round: number) =>
    stopped() || (round > rounds && (options.durationMs === undefined || Date.now() - started >= options.durationMs))
  const done: Resampling = { kind, rounds: 0, requests: 0, quotaRefusals: 0, durationMs: 0, timeline: [] }
  if (kind === 'soak') done.rate = options.rate ?? settingDefaults.rate
  // Samples of the rounds that showed a violation, each once per rule: every-response rules' (counted as judged) and
  // relations'.
  const judged = { violations: 0 }
  const violationsSoFar = () => judged.violations + env.relations.violations()
  for (let round = 1; round === 1 || !spent(round); round++) {
    const client = env.newClient()
    const roundStarted = { at: Date.now(), requests: done.requests, violations: violationsSoFar() }
    try {
      for (const read of readSet(env.settings, round)) {
        if (round > 1 && spent(round)) break
        const sentBy = sentByOf(kind, round)
        const send = async (query: Record<string, string>): Promise<Exchange | undefined> => {
          if (!(await pacer.turn(env.stop))) return undefined
          const search = new URLSearchParams(query).toString()
          const exchange = await client.get({
            path: search ? `${read.path}?${search}` : read.path,
            headers: read.headers,
            operation: read.operation,
          })
          exchange.operation = read.operation
          judged.violations += judge(env, exchange, round, sentBy, done)
          return exchange
        }
        if (read.walk) {
          const walk = await walkList(env.settings, read, send, () => round > 1 && spent(round))
          if (walk) env.relations.walk(walk, { round }, sentBy)
        } else await send(read.query)
        if (env.stop?.aborted) break
      }
    } finally {
      await client.close()
    }
    done.rounds = round
    done.durationMs = Date.now() - started
    addRoundSpan(done.timeline!, {
      first: round,
      last: round,
      at: new Date(roundStarted.at).toISOString(),
      durationMs: Date.now() - roundStarted.at,
      requests: done.requests - roundStarted.requests,
      violations: violationsSoFar() - roundStarted.violations,
    })
    options.onRound?.({
      round,
      elapsedMs: done.durationMs,
      durationMs: options.durationMs,
      requests: done.requests,
      quotaRefusals: done.quotaRefusals,
      findings: env.relations.violatedRules() + env.tally.violatedRules(),
    })
    if (kind === 'last sweep' || env.stop?.aborted) break
  }
  return done
}

/**
 * Judges one exchange of a round as the checks' are judged, shows it to the relations, logs it for the HAR; returns how
 * many every-response rules it violated.
 */
function judge(env: ResampleEnvironment, exchange: Exchange, round: number, sentBy: string, done: Resampling): number {
  const secrets = env.secrets()
  const attempts = [...exchange.retries.map((attempt) => attempt.status), exchange.response?.status]
  done.requests += attempts.filter((status) => status !== undefined && status !== 0).length
  done.quotaRefusals += attempts.filter((status) => status === 429).length
  const observations = observe([exchange], env.settings, secrets, env.judges, sentBy, env.responses, round, (id) =>
    env.tally.room(id),
  )
  env.tally.add(observations)
  env.relations.responses([exchange], { round }, sentBy)
  if (env.exchangeLog) logExchanges(env.exchangeLog, [exchange], sentBy, secrets, env.settings.rawRecord)
  return Object.values(observations).reduce((sum, { violated }) => sum + violated, 0)
}

/**
 * Walks a list from its first page to the one without a cursor, sending the read's query (and page size) with every
 * page and the same headers (its X-Request-ID among them); undefined when its first page was not sent. A walk that
 * stops early (a page that is no 200 with a data array, a cursor that is no string, the page before it again,
 * --max-pages, the soak's end) is incomplete: the relations compare only whole walks.
 */
async function walkList(
  settings: RunSettings,
  read: Read,
  send: (query: Record<string, string>) => Promise<Exchange | undefined>,
  ending: () => boolean,
): Promise<ListWalk | undefined> {
  const query = read.pageSize === undefined ? read.query : { ...read.query, [settings.limitParam]: read.pageSize }
  const identities: string[] = []
  const checkpoints = new Set<string | undefined>()
  let first: Exchange | undefined
  let cursor: string | undefined
  let previous = ''
  let complete = false
  for (let page = 0; page < settings.maxPages; page++) {
    if (page > 0 && ending()) break
    const exchange = await send(cursor === undefined ? query : { ...query, [settings.cursorParam]: cursor })
    if (!exchange) break
    first ??= exchange
    const { response } = exchange
    const body = response?.json as { data?: unknown; cursor?: unknown } | undefined
    if (response?.status !== 200 || !Array.isArray(body?.data)) break
    const items = body.data.map((item) => itemIdentity(read.operation, item))
    // The page before it again: the cursor was not taken (another parameter name), and the walk would never end.
    const served = JSON.stringify(items)
    if (items.length > 0 && served === previous) break
    previous = served
    identities.push(...items)
    checkpoints.add(checkpointOf(response))
    if (body.cursor === null || body.cursor === undefined) {
      complete = true
      break
    }
    if (typeof body.cursor !== 'string') break
    cursor = body.cursor
  }
  if (!first) return undefined
  const [checkpoint] = checkpoints
  return {
    operation: read.operation,
    resource: resourceOf(first),
    ...(read.pageSize === undefined ? {} : { pageSize: read.pageSize }),
    first,
    identities,
    ...(checkpoints.size === 1 && checkpoint !== undefined ? { checkpoint } : {}),
    complete,
  }
}
