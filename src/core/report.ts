import type { Level } from '../contract/requirements.js'
import type { SchemaViolation } from '../contract/schemas.js'
import type { ProfileKey, ProfileValues } from '../profile/profile.js'

/** A failing property's input, and how to replay it. */
export interface Counterexample {
  seed: number
  path: string
  value: unknown
  runs: number
}

/** What a report shows of a failure: plain data, secrets already replaced by placeholders. */
export interface Evidence {
  message: string
  request?: { method: string; url: string; headers: Record<string, string> }
  response?: {
    status: number
    headers: Record<string, string | string[]>
    bodyExcerpt: string
    bodyBytes: number
    truncated: boolean
  }
  transportError?: { code: string; message: string }
  retries?: { status: number; waitedMs: number }[]
  schemaViolations?: SchemaViolation[]
  counterexample?: Counterexample & { replay?: string }
  reproduce?: string
  /**
   * For a check or rule that holds the target to the deployment profile: the key, its value, and the profile's source.
   */
  profile?: { key: string; value: unknown; source: string }
  /** The check whose request got the response that shows the violation, when the run's observer found it. */
  sentBy?: string
  /** When and where the response that shows the violation came: its round, its time, its connection. */
  sample?: SampleOrigin
  /** Further responses that broke the same rule (every-response rules). */
  others?: Evidence[]
}

/**
 * When and where a response came. Round 0 is the checks (and recorded traffic that no run's rounds made); each later
 * round (the last sweep, a soak's rounds) read on connections of its own, opened for it.
 */
export interface SampleOrigin {
  round: number
  /** When its request was sent (ISO 8601). */
  at: string
  /** Absent where the suite cannot tell which connection carried it (the checks' pool of several). */
  connection?: SampleConnection
}

/**
 * A connection as the suite tells them apart: `number` counts the connections from 1 in the order they were opened (by
 * a run's round, in which one connection at a time reads) or accepted (by the proxy); `port` is the client's own port
 * of it (a run's local port, the proxy's client's), which a load balancer's or server's log shows; `id` is the
 * connection ID a HAR recorded (a run's HAR records the port).
 */
export interface SampleConnection {
  number?: number
  port?: number
  id?: string
}

/**
 * 'not run': the circuit breaker stopped sending because the target stopped answering, or every attempt of a read the
 * check needed was a transient 502, 503 or 504 (its reason says "not assessed: ..."): either fails the run; or the run
 * itself was cut short before the check could end (a signal, the caller's abort, --max-duration: `interrupted`).
 */
export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'waived' | 'not run'

/** One check's outcome. The shape is stable: other tools read report.json. */
export interface CheckOutcome {
  id: string
  title: string
  requirement: string
  level: Level
  /** True when the requirement rests on a reading of the contract rather than a sentence that states it. */
  inferred: boolean
  concern: string
  status: CheckStatus
  /** Why a check was skipped, or the failure message. */
  reason?: string
  evidence?: Evidence
  /** For a waived check: the user's reason, and what the check found. */
  waiver?: { reason: string; outcome: 'passed' | 'failed' | 'skipped' | 'not run' }
  durationMs?: number
  /** True when a request of the check was retried after a 429 or a 5xx: the outcome depended on a retry. */
  retried?: boolean
  /**
   * True when the check crashed (threw something other than a finding): it failed, but says nothing about the target.
   */
  crashed?: boolean
  /** For a property check: the generated inputs it examined in the fixed coverage phase and in the random phase. */
  inputs?: { coverage: number; random: number }
  /** For a write check: every submission it sent, in order. */
  writes?: SentWrite[]
  /** For a check that walks a receipt's lifecycle: its steps, in the order they happened. */
  lifecycle?: LifecycleStep[]
  /**
   * True for a check 'not run' because the run was cut short (see Report.interrupted): it says nothing of the target
   * and does not fail the run.
   */
  interrupted?: boolean
  /**
   * For a failed every-response rule or relation: how many samples (responses, or walks of a list) showed the
   * violation, of how many it judged; the first one's round, time and connection are its evidence's `sample`.
   */
  samples?: { showed: number; of: number }
}

/** What cut a run short: a signal, the API caller's AbortSignal ('abort'), or the run's time bound ('max-duration'). */
export type InterruptionCause = 'SIGINT' | 'SIGTERM' | 'abort' | 'max-duration'

export interface Interruption {
  by: InterruptionCause
  /** When it happened (ISO 8601): the signal's arrival, or the end of the time bound. */
  at: string
}

/**
 * The cause an AbortSignal's reason names: the CLI aborts with the signal's name; anything else is the caller's abort.
 */
export function interruptionCause(reason: unknown): InterruptionCause {
  return reason === 'SIGINT' || reason === 'SIGTERM' ? reason : 'abort'
}

