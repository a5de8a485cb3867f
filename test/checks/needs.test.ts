import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { allChecks } from '../../src/checks/index.js'
import { missingInputReasons } from '../../src/checks/needs.js'
import type { Check, Need } from '../../src/checks/types.js'
import type { RunSettings } from '../../src/core/settings.js'
import { clientOf } from '../../src/engine/run-checks.js'
import { runCheck } from '../../src/engine/run-check.js'
import { createSharedState } from '../../src/http/shared-state.js'
import { loadProfile } from '../../src/profile/load.js'
import { politeFetch, referenceProfileSource } from '../../src/runner/profile-of-run.js'
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js'
import { referenceInputs } from '../support/hostile-servers.js'
import { TEST_SETTINGS } from '../support/run.js'

/**
 * The inputs a check needs, as the engine reads them: a check is skipped before it sends anything when the run lacks
 * one, with the reason that names its flag, and a check that cannot do without an input says so, so that the engine
 * skips it before it sends anything: under the reference's profile, a check that states no need would meet its own
 * first use of the input instead.
 */
const INPUTS = Object.keys(missingInputReasons) as Need[]
const MISSING_INPUT = new Set(Object.values(missingInputReasons))

let reference: ReferenceServer
/** The requests of the check now running, as the reference met them: path, query and headers. */
let sent: string[] = []
let given: RunSettings

beforeAll(async () => {
  reference = await startReferenceServer({
    behaviours: [
      {
        name: 'recorder',
        description: 'records the requests',
        onRequest: (request) => void sent.push(`${request.path}?${request.query} ${JSON.stringify(request.headers)}`),
      },
    ],
  })
  const inputs = { ...TEST_SETTINGS, baseUrl: reference.baseUrl, embedded: false, ...referenceInputs(reference) }
  const fetchDescription = politeFetch(inputs as RunSettings, createSharedState())
  given = {
    ...inputs,
    profile: await loadProfile(referenceProfileSource(reference.baseUrl, []), fetchDescription),
  } as RunSettings
})
afterAll(() => reference.close())

async function outcomeWith(settings: RunSettings, check: Check) {
  const client = clientOf(settings, createSharedState())
  sent = []
  try {
    const { outcome } = await runCheck(check, 'needs', { settings, client, secrets: [] })
    return { outcome, sent }
  } finally {
    await client.close()
  }
}

describe('the inputs a check needs', () => {
  test.each(allChecks.map((check) => [check.id, check] as const))(
    '%s: without an input it needs, skipped with the reason naming it, nothing sent; not skipped for an input otherwise',
    async (_, check) => {
      const needs = check.needs ?? []
      const without = Object.fromEntries(INPUTS.map((input) => [input, undefined]))
      const bare = await outcomeWith({ ...given, ...without }, check)
      if (needs.length > 0)
        expect({ reason: bare.outcome.reason, sent: bare.sent.length }, 'without any input').toEqual({
          reason: missingInputReasons[needs[0]!],
          sent: 0,
        })
      else {
        expect(MISSING_INPUT.has(bare.outcome.reason!), `without any input: ${bare.outcome.reason}`).toBe(false)
        expect(bare.outcome.crashed, `without any input: ${bare.outcome.reason}`).toBeUndefined()
        // An input it reads though the run lacks it: the requests carry the text of a missing value.
        expect(
          bare.sent.filter((request) => request.includes('undefined')),
          'sent without any input',
        ).toEqual([])
      }
      for (const need of needs) {
        const { outcome, sent } = await outcomeWith({ ...given, [need]: undefined }, check)
        expect({ reason: outcome.reason, sent: sent.length }, `without ${need}`).toEqual({
          reason: missingInputReasons[need],
          sent: 0,
        })
      }
      const { outcome } = await outcomeWith(given, check)
      expect(outcome.crashed, `with every input: ${outcome.reason}`).toBeUndefined()
      if (outcome.status === 'skipped') {
        expect(outcome.reason, 'a skip of a check given every input').toEqual(expect.any(String))
        expect(MISSING_INPUT.has(outcome.reason!), outcome.reason).toBe(false)
      }
    },
  )
})
