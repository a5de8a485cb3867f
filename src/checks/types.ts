import type { RequirementId } from '../contract/catalogue-ids.js'
import type { OperationId } from '../contract/operations.js'
import type { SchemaViolation } from '../contract/schemas.js'
import { ERROR_CODES } from '../core/errors.js'
import type { Counterexample, LifecycleStep } from '../core/report.js'
import type { Exchange } from '../http/exchange.js'
import type { ChannelSocket } from '../http/websocket.js'
import type { ProfileKey, WriteOperation } from '../profile/profile.js'
import type { RunSettings } from '../core/settings.js'
import type { RecordedJudgement } from './exchange-judge.js'

/** Inputs a check may need from the user; without them the check is skipped with the reason. */
export type Need = 'apiKey' | 'restrictedApiKey' | 'trader' | 'intent' | 'secondIntent'

/** One check: a small named function tied to one requirement of specs/requirements.yaml. */
export interface Check {
  /** Stable, unique: `<concern>/<slug>`. */
  id: string
  requirement: RequirementId
  /** What holds when the check passes, in the present tense. */
  title: string
  needs?: readonly Need[]
  /**
   * The profile key the check holds the target to; without it in the run's profile the check is skipped as not
   * assessable.
   */
  profile?: ProfileKey
  /**
   * For a check that sends relayed writes (profile writes, --allow-writes): the most submissions it sends against these
   * operations. The run's plan adds them up before the first write, and --max-writes holds the run to them.
   */
  writes?(operations: Readonly<Record<string, WriteOperation>>): number
  run(ctx: CheckContext): Promise<void>
  /**
   * How one recorded exchange decides this check (check-har, the proxy); absent where the check needs requests of its
   * own.
   */
  recorded?: RecordedJudgement
}

export type Auth = 'full' | 'restricted' | 'none' | { key: string }

export interface CallOptions {
  /** Path parameters, replacing the configured ones (hash, address). Percent-encoded when filled in. */
  params?: Record<string, string>
  /** Query parameters added to (or, with undefined, removed from) the defaults, e.g. the intent's receipt. */
  query?: Record<string, string | undefined>
  auth?: Auth
  headers?: Record<string, string>
  /** Leave out Accept: application/json, which a request may send but need not. */
  withoutAccept?: boolean
  /**
   * False: a 429 comes back as it is instead of being waited out, for a check that tests those responses; a 5xx is
   * retried as ever (the 5xx policy).
   */
  retry?: boolean
  /**
   * A plain read that other checks ask for too (an operation with the configured inputs and a key): sent once for the
   * run and its answer shared. Never for a request a check sends to compare with an earlier answer of the same request.
   */
  shared?: boolean
}

/** What a write's answer said, read at the profile's pointers where it was accepted (2xx). */
/** A chained step's request (src/profile/chained-step.ts): its path and query, headers and accepted statuses. */
export interface StepRequest {
  path: string
  headers: Record<string, string>
  accepted?: number[]
}

export interface WriteAnswer {
  exchange: Exchange
  accepted: boolean
  statusIdentifier?: string
  receipt?: string
  duplicate?: unknown
}

export interface FailureDetails {
  exchange?: Exchange
  violations?: SchemaViolation[]
  counterexample?: Counterexample
}

/** The phases of a property check: the fixed coverage phase, then the random one. */
export type InputPhase = 'coverage' | 'random'

export interface CheckContext {
  readonly settings: RunSettings
  /** Every exchange this check made, in order. */
  readonly exchanges: Exchange[]
  /** Generated inputs examined per phase, for the report. */
  readonly inputs: Partial<Record<InputPhase, number>>
  countInputs(phase: InputPhase, count: number): void
  /** GET an operation with the configured inputs and the full key, unless the options say otherwise. */
  call(operation: OperationId, options?: CallOptions): Promise<Exchange>
  /**
   * A safe request to a path below the base URL with any method and a JSON body (the profile's realtime ticket
   * operation), with the full key unless the auth says otherwise.
   */
  request(method: string, path: string, options?: { auth?: Auth; body?: string }): Promise<Exchange>
  /** Opens a WebSocket, recorded with its messages (in the HAR, and as sockets); closed when the check ends. */
  openSocket(url: string): Promise<ChannelSocket>
  /** Every WebSocket this check opened, its upgrade exchange with its messages, in order. */
  readonly sockets: Exchange[]
  /** GET a path below the base URL as given (already encoded), e.g. an unknown route. */
  get(path: string, options?: Pick<CallOptions, 'auth' | 'headers' | 'retry'>): Promise<Exchange>
  /**
   * A result other checks of the run compute alike from the same requests (a list's walk): computed once per run by the
   * first check to ask, with that check's requests, and handed to the others. Never for a result a check must obtain
   * itself to compare it with another.
   */
  once<T>(key: string, compute: () => Promise<T>): Promise<T>
  /** The latest 429 any request of the run received since the given time (epoch ms): the run met its quota. */
  quotaRefusalSince(since: number): Exchange | undefined
  fail(message: string, details?: FailureDetails): never
  skip(reason: string): never
  /** A fresh signed body for the profile's write operation of this name; the check is skipped when none can be had. */
  signedBody(operation: string): Promise<string>
  /**
   * A fresh signed body of the cancellation's chained step (cancels.bodies), its command's arguments filled in with the
   * values of the submission it cancels.
   */
  cancellationBody(operation: string, fill: (argument: string) => string): Promise<string>
  /**
   * Sends the profile's write operation of this name with the body and Idempotency-Key given (null: none), and reads
   * its answer at the profile's pointers; a chained step is sent to its own path with its headers. Accepted: one of the
   * step's, else the operation's, accepted statuses, else any 2xx. The receipt returned is kept out of everything the
   * run writes from then on.
   */
  write(operation: string, body: string, idempotencyKey: string | null, step?: StepRequest): Promise<WriteAnswer>
  /** Fails unless the exchange has a JSON body valid against the named component schema. */
  expectSchema(schema: string, exchange: Exchange): void
  /**
   * Records a step of the receipt's lifecycle the check walks, for the report's timeline; receipt: the one the step
   * carried or was handed, which the report shows as its placeholder.
   */
  lifecycleStep(step: Omit<LifecycleStep, 'receipt'>, receipt?: string): void
}

/** Thrown by ctx.fail: a finding about the target. */
export class CheckFailure extends Error {
  readonly code = ERROR_CODES.checkFailed
  override readonly name = 'CheckFailure'
  constructor(
    message: string,
    readonly details: FailureDetails = {},
  ) {
    super(message)
  }
}

/**
 * Thrown when the circuit breaker would not send a request of the check (the target stopped answering), or when every
 * attempt of a safe read it needed was a transient 502, 503 or 504 (not assessed).
 */
export class CheckNotRun extends Error {
  readonly code = ERROR_CODES.checkNotRun
  override readonly name = 'CheckNotRun'
  constructor(
    readonly reason: string,
    readonly exchange: Exchange,
  ) {
    super(reason)
  }
}

/** Thrown by ctx.skip and for a missing input: the check cannot be judged in this run. */
export class CheckSkipped extends Error {
  readonly code = ERROR_CODES.checkSkipped
  override readonly name = 'CheckSkipped'
  constructor(readonly reason: string) {
    super(reason)
  }
}