/**
 * The reason a check cut off by the interruption is not run: "interrupted by SIGINT", "the run's time bound
 * (--max-duration) had passed".
 */
export function interruptedReason(by: InterruptionCause): string {
  if (by === 'max-duration') return "not run: the run's time bound (--max-duration) had passed"
  return by === 'abort' ? 'interrupted: the caller aborted the run' : `interrupted by ${by}`
}

/** One submission a write check sent: what it was sent with and what came back; a receipt only as its placeholder. */
export interface SentWrite {
  /** The operation's name in the profile's writes section. */
  operation: string
  method: string
  url: string
  /** The Idempotency-Key sent; null when the check sent none. */
  idempotencyKey: string | null
  /** The HTTP status of the last attempt; null when no response came. */
  status: number | null
  /**
   * Attempts in all: more than 1 when the same body and key were sent again (a 429, a 503, an ambiguous transport
   * failure).
   */
  attempts: number
  statusIdentifier?: string
  /** The receipt returned, as its placeholder ($IPTS_WRITE_RECEIPT_n). */
  receipt?: string
  duplicate?: boolean
}

/**
 * One step of a receipt's lifecycle as a check walked it (the report draws the steps as a timeline): a REST request
 * (an intake, a status read, a cancellation), or an event of a realtime channel (opened, refused, a message received).
 * A receipt appears only as its placeholder.
 */
export interface LifecycleStep {
  kind: 'rest' | 'realtime'
  /** What the step is in the lifecycle, e.g. "intake", "status read with its receipt", "channel opened". */
  label: string
  /** A REST step's method and URL; a realtime step's channel (and where it was opened). */
  request: string
  /**
   * A REST step's HTTP status ("no response" without one), and the state it read where it reads one; a realtime step's
   * event: opened, refused and how, or the kind of message received.
   */
  outcome: string
  /** When the request was sent or the event came (ISO 8601). */
  at: string
  /** The receipt the step carried or was handed, as its placeholder ($IPTS_WRITE_RECEIPT_1). */
  receipt?: string
}

export type RequirementStatus = 'passed' | 'failed' | 'skipped' | 'not-assessable' | 'uncovered' | 'waived' | 'not run'

/** One requirement's result: the checks citing it and what they found together. */
export interface RequirementResult {
  id: string
  section: string
  level: Level
  rule: string
  /** The contract sentence(s) the rule rests on, verbatim. */
  quote: string[]
  inferred: boolean
  observable: boolean
  status: RequirementStatus
  /** Why it was not assessed, skipped or uncovered. */
  reason?: string
  checks: string[]
  /** Set when it was assessed against the deployment profile: the key and the value the checks held the target to. */
  profile?: { key: ProfileKey; value: unknown }
}

export interface Summary {
  passed: number
  failed: number
  skipped: number
  waived: number
  notRun: number
  total: number
  failedMust: number
  failedShould: number
  verdict: 'pass' | 'fail'
}

/** What responses of one operation a run or recorded traffic held: the statuses seen, and how many were judged. */
export interface OperationCoverage {
  /** An operation of the contract (its operationId), or a write the deployment profile names. */
  operation: string
  /** Responses seen per HTTP status, retried attempts included; `no response` counts requests that got none. */
  statuses: Record<string, number>
  /** Responses that at least one every-response rule or exchange judgement applied to. */
  judged: number
}

/** Whether anything judged a requirement in this report, and when not, why and what would. */
export interface RequirementCoverage {
  id: string
  level: Level
  /** Observable from outside, or made so by a deployment profile that states its key: counted in the share assessed. */
  observable: boolean
  /** True when at least one of its checks or every-response rules judged something (passed or failed). */
  assessed: boolean
  /** Why it was not assessed. */
  reason?: string
  /** The inputs (flags) and profile keys its checks lacked: given, they would assess it. */
  assessedWith?: { inputs?: string[]; profileKeys?: ProfileKey[] }
}

export interface CoverageSummary {
  /** Observable requirements assessed. */
  assessed: number
  observable: number
  /** assessed of observable, in percent, rounded down to one decimal. */
  percent: number
  /** The share the run had to assess (--min-assessed), when one was given. */
  minimum?: number
}

/** How much a report judged: a verdict states it, so that a pass on little reads as such. */
export interface Coverage {
  operations: OperationCoverage[]
  requirements: RequirementCoverage[]
  summary: CoverageSummary
}

/** True when a run assessed less than the share --min-assessed asked for: that fails it. */
export function belowMinimum(coverage: CoverageSummary): boolean {
  return coverage.minimum !== undefined && coverage.assessed * 100 < coverage.minimum * coverage.observable
}

