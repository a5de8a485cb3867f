import { exchangeRules } from '../checks/every-response.js'
import { checksByConcern } from '../checks/index.js'
import { observe } from '../engine/observations.js'
import type { Exchange } from '../http/exchange.js'
import type { Profile } from '../profile/profile.js'
import { ObservationTally, outcomeOf } from '../engine/judged-outcomes.js'
import { exchangeJudges, relationJudges } from '../engine/judges.js'
import { RelationTally } from '../engine/relations.js'
import { roundOfSenders } from '../engine/resample.js'
import { countResponse, type ResponsesSeen } from '../engine/responses-seen.js'
import type { CheckOutcome, ClientRuleBreach, TrafficSummary } from '../core/report.js'
import type { Findings } from '../runner/session.js'
import { mentionsSecret, redact } from '../http/secrets.js'
import { unansweredAs } from '../http/transport-errors.js'
import { LearnedSecrets } from './learned-secrets.js'
import { destinationOf, type Destination } from './operation-of.js'
import { WriteKeys } from './write-keys.js'

/** The reason a check that needs requests of its own is reported not assessed. */
export const NOT_ASSESSED = 'not assessed: recorded traffic (the check sends requests of its own)'

const UPSTREAM_ERRORS_NAMED = 3
/** How many channels whose URL carried a receipt a report names; the rest are counted in the last one. */
const CHANNEL_BREACHES_NAMED = 10
/** The placeholders of the receipts learned (src/traffic/learned-secrets.ts), as against those of the keys. */
const RECEIPT_PLACEHOLDER = /^\$IPTS_\w*RECEIPT/

/**
 * Judges recorded traffic one exchange at a time, as it comes (a HAR file read, a proxy forwarding), keeping only what
 * the report needs: counts, and the first few violations of each check with their evidence.
 */
export class TrafficJudgement {
  readonly secrets: LearnedSecrets
  private readonly judges = exchangeJudges()
  private readonly tally = new ObservationTally()
  /** The relations between the responses, shown each as it comes (a HAR's order, the proxy's). */
  private readonly relations: RelationTally
  private readonly responses: ResponsesSeen = {}
  private readonly started = new Date()
  private readonly counts: TrafficSummary
  private readonly writeKeys = new WriteKeys()
  private upstreamFailures = 0
  /** Responses with values recorded as stand-ins, and the findings about them set aside, by rule. */
  private readonly standIns: NonNullable<TrafficSummary['standIns']> = { responses: 0, setAside: {} }
  private readonly upstreamErrors: string[] = []
  private readonly channelBreaches: ClientRuleBreach[] = []
  private channelBreachesUnnamed = 0

  /** profile: the deployment's facts (--profile), held to each exchange as a run holds its own. */
  constructor(
    source: TrafficSummary['source'],
    private readonly target: string,
    private readonly profile?: Profile,
  ) {
    this.counts = { source, exchanges: 0, judged: 0, outsideV1: 0, otherV1: 0, withoutResponse: 0, withoutBody: 0 }
    this.secrets = new LearnedSecrets(profile?.values)
    this.relations = new RelationTally(() => this.secrets.list())
    // What the report will show is redacted with each secret before it is forgotten: the report is written with those
    // remembered then.
    this.secrets.beforeForgetting((_, forgotten) => {
      this.tally.redactKept(forgotten)
      this.relations.redactKept(forgotten)
      this.upstreamErrors.splice(0, Infinity, ...this.upstreamErrors.map((error) => redact(error, forgotten)))
    })
  }

  /**
   * Learns the exchange's keys and receipts; check-har learns every entry's before judging any, so that all are
   * redacted everywhere.
   */
  learn(exchange: Exchange): void {
    this.secrets.learn(exchange)
  }

