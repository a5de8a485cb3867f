import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { allChecks } from '../../src/checks/index.js'
import { missingInputReasons } from '../../src/checks/needs.js'
import type { Check, Need } from '../../src/checks/types.js'
import type { RunSettings } from '../../src/core/settings.js'
import { clientOf, writingOf } from '../../src/engine/run-checks.js'
import { runCheck } from '../../src/engine/run-check.js'
import { createSharedState } from '../../src/http/shared-state.js'
import { loadProfile } from '../../src/profile/load.js'
import { politeFetch, referenceProfileSource } from '../../src/runner/profile-of-run.js'
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js'
import { referenceInputs } from '../support/hostile-servers.js'
import { signAsTheReference } from '../support/reference-signer.js'
import { TEST_SETTINGS } from '../support/run.js'

/**
 * The inputs a check needs, as the engine reads them: a check is skipped before it sends anything when the run lacks
 * one, with the reason that names its flag, and a check that cannot do without an input says so, so that the engine
 * skips it before it sends anything: under the reference's profile, writes allowed, a check that states no need would
 * meet its own first use of the input instead. Without an input it does not state, a check may skip, never fail.
 */
const INPUTS = Object.keys(missingInputReasons) as Need[]
const MISSING_INPUT = Object.values(missingInputReasons)
/** Whether a reason says an input was missing, alone or as the reason of one of the operations a check reads. */
const forMissingInput = (reason: string | undefined) => MISSING_INPUT.some((missing) => reason?.includes(missing))

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
    allowWrites: true,
  } as RunSettings
})
afterAll(() => reference.close())

async function outcomeWith(settings: RunSettings, check: Check) {
  const client = clientOf(settings, createSharedState())
  sent = []
  try {
    const { outcome } = await runCheck(check, 'needs', {
      settings,
      client,
      secrets: [],
      writing: writingOf(settings, [], signAsTheReference),
    })
    return { outcome, sent }
  } finally {
    await client.close()
  }
}

/** The checks that judge the published description the profile loaded, and send nothing themselves. */
const DESCRIPTION_ONLY = ['profile/openapi-document', 'profile/openapi-compatible']
/**
 * The checks a request without the API key can judge: the refusals of a missing or unknown key and their bodies and
 * request IDs, and the published description. Any other check a run without the key passed would have judged nothing:
 * a run given no key must not go green.
 */
const KEYLESS = [
  'auth/missing-key',
  'auth/unknown-key',
  'errors/unauthorized-error-body',
  'request-ids/present-on-error',
  'request-ids/error-echoes-sent-id',
  'request-ids/error-body-id-matches-header',
  ...DESCRIPTION_ONLY,
]
/** What the restricted key alone can judge, its refusals and grants (the scope check reads the API key's cursors). */
const RESTRICTED_KEY_ONLY = [
  'errors/forbidden-error-body',
  'profile/restricted-key-refused',
  'profile/restricted-key-granted',
]

/** Every input left out. */
const NO_INPUT = Object.fromEntries(INPUTS.map((input) => [input, undefined]))

test('the checks named above are checks of the catalogue', () => {
  expect(allChecks.map((check) => check.id)).toEqual(expect.arrayContaining([...KEYLESS, ...RESTRICTED_KEY_ONLY]))
})

describe('the inputs a check needs', () => {
  test.each(allChecks.map((check) => [check.id, check] as const))(
    '%s: without an input it needs, skipped with the reason naming it, nothing sent; not skipped for an input otherwise',
    async (_, check) => {
      const needs = check.needs ?? []
      expect(INPUTS, 'the inputs it needs are inputs a run takes').toEqual(expect.arrayContaining([...needs]))
      const { outcome: judged, sent: sentJudged } = await outcomeWith(given, check)
      expect(judged.crashed, `with every input: ${judged.reason}`).toBeUndefined()
      // A check that passes having sent nothing judged nothing (its run switched off), but those that judge the
      // description the profile loaded before the run.
      if (judged.status === 'passed')
        expect(sentJudged.length > 0, 'requests sent given every input').toBe(!DESCRIPTION_ONLY.includes(check.id))
      if (judged.status === 'skipped') {
        expect(judged.reason, 'a skip of a check given every input').toEqual(expect.any(String))
        expect(forMissingInput(judged.reason), judged.reason).toBe(false)
      }
      const bare = await outcomeWith({ ...given, ...NO_INPUT }, check)
      // A run given no input passes only the checks a request without a key can judge, and each of those.
      expect(bare.outcome.status === 'passed', `without any input: ${bare.outcome.reason}`).toBe(
        KEYLESS.includes(check.id),
      )
      if (needs.length > 0)
        expect({ reason: bare.outcome.reason, sent: bare.sent.length }, 'without any input').toEqual({
          reason: missingInputReasons[needs[0]!],
          sent: 0,
        })
      else {
        expect(forMissingInput(bare.outcome.reason), `without any input: ${bare.outcome.reason}`).toBe(false)
        expect(bare.outcome.crashed, `without any input: ${bare.outcome.reason}`).toBeUndefined()
        // An input it reads though the run lacks it: the requests carry the text of a missing value.
        expect(
          bare.sent.filter((request) => request.includes('undefined')),
          'sent without any input',
        ).toEqual([])
      }
      // The reference conforms: what a check does without an input it states no need of may skip, never fail.
      expect(bare.outcome.status, `without any input: ${bare.outcome.reason}`).not.toBe('failed')
      for (const input of INPUTS) {
        const { outcome, sent } = await outcomeWith({ ...given, [input]: undefined }, check)
        if (needs.includes(input))
          expect({ reason: outcome.reason, sent: sent.length }, `without ${input}`).toEqual({
            reason: missingInputReasons[input],
            sent: 0,
          })
        else {
          expect(outcome.status, `without ${input}: ${outcome.reason}`).not.toBe('failed')
          expect(forMissingInput(outcome.reason), `without ${input}: ${outcome.reason}`).toBe(false)
          expect(outcome.crashed, `without ${input}: ${outcome.reason}`).toBeUndefined()
          if (input === 'apiKey' && outcome.status === 'passed')
            expect([...KEYLESS, ...RESTRICTED_KEY_ONLY], 'passed given every input but the API key').toContain(check.id)
          // What it judged given every input, it judges without this one: else the input is a need it does not state.
          if (judged.status !== 'skipped')
            expect(outcome.status, `without ${input}: ${outcome.reason}`).not.toBe('skipped')
        }
      }
    },
  )
})

test('limits/quota-429 opted in, without the API key: skipped for the key before its burst sends anything', async () => {
  const probe = allChecks.find((check) => check.id === 'limits/quota-429')!
  const { outcome, sent } = await outcomeWith({ ...given, probeRateLimit: true, apiKey: undefined }, probe)
  expect({ reason: outcome.reason, sent: sent.length }).toEqual({ reason: missingInputReasons.apiKey, sent: 0 })
})