/** "assessed 41 of 58 observable requirements (70.6%)", as summaries say it. */
export function assessedLine(coverage: CoverageSummary): string {
  const below = belowMinimum(coverage) ? `, below the ${coverage.minimum}% --min-assessed asks for` : ''
  return `assessed ${coverage.assessed} of ${coverage.observable} observable requirements (${coverage.percent}%)${below}`
}

/** For recorded traffic (check-har, proxy): what was recorded and how much of it was judged. */
export interface TrafficSummary {
  source: 'har' | 'proxy'
  /** Every exchange recorded. */
  exchanges: number
  /** Exchanges with an operation of the contract and its response: judged. */
  judged: number
  /**
   * Counted and left alone: paths outside /v1, and paths or methods under /v1 that are no operation of the contract.
   */
  outsideV1: number
  otherV1: number
  /** Requests that got no response (a failed request in the HAR, an upstream that did not answer the proxy). */
  withoutResponse: number
  /** Responses whose body the recording left out: not judged. */
  withoutBody: number
  /**
   * Responses the suite cannot judge (a body in a content coding it cannot decode, a redirect): counted, not judged.
   */
  notJudged?: number
  /**
   * Requests the proxy could not parse (a garbage request line, a bad Content-Length): answered 400 by the proxy, not
   * forwarded.
   */
  malformedRequests?: number
  /**
   * Where the recorded client broke a rule the contract sets clients (a signed body sent under another key): the
   * client's fault, not the target's.
   */
  clientRuleBreaches?: ClientRuleBreach[]
  /** WebSocket channels the proxy passed through (an upgrade answered 101), and the messages recorded of them. */
  channels?: { opened: number; messages: number }
  /**
   * Responses some of whose values the recording kept as stand-ins (a run's HAR without --raw-record), and per rule the
   * findings about them set aside: a stand-in is not recorded, so a rule that needs its value is not applied to it.
   */
  standIns?: { responses: number; setAside: Record<string, number> }
}

export interface ClientRuleBreach {
  requirement: string
  message: string
}

export interface Report {
  tool: { name: string; version: string }
  /**
   * switchedOn: the embedded reference's faults and allowances the run switched on (`fault NAME`, `allowance NAME`);
   * restart: for the embedded reference, gone when the run ended, the command that serves one at the same address.
   */
  target: { baseUrl: string; embedded: boolean; switchedOn?: string[]; restart?: string }
  startedAt: string
  durationMs: number
  /** Seed and runs of the generated inputs; absent for recorded traffic, where nothing is generated. */
  seed?: number
  runs?: number
  strict: boolean
  traffic?: TrafficSummary
  /** What the run read again after its checks: the last sweep, or a soak's rounds (--duration). */
  resampling?: Resampling
  summary: Summary
  /** The deployment profile the run held the target to, when it had one. */
  profile?: { source: string; values: ProfileValues }
  checks: CheckOutcome[]
  /** Every requirement of specs/requirements.yaml, traced to the checks that cover it and their outcome. */
  requirements: RequirementResult[]
  /**
   * How much the report judged: per operation, per requirement, and the share of the observable requirements assessed.
   */
  coverage: Coverage
  /** Problems of the run itself (a suite file that did not load, an unhandled error), not of the target. */
  errors: string[]
  /**
   * Set when the run was cut short: the checks it cut off are 'not run' (interrupted) and the verdict covers only what
   * ran.
   */
  interrupted?: Interruption
}

/**
 * The reads a run makes after its checks: one last sweep on a new connection, or a soak's rounds (--duration), each on
 * new connections, at most `rate` requests a second; every response judged by every rule that applies.
 */
export interface Resampling {
  kind: 'last sweep' | 'soak'
  rounds: number
  /** Requests sent, each attempt one. */
  requests: number
  /** 429s waited out (their Retry-After) before the read was sent again. */
  quotaRefusals: number
  durationMs: number
  rate?: number
  /**
   * The rounds over time, oldest first: each entry one round, or in a long soak several adjacent ones (at most
   * TIMELINE_SPANS entries, so that the report stays small however long the soak).
   */
  timeline?: RoundSpan[]
}

/** Rounds `first` to `last` of the reads after the checks: when the first began, how long they took, what they saw. */
export interface RoundSpan {
  first: number
  last: number
  at: string
  durationMs: number
  requests: number
  /** Samples that showed a violation of a rule (every-response rules and relations), each sample once per rule. */
  violations: number
}

/** The most entries a report's timeline holds: past it, adjacent entries are merged two by two. */
export const TIMELINE_SPANS = 240

