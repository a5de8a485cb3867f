import { beforeAll, describe, expect, test } from 'vitest'
import { allowances } from '../src/reference/allowances/index.js'
import { failureSummary, idsWithStatus, runAgainstReference } from './support/run.js'

describe('each allowance of the contract', () => {
  let skippedByPlain: string[]

  beforeAll(async () => {
    skippedByPlain = idsWithStatus(await runAgainstReference(), 'skipped')
  }, 300_000)

  test.concurrent.each(allowances.map((allowance) => [allowance.name, allowance] as const))(
    '%s passes, skipping exactly the checks it names',
    async (_, allowance) => {
      const { maxPages, probeRateLimit, allowWrites, durationMs, rate } = allowance.run ?? {}
      const report = await runAgainstReference(
        { allowances: [allowance.name] },
        {
          ...(maxPages && { maxPages }),
          ...(probeRateLimit && { probeRateLimit }),
          ...(allowWrites && { allowWrites }),
          ...(durationMs && { durationMs, rate }),
        },
      )
      // A reading the behaviour does not follow fails its SHOULD check, named by the allowance; no MUST check fails.
      expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([...(allowance.readings ?? [])].sort())
      const failedMust = report.checks.filter((c) => c.status === 'failed' && c.level !== 'SHOULD')
      expect(
        failedMust.map((c) => c.id),
        'an allowance fails no MUST check',
      ).toEqual([])
      expect(report.errors, 'the run itself went wrong').toEqual([])
      expect(report.summary.verdict).toBe('pass')
      // A check 'not run' (the target stopped answering) is no skip the allowance permits: it fails the verdict above.
      const newlySkipped = report.checks.filter((c) => c.status === 'skipped' && !skippedByPlain.includes(c.id))
      expect(newlySkipped.map((c) => c.id).sort(), newlySkipped.map((c) => `${c.id}: ${c.reason}`).join('\n')).toEqual(
        [...(allowance.skips ?? [])].sort(),
      )
    },
  )
})
