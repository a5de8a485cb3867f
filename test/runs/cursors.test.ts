import { describe, expect, test } from 'vitest'
import type { CheckId } from '../../src/contract/catalogue-ids.js'
import { checksByConcern } from '../../src/checks/index.js'
import type { Report } from '../../src/core/report.js'
import { failureSummary, idsWithStatus, runAgainstReference } from '../support/run.js'

const CURSOR_CHECKS = checksByConcern.cursors.map((check) => check.id)
const WALKS: CheckId[] = ['cursors/balances-walk-ends', 'cursors/markets-walk-ends']

const reasonOf = (report: Report, id: string) => report.checks.find((c) => c.id === id)?.reason ?? ''
/** Of the given checks, those that ended with the status (the run reports the others too, as not selected). */
const among = (report: Report, ids: readonly string[], status: string) =>
  idsWithStatus(report, status).filter((id) => ids.includes(id))

describe('pagination parameter names, which the contract does not show', () => {
  test('a list that ignores ?cursor= gets every cursor check skipped with the flag to set, and --cursor-param makes them pass', async () => {
    const ignored = await runAgainstReference(
      { allowances: ['cursors-cursor-param-page-token'] },
      {},
      { only: CURSOR_CHECKS },
    )
    expect(among(ignored, CURSOR_CHECKS, 'skipped'), failureSummary(ignored)).toEqual([...CURSOR_CHECKS].sort())
    for (const id of CURSOR_CHECKS) expect(reasonOf(ignored, id), id).toMatch(/ignores \?cursor= .*set --cursor-param/)
    const named = await runAgainstReference(
      { allowances: ['cursors-cursor-param-page-token'] },
      { cursorParam: 'page_token' },
      { only: CURSOR_CHECKS },
    )
    expect(idsWithStatus(named, 'failed'), failureSummary(named)).toEqual([])
    expect(among(named, WALKS, 'passed')).toEqual(WALKS)
  })

  test('a list that ignores ?limit= and fits one page gets the walks skipped with the flag to set, and --limit-param makes them pass', async () => {
    const ignored = await runAgainstReference({ allowances: ['cursors-limit-param-page-size'] }, {}, { only: WALKS })
    expect(among(ignored, WALKS, 'skipped'), failureSummary(ignored)).toEqual(WALKS)
    for (const id of WALKS) expect(reasonOf(ignored, id), id).toMatch(/ignores \?limit= .*set --limit-param/)
    const named = await runAgainstReference(
      { allowances: ['cursors-limit-param-page-size'] },
      { limitParam: 'page_size' },
      { only: WALKS },
    )
    expect(among(named, WALKS, 'passed'), failureSummary(named)).toEqual(WALKS)
  })
})

describe('a list longer than --max-pages', () => {
  test('is walked up to the bound and reported skipped, not failed; the same list within the bound passes', async () => {
    const bounded = await runAgainstReference(
      { allowances: ['cursors-long-list'] },
      { maxPages: 20 },
      { only: [...WALKS, 'cursors/items-unique'] },
    )
    expect(among(bounded, WALKS, 'skipped'), failureSummary(bounded)).toEqual(WALKS)
    for (const id of WALKS) expect(reasonOf(bounded, id), id).toMatch(/no last page within 20 pages \(--max-pages\)/)
    expect(among(bounded, ['cursors/items-unique'], 'passed')).toEqual(['cursors/items-unique'])
    const whole = await runAgainstReference({ allowances: ['cursors-long-list'] }, { maxPages: 100 }, { only: WALKS })
    expect(among(whole, WALKS, 'passed'), failureSummary(whole)).toEqual(WALKS)
  })
})

describe('cursors/cursor-bound-to-trader', () => {
  test('is skipped as inconclusive when the other trader is unknown, so that its 404 says nothing of the cursor', async () => {
    const report = await runAgainstReference(
      {},
      { secondTrader: `0x${'0e'.repeat(20)}` },
      { only: ['cursors/cursor-bound-to-trader'] },
    )
    expect(among(report, ['cursors/cursor-bound-to-trader'], 'skipped'), failureSummary(report)).toEqual([
      'cursors/cursor-bound-to-trader',
    ])
    expect(reasonOf(report, 'cursors/cursor-bound-to-trader')).toMatch(/inconclusive/)
  })
})
