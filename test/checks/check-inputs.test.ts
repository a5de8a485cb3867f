import { describe, expect, test } from 'vitest'
import { buildReferenceData } from '../../src/reference/data.js'
import { runAgainstReference } from '../support/run.js'

/**
 * Checks run by themselves with inputs that leave them less to go on than the embedded reference gives: the paths a
 * deployment's inputs take and the plain reference's do not. Judged under mutation beside
 * test/checks/each-check.test.ts.
 */

const { trader } = buildReferenceData()

describe('cursors/cursor-bound-to-trader', () => {
  test('looks for another trader in the orders of the intents given when the second trader is the configured one (in any letter case), and skips naming --second-trader when each order is its', async () => {
    const report = await runAgainstReference(
      {},
      { secondTrader: `0x${trader.slice(2).toUpperCase()}` },
      { only: ['cursors/cursor-bound-to-trader'] },
    )
    const outcome = report.checks.find((c) => c.id === 'cursors/cursor-bound-to-trader')!
    expect(outcome.status, outcome.reason).toBe('skipped')
    expect(outcome.reason).toBe(
      "no other trader is known: give --second-trader (a trader with balances); the orders of the intents given are all the configured trader's",
    )
  })
})
