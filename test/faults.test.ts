import { describe, expect, test } from 'vitest'
import { faults } from '../src/reference/faults/index.js'
import { failureSummary, idsWithStatus, runAgainstReference } from './support/run.js'

describe('the plain reference server', () => {
  test('passes every check', async () => {
    const report = await runAgainstReference()
    expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([])
    expect(report.errors).toEqual([])
    expect(report.summary.verdict).toBe('pass')
    for (const skipped of report.checks.filter((c) => c.status === 'skipped')) {
      expect(skipped.reason, `${skipped.id} is skipped without a reason`).toBeTruthy()
    }
  })
})

describe('each fault of the reference server', () => {
  test.each(faults.map((fault) => [fault.name, fault] as const))('%s fails exactly the checks it names', async (_, fault) => {
    const report = await runAgainstReference({ faults: [fault.name] }, { probeRateLimit: fault.run?.probeRateLimit ?? false })
    expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([...fault.breaks].sort())
    for (const failed of report.checks.filter((c) => c.status === 'failed')) {
      expect(failed.evidence?.message, `${failed.id} failed without evidence`).toBeTruthy()
    }
  })
})