/** Adds a round's span to a timeline, merging adjacent spans two by two once it would hold more than TIMELINE_SPANS. */
export function addRoundSpan(timeline: RoundSpan[], span: RoundSpan): void {
  const last = timeline.at(-1)
  // After a merge every entry covers `width` rounds: a new round joins the last entry until it covers as many.
  const width = timeline.length > 0 ? timeline[0]!.last - timeline[0]!.first + 1 : 1
  if (last && last.last - last.first + 1 < width) Object.assign(last, mergedSpans(last, span))
  else timeline.push(span)
  if (timeline.length <= TIMELINE_SPANS) return
  const merged: RoundSpan[] = []
  for (let i = 0; i < timeline.length; i += 2)
    merged.push(timeline[i + 1] ? mergedSpans(timeline[i]!, timeline[i + 1]!) : timeline[i]!)
  timeline.splice(0, Infinity, ...merged)
}

function mergedSpans(a: RoundSpan, b: RoundSpan): RoundSpan {
  return {
    first: a.first,
    last: b.last,
    at: a.at,
    durationMs: Date.parse(b.at) + b.durationMs - Date.parse(a.at),
    requests: a.requests + b.requests,
    violations: a.violations + b.violations,
  }
}

/** The line that says what the reads after the checks did. */
export function resamplingLine({ kind, rounds, requests, quotaRefusals, durationMs, rate }: Resampling): string {
  const waited = quotaRefusals > 0 ? `, ${quotaRefusals} × 429 waited out` : ''
  return kind === 'soak'
    ? `soak: ${rounds} rounds, each on new connections, ${requests} requests in ${Math.round(durationMs / 1000)} s (at most ${rate}/s)${waited}`
    : `last sweep: ${requests} requests on a new connection${waited}`
}

/** How the report's exchanges came about, for a report's heading: the seed of a run, or what recorded traffic held. */
export function provenance(report: Report): string {
  const { traffic } = report
  if (!traffic) return `seed ${report.seed}`
  const left = [
    traffic.outsideV1 ? `${traffic.outsideV1} outside /v1` : '',
    traffic.otherV1 ? `${traffic.otherV1} under /v1 but no operation` : '',
    traffic.withoutResponse ? `${traffic.withoutResponse} without a response` : '',
    traffic.withoutBody ? `${traffic.withoutBody} without a recorded body` : '',
    traffic.notJudged ? `${traffic.notJudged} in a content coding the suite cannot decode or redirected` : '',
    traffic.malformedRequests
      ? `${traffic.malformedRequests} malformed requests the proxy answered 400 and did not forward`
      : '',
  ].filter(Boolean)
  const breaches = traffic.clientRuleBreaches?.length
    ? `; the client broke a rule for clients ${traffic.clientRuleBreaches.length} times`
    : ''
  const channels = traffic.channels
    ? `; ${traffic.channels.opened} WebSocket channels, ${traffic.channels.messages} messages recorded`
    : ''
  const setAside = Object.entries(traffic.standIns?.setAside ?? {})
  const standIns = traffic.standIns
    ? `; ${traffic.standIns.responses} with values recorded as stand-ins${setAside.length ? ` (not judged by ${setAside.map(([id, n]) => `${id} in ${n}`).join(', ')})` : ''}`
    : ''
  return `recorded traffic (${traffic.source === 'har' ? 'HAR' : 'proxy'}): ${traffic.exchanges} exchanges, ${traffic.judged} judged${left.length ? `; not judged: ${left.join(', ')}` : ''}${channels}${breaches}${standIns}`
}

/**
 * The one line every report format opens with when the run was cut short, e.g. "INTERRUPTED by SIGINT after 12 of 99
 * checks: the verdict covers only what ran (87 not run)", or during a soak "… after 99 of 99 checks and 7 soak rounds
 * (41 s): …"; undefined for a run that ran to its end.
 */
export function interruptionLine(report: Pick<Report, 'interrupted' | 'checks' | 'resampling'>): string | undefined {
  const { interrupted } = report
  if (!interrupted) return undefined
  const checks = report.checks.filter((c) => c.concern !== 'every-response')
  const cut = checks.filter((c) => c.interrupted).length
  const by =
    interrupted.by === 'max-duration'
      ? 'CUT SHORT by --max-duration'
      : interrupted.by === 'abort'
        ? 'INTERRUPTED by the caller'
        : `INTERRUPTED by ${interrupted.by}`
  // A soak cut short says how far it came: its rounds done are what the verdict covers of it.
  const soak = report.resampling?.kind === 'soak' ? report.resampling : undefined
  const rounds = soak
    ? ` and ${soak.rounds} soak ${soak.rounds === 1 ? 'round' : 'rounds'} (${Math.round(soak.durationMs / 1000)} s)`
    : ''
  return `${by} after ${checks.length - cut} of ${checks.length} checks${rounds}: the verdict covers only what ran (${cut} not run)`
}
