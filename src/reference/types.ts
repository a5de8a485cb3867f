import type { CheckId, RequirementId } from '../contract/catalogue-ids.js'
import type { ProfileKey } from '../profile/profile.js'
import type { ReferenceData } from './data.js'

/** A request as the reference server's handlers see it. Behaviours may rewrite it before it is handled. */
export interface RefRequest {
  method: string
  /** Path as sent (still percent-encoded), without the query. */
  path: string
  query: URLSearchParams
  /** Lower-case names; the first value of a repeated header. */
  headers: Record<string, string | undefined>
  /** The body of a write, as sent. */
  body?: string
  /**
   * The connection it came on: 1 for the first the server accepted, 2 for the next... (behaviours that differ by
   * connection stand for replicas behind a load balancer); undefined for a request no connection brought.
   */
  connection?: number
  /** The operation the path addressed, once routed, with its decoded path parameters. */
  route?: { operation: string; params: Record<string, string> }
}

/** A response before it is written. Behaviours may rewrite it after it is handled. */
export interface RefResponse {
  status: number
  headers: Record<string, string | string[]>
  /** A JSON value, serialised on the way out. */
  body?: unknown
  /** Bytes sent as they are instead of body, for behaviours that break the wire format. */
  raw?: string
  /** The payload in a content coding, sent instead of both. */
  encoded?: Buffer
}

/**
 * A named change to the reference server's behaviour: a fault (breaks the contract) or an allowance (stays within it).
 */
export interface Behaviour {
  name: string
  description: string
  onRequest?(request: RefRequest, data: ReferenceData): void
  onResponse?(response: RefResponse, request: RefRequest, data: ReferenceData): void
  /**
   * Keys of the reference's own profile (specs/reference-profile.yaml) that this behaviour makes untrue: a deployment
   * behaving so would not state them, so an embedded run with it switched on leaves them out of the profile.
   */
  profileWithout?: readonly ProfileKey[]
  /** Rewrites a channel's subscribe request before the reference reads it (src/reference/realtime.ts). */
  onSubscribe?(subscription: ChannelSubscription, data: ReferenceData): void
  /** Rewrites what a channel is about to send: drop the message or the close, or change them. */
  onChannelOutput?(output: ChannelOutput, data: ReferenceData): void
}

/** A channel's subscribe request: the channel named, and the receipt sent (undefined: none, or empty). */
export interface ChannelSubscription {
  channel: string
  receipt?: string
}

/** What a channel sends at once: a JSON message, a close, or a message then a close. */
export interface ChannelOutput {
  message?: Record<string, unknown>
  close?: { code: number; reason: string }
  /** A WebSocket ping (a heartbeat control frame) sent first. */
  ping?: boolean
}

export interface Fault extends Behaviour {
  /** Exactly the checks this fault makes fail. */
  breaks: readonly CheckId[]
  /**
   * For the per-check self-tests (test/checks/each-check.test.ts), which run one check alone: the checks whose requests
   * show this fault to the every-response rules it breaks. Without it, the checks of `breaks` that are no rule.
   */
  ruleWitnesses?: readonly CheckId[]
  /**
   * For a check of `breaks` that judges every exchange (its recorded judgement) and meets this fault only in other
   * checks' requests when it runs alone: those checks.
   */
  checkWitnesses?: Partial<Record<CheckId, readonly CheckId[]>>
  /**
   * What the run needs for the fault to show, when a default run would not (a quota, the opt-in rate-limit probe,
   * receipts of other characters, writes).
   */
  run?: {
    probeRateLimit?: boolean
    allowWrites?: boolean
    quota?: { limit: number; windowMs: number; windowFrom?: 'first-request' | 'first-refusal' }
    receipts?: [string, string]
    /** A soak after the checks (--duration, --rate), for a fault that shows only later or on some connections. */
    durationMs?: number
    rate?: number
  }
}

export interface Allowance extends Behaviour {
  /** The requirement whose rule permits this behaviour. */
  permittedBy: RequirementId
  /**
   * Settings the run needs for the behaviour to show (a page bound the list exceeds, a quota and the rate-limit probe).
   */
  run?: {
    maxPages?: number
    probeRateLimit?: boolean
    allowWrites?: boolean
    quota?: { limit: number; windowMs: number; windowFrom?: 'first-request' | 'first-refusal' }
    /** A soak after the checks (--duration, --rate), for a behaviour that shows only later or on some connections. */
    durationMs?: number
    rate?: number
  }
  /**
   * Exactly the checks that pass against the plain reference and are skipped under this allowance (it leaves them
   * nothing to judge).
   */
  skips?: readonly CheckId[]
  /**
   * Exactly the SHOULD checks this allowance fails: each rests on a reading of the contract (inferred) that the
   * behaviour does not follow, while no sentence of the contract forbids it. A MUST check never fails under an
   * allowance.
   */
  readings?: readonly CheckId[]
}
