import { findingMessage } from '../checks/exchange-judge.js'
import { relationRules, type Comparison, type ListWalk, type RelationMemory } from '../checks/relations.js'
import type { Evidence } from '../core/report.js'
import type { Exchange } from '../http/exchange.js'
import { RUN_CUT_CODES } from '../http/client.js'
import { redact, redactDeep, type Secret } from '../http/secrets.js'
import { buildEvidence, sampleOf } from './evidence.js'
import type { Observations, RuleObservation } from './observations.js'

/**
 * When a sample was taken: round 0 is the checks, on the run's first connections; each later round (the last sweep, a
 * soak's rounds) reads on connections of its own. Recorded traffic takes the round its HAR names (0 otherwise).
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
  private violatedSamples = 0

  constructor(private readonly secrets: () => readonly Secret[]) {}

  /** Shows each response of these exchanges (the attempts retried among them) to every relation. */
  responses(exchanges: readonly Exchange[], time: SampleTime, sentBy?: string): void {
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

  /** Samples that showed a violation so far, each once per relation it broke: a round's count for the timeline. */
  violations(): number {
    return this.violatedSamples
  }

  /** Redacts the evidence kept so far with these secrets: a holder that forgets them (the proxy's) redacts first. */
  redactKept(secrets: readonly Secret[]): void {
    for (const { seen } of this.rules) {
      seen.violations = redactDeep(seen.violations, secrets)
      if (seen.crash !== undefined) seen.crash = redact(seen.crash, secrets)
    }
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
    sentBy: string | undefined,
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
      this.violatedSamples++
      if (seen.violations.length < VIOLATIONS_KEPT)
        seen.violations.push(this.evidence(comparison, exchange, time, sentBy))
    }
  }

  private evidence(
    comparison: NonNullable<Comparison>,
    exchange: Exchange,
    time: SampleTime,
    sentBy: string | undefined,
  ): Evidence {
    const evidence = buildEvidence(findingMessage(comparison), { exchange }, this.secrets())
    if (sentBy !== undefined) evidence.sentBy = sentBy
    evidence.sample = sampleOf(exchange, time.round) ?? { round: time.round, at: new Date().toISOString() }
    return evidence
  }
}
