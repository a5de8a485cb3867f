import type { RequirementId } from '../contract/catalogue-ids.js'
import type { SchemaViolation } from '../contract/schemas.js'
import type { Exchange, ExchangeResponse } from '../http/exchange.js'
import type { ProfileKey } from '../profile/profile.js'
import type { RunSettings } from '../core/settings.js'

/** What is wrong with one exchange: a message, and the schema violations where a schema decided it. */
export type Finding = string | { message: string; violations?: SchemaViolation[] }

/** The inputs a judgement of one exchange may use beyond the exchange itself. */
export type JudgedSettings = Partial<RunSettings>

/**
 * How one exchange is judged, by itself: the every-response rules, and the checks a single recorded exchange can
 * decide. violation() is called only where applies() is true; it returns what is wrong, or undefined.
 */
export interface ExchangeJudge {
  id: string
  requirement: RequirementId
  title: string
  /** Why the judgement is skipped when no exchange was one it applies to. */
  notApplicable: string
  /** The profile key the judgement holds every response to; without it in the run's profile it applies to nothing. */
  profile?: ProfileKey
  /**
   * True for a judgement of what the operation answered (its status), as against the response's own shape: the engine
   * applies it only to the request's answer, not to an attempt the client sent again (after a 500, 502, 503 or 504) nor
   * to a transient 502, 503 or 504, which says nothing of the request (src/engine/server-errors.ts).
   */
  judgesAnswer?: boolean
  applies(response: ExchangeResponse, exchange: Exchange, settings: JudgedSettings): boolean
  violation(response: ExchangeResponse, exchange: Exchange, settings: JudgedSettings): Finding | undefined
}

/** The part of a check that judges one recorded exchange, for checks whose requirement one exchange can show. */
export type RecordedJudgement = Pick<ExchangeJudge, 'notApplicable' | 'judgesAnswer' | 'applies' | 'violation'>

export function findingMessage(finding: Finding): string {
  return typeof finding === 'string' ? finding : finding.message
}

/**
 * A member of a response's JSON body: undefined where the body lacks it or is no object (a JSON array, string, number
 * or null has no member by any name the rules ask for).
 */
export function bodyMember(response: ExchangeResponse, name: string): unknown {
  return (response.json as Record<string, unknown> | null | undefined)?.[name]
}
