import { describe, expect, test } from 'vitest'
import { NOT_SELECTED } from '../../src/engine/judged-outcomes.js'
import { faults } from '../../src/reference/faults/index.js'
import { checksReached, plainRunWith } from '../support/reach.js'
import { crashedIds, failureSummary, idsWithStatus, messagesNotInWords, runAgainstReference } from '../support/run.js'

/** The settings of a plain run: the opt-in rate-limit probe and writes left out. */
const PLAIN_SETTINGS = { probeRateLimit: false, allowWrites: false }

describe('the plain reference server', () => {
  test('passes every check', async () => {
    const { report } = await plainRunWith(PLAIN_SETTINGS, {})
    expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([])
    expect(crashedIds(report), failureSummary(report)).toEqual([])
    expect(report.errors).toEqual([])
    expect(report.summary.verdict).toBe('pass')
    expect(messagesNotInWords(report).join('\n'), 'messages not in words').toBe('')
    // Nothing is left out by --check here, so a skip with the collector's fallback is one whose check gave no reason.
    const skipped = report.checks.filter((c) => c.status === 'skipped')
    expect(skipped.length, 'the plain run skips the opt-in rate-limit probe at least').toBeGreaterThan(0)
    for (const check of skipped)
      expect(check.reason, `${check.id} is skipped without a reason of its own`).not.toBe(NOT_SELECTED)
  })
})

describe('each fault of the reference server', () => {
  test.concurrent.each(faults.map((fault) => [fault.name, fault] as const))(
    '%s fails exactly the checks it names, each with a finding',
    async (_, fault) => {
      const { probeRateLimit = false, allowWrites = false, quota, receipts, durationMs, rate } = fault.run ?? {}
      const settings = { probeRateLimit, allowWrites }
      // The checks whose exchanges the fault changes, and those it names: every other check meets the plain
      // reference's answers, which the plain run passed. A fault that leaves keys out of the reference's profile may
      // change any check that reads them, and one under a quota is met through the run's volume of requests: the whole
      // suite runs, as it does for a fault a soak shows.
      const reached =
        fault.profileWithout || quota || durationMs
          ? 'all'
          : checksReached(fault, await plainRunWith(settings, { quota, receipts }))
      const only = reached === 'all' ? undefined : [...new Set([...reached, ...fault.breaks])]
      const report = await runAgainstReference(
        { faults: [fault.name] },
        { ...settings, ...(durationMs && { durationMs, rate }) },
        { ...(only && { only }) },
      )
      expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([...fault.breaks].sort())
      // A check that crashed found nothing: its failure is no detection of the fault.
      expect(crashedIds(report), failureSummary(report)).toEqual([])
      for (const failed of report.checks.filter((c) => c.status === 'failed')) {
        expect(failed.evidence?.message, `${failed.id} failed without evidence`).toBeTruthy()
      }
      expect(messagesNotInWords(report).join('\n'), 'messages not in words').toBe('')
    },
  )
})

describe('a run without a profile', () => {
  test('reports each every-response rule that holds responses to a profile fact as not assessable, naming the key, though such responses were received', async () => {
    const report = await runAgainstReference({}, {}, { profile: null })
    const profileRules = report.checks.filter((c) => c.id.startsWith('every-response/') && /listed|mapped/.test(c.id))
    expect(profileRules.length, 'the profile rules are in the report').toBeGreaterThan(0)
    for (const rule of profileRules)
      expect(`${rule.id}: ${rule.status} ${rule.reason}`).toMatch(
        /: skipped not assessable without a deployment profile that states \w+ \(--profile\)$/,
      )
  })
})
