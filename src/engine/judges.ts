import { exchangeRules } from '../checks/every-response.js'
import type { ExchangeJudge } from '../checks/exchange-judge.js'
import { checksByConcern } from '../checks/index.js'
import { relationRules } from '../checks/relations.js'

/**
 * A judge as a report names it: the every-response rules are their own concern, a check's judgement belongs to the
 * check's.
 */
export type NamedJudge = Pick<ExchangeJudge, 'id' | 'title' | 'requirement' | 'notApplicable' | 'profile'> & {
  concern: string
}

/** A judgement of one exchange, named as the report names it. */
export type Judge = ExchangeJudge & NamedJudge

/** The concern of the rules applied to every exchange, whichever check sent it. */
export const EVERY_RESPONSE = 'every-response'

let judges: readonly Judge[] | undefined

/**
 * Everything one exchange can decide, whichever way it was received (a check's request in a run, a HAR entry, the
 * proxy): each check that declares how one exchange decides it, and the every-response rules.
 */
export function exchangeJudges(): readonly Judge[] {
  judges ??= [
    ...Object.entries(checksByConcern).flatMap(([concern, checks]) =>
      checks.flatMap(({ id, title, requirement, profile, recorded }) =>
        recorded ? [{ id, title, requirement, profile, concern, ...recorded }] : [],
      ),
    ),
    ...exchangeRules.map((rule) => ({ ...rule, concern: EVERY_RESPONSE })),
  ]
  return judges
}

/** The every-response rules as judges: their outcomes are the observer's alone. */
export function everyResponseJudges(): readonly Judge[] {
  return exchangeJudges().filter((judge) => judge.concern === EVERY_RESPONSE)
}

/** The concern of the relations between samples (src/checks/relations.ts): a run judges them over all its responses. */
export const RELATIONS = 'relations'

/** The relation rules as a report names them. */
export function relationJudges(): readonly NamedJudge[] {
  return relationRules.map(({ id, title, requirement, notApplicable }) => ({
    id,
    title,
    requirement,
    notApplicable,
    concern: RELATIONS,
  }))
}
