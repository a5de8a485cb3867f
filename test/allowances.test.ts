import { describe, expect, test } from 'vitest'
import { allowances } from '../src/reference/allowances/index.js'
import { failureSummary, idsWithStatus, runAgainstReference } from './support/run.js'

describe('each allowance of the contract', () => {
  test.each(allowances.map((allowance) => [allowance.name, allowance] as const))('%s is not flagged', async (_, allowance) => {
    const report = await runAgainstReference({ allowances: [allowance.name] }, allowance.run ?? {})
    expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([])
  })
})
