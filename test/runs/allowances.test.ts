import { describe, expect, test } from 'vitest'
import { exchangeRules } from '../../src/checks/every-response.js'
import { relationRules } from '../../src/checks/relations.js'
import { NOT_SELECTED } from '../../src/engine/judged-outcomes.js'
import { allowances } from '../../src/reference/allowances/index.js'
import type { Allowance } from '../../src/reference/types.js'
import { countingEdits } from '../support/behaviours.js'
import { checksReached, plainRunWith } from '../support/reach.js'
import { failureSummary, idsWithStatus, runAgainstReference } from '../support/run.js'

/** The settings an allowance's run needs for its behaviour to show (page bound, rate-limit probe, writes, a soak). */
function settingsOf(run: Allowance['run'] = {}) {
  const { maxPages, probeRateLimit, allowWrites, durationMs, rate } = run
  return {
    ...(maxPages && { maxPages }),
    probeRateLimit: probeRateLimit ?? false,
    allowWrites: allowWrites ?? false,
    ...(durationMs && { durationMs, rate }),
  }
}

/** The rules judged over every response a run meets, which report an outcome whatever the run selects. */
const ruleIds = new Set<string>([...exchangeRules, ...relationRules].map((rule) => rule.id))

describe('each allowance of the contract', () => {
  test.concurrent.each(allowances.map((allowance) => [allowance.name, allowance] as const))(
    '%s passes, skipping exactly the checks it names, and changes an exchange of the checks it runs',
    async (_, allowance) => {
      const plain = await plainRunWith(settingsOf(allowance.run), { quota: allowance.run?.quota })
      // The checks whose exchanges the allowance changes, and those it names: every other check meets the plain
      // reference's answers, as in the plain run. An allowance that leaves keys out of the reference's profile may
      // change any check that reads them, and one shown by a soak changes what the rounds read: the whole suite runs.
      const reached = allowance.profileWithout || allowance.run?.durationMs ? 'all' : checksReached(allowance, plain)
      const only =
        reached === 'all'
          ? undefined
          : [...new Set([...reached, ...(allowance.skips ?? []), ...(allowance.readings ?? [])])]
      expect(only ?? 'all', 'the allowance changes no exchange of a plain run').not.toEqual([])
      const counted = countingEdits(allowance)
      const report = await runAgainstReference(
        { behaviours: [counted.behaviour], quota: allowance.run?.quota },
        settingsOf(allowance.run),
        { ...(only && { only }) },
      )
      expect(counted.edits(), 'exchanges of the run the allowance changed').toBeGreaterThan(0)
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
      // A rule is judged over the exchanges of the checks run: in a part of the suite, one may have nothing to judge
      // that the whole run gives it. Those the allowance names are skipped: the whole run gives them nothing either.
      const skippedByPlain = idsWithStatus(plain.report, 'skipped')
      const newlySkipped = report.checks.filter(
        (c) =>
          c.status === 'skipped' &&
          c.reason !== NOT_SELECTED &&
          !skippedByPlain.includes(c.id) &&
          (only === undefined || !ruleIds.has(c.id) || only.some((id) => id === c.id)),
      )
      expect(newlySkipped.map((c) => c.id).sort(), newlySkipped.map((c) => `${c.id}: ${c.reason}`).join('\n')).toEqual(
        [...(allowance.skips ?? [])].sort(),
      )
    },
  )
})
