import { findingMessage } from '../checks/exchange-judge.js'
import { relationRules, type Comparison, type ListWalk, type RelationMemory } from '../checks/relations.js'
import type { Evidence } from '../core/report.js'
import type { Exchange } from '../http/exchange.js'
import { RUN_CUT_CODES } from '../http/client.js'
import { redact, type Secret } from '../http/secrets.js'
import { buildEvidence } from './evidence.js'
import type { Observations, RuleObservation } from './observations.js'

/**
 * When a sample was taken: round 0 is the checks, on the run's first connections; each later round (the last sweep, a
 * soak's rounds) reads on connections of its own.
 */
export interface SampleTime {
  round: number
}

const VIOLATIONS_KEPT = 3

/**
 * What the relations found over a run: each rule's memory, how many samples it compared, how many showed a violation,
 * and the first few with their evidence and when they came. Its size grows with the deployment's resources, not with
 * the number of samples.
 */
export class RelationTally {
  private readonly rules = relationRules.map((rule) => ({
    rule,
    memory: rule.remember() as RelationMemory,
    seen: { applied: 0, violated: 0, violations: [] } as RuleObservation,
  }))

  constructor(private readonly secrets: () => readonly Secret[]) {}

  /** Shows each response of these exchanges (the attempts retried among them) to every relation. */
  responses(exchanges: readonly Exchange[], time: SampleTime, sentBy: string): void {
    for (const exchange of exchanges) {
      if (exchange.operation === undefined || (exchange.error && RUN_CUT_CODES.has(exchange.error.code))) continue
      const attempts = [...exchange.retries.flatMap(({ response }) => (response ? [response] : []))]
      if (exchange.response) attempts.push(exchange.response)
      for (const response of attempts) {
        if (response.notJudged !== undefined) continue
        const shown = { ...exchange, response }
        this.judge((memory) => memory.response && (() => memory.response!(response, shown)), shown, time, sentBy)
      }
    }
  }

  /** Shows a whole walk of a list to every relation that compares walks. */
  walk(walk: ListWalk, time: SampleTime, sentBy: string): void {
    this.judge((memory) => memory.walk && (() => memory.walk!(walk)), walk.first, time, sentBy)
  }

  /** How many relations have shown a violation by now: the soak's "findings so far". */
  violatedRules(): number {
    return this.rules.filter(({ seen }) => seen.violated > 0 || seen.crash !== undefined).length
  }

  /** What each relation saw, as the every-response rules' observations are added up. */
  observations(): Observations {
    return Object.fromEntries(this.rules.map(({ rule, seen }) => [rule.id, seen]))
  }

  /** Each relation that judges this kind of sample (comparing: its judgement, or undefined) compares it. */
  private judge(
    comparing: (memory: RelationMemory) => (() => Comparison) | undefined,
    exchange: Exchange,
    time: SampleTime,
    sentBy: string,
  ): void {
    for (const { memory, seen } of this.rules) {
      const compare = comparing(memory)
      if (!compare) continue
      let comparison: Comparison
      try {
        comparison = compare()
      } catch (error) {
        seen.crash ??= redact(String(error), this.secrets())
        continue
      }
      if (comparison === null) continue
      seen.applied++
      if (comparison === undefined) continue
      seen.violated++
      if (seen.violations.length < VIOLATIONS_KEPT)
        seen.violations.push(this.evidence(comparison, exchange, time, sentBy))
    }
  }

  private evidence(
    comparison: NonNullable<Comparison>,
    exchange: Exchange,
    time: SampleTime,
    sentBy: string,
  ): Evidence {
    const evidence = buildEvidence(findingMessage(comparison), { exchange }, this.secrets())
    evidence.sentBy = sentBy
    evidence.sample = { round: time.round, at: exchange.startedAt ?? new Date().toISOString() }
    return evidence
  }
}
