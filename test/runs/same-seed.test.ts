import { describe, expect, test } from 'vitest'
import { startReferenceServer } from '../../src/reference/server.js'
import { referenceBehaviours } from '../../src/reference/named-behaviours.js'
import type { FaultName } from '../../src/reference/fault-names.js'
import { runConformance } from '../../src/runner/run.js'
import type { Report } from '../../src/core/report.js'
import { referenceInputs } from '../support/hostile-servers.js'
import { TEST_SETTINGS } from '../support/run.js'

/**
 * Faults whose failures carry evidence of every kind: a coverage case, a shrunk counterexample, every-response rules.
 */
const FAULTS: FaultName[] = [
  'properties-receipt-prefix-match',
  'cursors-tampered-cursor-500',
  'request-id-echoed-unvalidated',
  'unauthorized-with-payload',
]

/**
 * What a report holds apart from timings (durations, waits, Date headers, when a finding's first sample was sent), the
 * client ports of its connections, and the request IDs the reference server draws at random for each response.
 */
function withoutTimings(report: Report): unknown {
  const { checks, requirements, errors, summary, seed, runs } = report
  const text = JSON.stringify({ checks, requirements, errors, summary, seed, runs }, (key, value: unknown) =>
    ['durationMs', 'waitedMs', 'date', 'at', 'port'].includes(key) ? undefined : value,
  )
  return JSON.parse(text.replace(/ref-[0-9a-f]{16}/g, 'ref-…'))
}

describe('two runs with the same seed against the same target', () => {
  test('give the same checks, outcomes and evidence', { timeout: 300_000 }, async () => {
    const target = await startReferenceServer({ behaviours: referenceBehaviours(FAULTS) })
    const run = () =>
      runConformance({
        settings: { ...TEST_SETTINGS, baseUrl: target.baseUrl, ...referenceInputs(target) },
      })
    try {
      const first = await run()
      const second = await run()
      expect(first.summary.failed, 'the faults show as failures with evidence').toBeGreaterThan(0)
      expect(withoutTimings(second)).toEqual(withoutTimings(first))
    } finally {
      await target.close()
    }
  })
})