  /**
   * Judges one exchange, and shows it to the relations; bodyRecorded false for a response whose body the recording left
   * out; senders: what a HAR names as its senders, whose round its evidence gives (0 when they name none). Returns the
   * exchange addressed (see addressed).
   */
  judge(exchange: Exchange, bodyRecorded = true, senders?: readonly string[]): Exchange {
    this.learn(exchange)
    this.counts.exchanges++
    const destination = this.destinationOf(exchange)
    if (destination === 'outside-v1') this.counts.outsideV1++
    else if (destination === 'other-v1') this.counts.otherV1++
    else if (!exchange.response) this.counts.withoutResponse++
    else if (!bodyRecorded) this.counts.withoutBody++
    else if (exchange.response.notJudged !== undefined) this.counts.notJudged = (this.counts.notJudged ?? 0) + 1
    else {
      this.counts.judged++
      const judged = addressed(exchange, destination)
      const round = roundOfSenders(senders)
      const observations = observe(
        [judged],
        { profile: this.profile },
        this.secrets.list(),
        this.judges,
        undefined,
        this.responses,
        round,
        (id) => this.tally.room(id),
      )
      if (exchange.response.standIns) this.standIns.responses++
      for (const [id, { unrecorded }] of Object.entries(observations))
        if (unrecorded) this.standIns.setAside[id] = (this.standIns.setAside[id] ?? 0) + unrecorded
      this.tally.add(observations)
      this.relations.responses([judged], { round })
    }
    if (exchange.webSocketMessages && exchange.response) this.judgeWebSocket(exchange)
    // Seen, not judged: a request that got no response, or a response whose body the recording left out.
    if (typeof destination === 'object' && !(exchange.response && bodyRecorded))
      countResponse(this.responses, destination.operation, exchange.response?.status, false)
    if (typeof destination === 'object' && exchange.request.method !== 'GET') {
      this.writeKeys.record(
        destination.operation,
        exchange.request.headers['idempotency-key'],
        exchange.request.body,
        `${exchange.request.method} ${new URL(exchange.request.url).pathname} (exchange ${this.counts.exchanges})`,
      )
    }
    return addressed(exchange, destination)
  }

  /**
   * A WebSocket channel, once closed: its upgrade (answered 101) and the messages both ways
   * (exchange.webSocketMessages), as the proxy records it. Its keys and receipts are learned, so that the HAR redacts
   * them, then it is judged as a recorded channel is.
   */
  channel(exchange: Exchange): void {
    this.learn(exchange)
    this.judgeWebSocket(exchange)
  }

  /**
   * A WebSocket's upgrade with its messages (Chromium's _webSocketMessages): no operation of the contract, judged by
   * the realtime checks' judgements of a recorded WebSocket where the profile states realtime, and without it for what
   * RCPT-HANDLING says of every URL: a receipt the traffic carried (learned from this URL's receipt parameter or
   * before) is "not placed in a public URL".
   */
  private judgeWebSocket(exchange: Exchange): void {
    const channels = (this.counts.channels ??= { opened: 0, messages: 0 })
    channels.opened++
    channels.messages += exchange.webSocketMessages?.length ?? 0
    const judges = this.judges.filter((judge) => judge.concern === 'realtime')
    const socket = { ...exchange, operation: 'realtime' }
    const secrets = this.secrets.list()
    this.tally.add(
      observe([socket], { profile: this.profile }, secrets, judges, undefined, undefined, 0, (id) =>
        this.tally.room(id),
      ),
    )
    const receipts = secrets.filter(({ placeholder }) => RECEIPT_PLACEHOLDER.test(placeholder))
    const { url } = exchange.request
    if (
      !mentionsSecret(
        url,
        receipts.map(({ value }) => value),
      )
    )
      return
    if (this.channelBreaches.length >= CHANNEL_BREACHES_NAMED) return void this.channelBreachesUnnamed++
    this.channelBreaches.push({
      requirement: 'RCPT-HANDLING',
      message: `${exchange.request.method} ${redact(url, secrets)} (WebSocket channel ${channels.opened}): the upgrade's URL carries a receipt, which is "not placed in a public URL" (a URL is kept by proxies, logs and histories)`,
    })
  }

  /**
   * A request the proxy could not parse: answered 400 by the proxy, never forwarded, counted so that the report says
   * so.
   */
  malformedRequest(): void {
    this.counts.malformedRequests = (this.counts.malformedRequests ?? 0) + 1
  }

