import { beforeAll, describe, expect, test } from 'vitest'
import { allowances } from '../src/reference/allowances/index.js'
import { failureSummary, idsWithStatus, runAgainstReference } from './support/run.js'

describe('each allowance of the contract', () => {
  let skippedByPlain: string[]

  beforeAll(async () => {
    skippedByPlain = idsWithStatus(await runAgainstReference(), 'skipped')
  }, 300_000)

  test.concurrent.each(allowances.map((allowance) => [allowance.name, allowance] as const))('%s passes, skipping exactly the checks it names', async (_, allowance) => {
    const report = await runAgainstReference({ allowances: [allowance.name] }, allowance.run ?? {})
    expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([])
    expect(report.errors, 'the run itself went wrong').toEqual([])
    expect(report.summary.verdict).toBe('pass')
    // A check 'not run' (the target stopped answering) is no skip the allowance permits: it fails the verdict above.
    const newlySkipped = report.checks.filter((c) => c.status === 'skipped' && !skippedByPlain.includes(c.id))
    expect(newlySkipped.map((c) => c.id).sort(), newlySkipped.map((c) => `${c.id}: ${c.reason}`).join('\n')).toEqual([...(allowance.skips ?? [])].sort())
  })
})