  /**
   * An upstream that did not answer the proxy: the client got a 502 from the proxy, and the report says so. Returns the
   * exchange addressed (see addressed).
   */
  upstreamFailed(exchange: Exchange): Exchange {
    this.learn(exchange)
    this.counts.exchanges++
    this.counts.withoutResponse++
    const destination = this.destinationOf(exchange)
    if (typeof destination === 'object') countResponse(this.responses, destination.operation, undefined, false)
    this.upstreamFailures++
    if (this.upstreamErrors.length < UPSTREAM_ERRORS_NAMED)
      this.upstreamErrors.push(`${exchange.request.method} ${exchange.request.url}: ${unansweredAs(exchange.error)}`)
    return addressed(exchange, destination)
  }

  private destinationOf(exchange: Exchange): Destination {
    return destinationOf(exchange.request.method, exchange.request.url, this.profile?.values)
  }

  private withStandIns(outcome: CheckOutcome): CheckOutcome {
    const setAside = this.standIns.setAside[outcome.id]
    return setAside && outcome.status === 'skipped' ? { ...outcome, reason: standInReason(setAside) } : outcome
  }

  /** What the traffic judged so far showed, for the run session to judge. */
  findings(): Findings {
    const judged = new Map(this.tally.outcomes(this.judges, this.profile).map((outcome) => [outcome.id, outcome]))
    // A tally of its own: findings may be asked for more than once, and the relations' counts are added once each time.
    const related = new ObservationTally()
    related.add(this.relations.observations())
    const checks: CheckOutcome[] = [
      ...Object.entries(checksByConcern).flatMap(([concern, list]) =>
        list.map((check) => judged.get(check.id) ?? notAssessed(check, concern)),
      ),
      ...exchangeRules.map((rule) => judged.get(rule.id)!),
      ...related.outcomes(relationJudges(), this.profile),
    ].map((outcome) => this.withStandIns(outcome))
    const errors: string[] = []
    if (this.upstreamFailures > 0) {
      errors.push(
        `the upstream did not answer ${this.upstreamFailures} request${this.upstreamFailures === 1 ? '' : 's'}; the client got a 502 from the proxy: ${this.upstreamErrors.join('; ')}`,
      )
    }
    // Evidence kept before a later exchange taught a secret is redacted again with every secret learned.
    const breaches = [...this.writeKeys.breaches(), ...this.channelBreaches]
    if (this.channelBreachesUnnamed > 0)
      breaches.push({
        requirement: 'RCPT-HANDLING',
        message: `and ${this.channelBreachesUnnamed} more WebSocket channels whose upgrade's URL carried a receipt`,
      })
    const traffic = {
      ...this.counts,
      ...(breaches.length > 0 ? { clientRuleBreaches: breaches } : {}),
      ...(this.standIns.responses > 0 ? { standIns: this.standIns } : {}),
    }
    return {
      target: { baseUrl: this.target, embedded: false },
      startedAt: this.started,
      traffic,
      checks,
      profile: this.profile,
      errors,
      responses: this.responses,
      secrets: this.secrets.list(),
    }
  }
}

/**
 * A rule whose findings were all about values recorded as stand-ins judged nothing: not assessed, and why (it is not
 * the rule's own reason for applying nowhere).
 */
function standInReason(setAside: number): string {
  return `not assessed: what it needs was recorded as a stand-in in ${setAside === 1 ? 'one response' : `${setAside} responses`} (the recording kept response material by allowlist; record with --raw-record)`
}

/**
 * The exchange with the contract's operation it addresses, which tells the HAR's allowlist the members its schema
 * names (an exchange outside the contract's operations keeps none).
 */
function addressed(exchange: Exchange, destination: Destination): Exchange {
  return typeof destination === 'object' ? { ...exchange, operation: destination.operation } : exchange
}

function notAssessed(check: { id: string; title: string; requirement: string }, concern: string): CheckOutcome {
  return outcomeOf(check, concern, 'skipped', NOT_ASSESSED)
}
