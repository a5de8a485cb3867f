import { describe, expect, test } from 'vitest'
import type { CheckId } from '../../src/contract/catalogue-ids.js'
import { allChecks } from '../../src/checks/index.js'
import type { CheckContext } from '../../src/checks/types.js'
import { createCheckContext } from '../../src/engine/context.js'
import { HttpClient } from '../../src/http/client.js'
import { faults } from '../../src/reference/faults/index.js'
import { unsampledFaults } from '../../src/reference/faults/unsampled.js'
import { broughtByFaults } from '../../src/reference/named-behaviours.js'
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js'
import type { RunSettings } from '../../src/core/settings.js'
import type { Behaviour } from '../../src/reference/types.js'
import { checksReached, plainRunWith } from '../support/reach.js'
import { referenceInputs } from '../support/hostile-servers.js'
import { FIXED_SEED, idsWithStatus, runAgainstReference, TEST_SETTINGS } from '../support/run.js'

/** Twenty different seeds; the verdict of a fault's property checks must be the same under each. */
const SEEDS = Array.from({ length: 20 }, (_, i) => FIXED_SEED + i * 7919)
/** Low: the fixed coverage phase is what makes the verdict independent of the seed; a few random runs still use it. */
const RUNS = 3

/** The checks that generate inputs (a fixed coverage phase, then a random one); the first test keeps this list true. */
const PROPERTY_CHECKS: CheckId[] = [
  'properties/malformed-hash-rejected',
  'properties/out-of-bounds-receipt-refused',
  'properties/wrong-receipt-refused',
  'properties/valid-request-id-echoed',
  'properties/invalid-request-id-not-echoed',
  'properties/well-formed-address-answered',
  'properties/malformed-address-rejected',
  'properties/garbage-key-refused',
  'cursors/hand-built-cursor-refused',
  'cursors/tampered-cursor-rejected',
]

/** Faults that fail at least one property check. */
const caughtByProperties = faults.filter((fault) => fault.breaks.some((id) => PROPERTY_CHECKS.includes(id)))

function settingsFor(server: ReferenceServer): RunSettings {
  return { ...TEST_SETTINGS, runs: RUNS, baseUrl: server.baseUrl, embedded: false, ...referenceInputs(server) }
}

/**
 * Runs one check as the harness does, without vitest around it: its outcome code (undefined when it passed) and its
 * context.
 */
async function outcomeOf(
  settings: RunSettings,
  client: HttpClient,
  checkId: string,
): Promise<{ code?: string; ctx: CheckContext }> {
  const { ctx, end } = createCheckContext(settings, client)
  const check = allChecks.find((c) => c.id === checkId)!
  const code = await check.run(ctx).then(
    () => undefined,
    (error: unknown) => (error as { code?: string }).code ?? String(error),
  )
  await end()
  return { code, ctx }
}

async function withReference<T>(
  options: Parameters<typeof startReferenceServer>[0],
  work: (settings: RunSettings, client: HttpClient) => Promise<T>,
): Promise<T> {
  const server = await startReferenceServer(options)
  const settings = settingsFor(server)
  const client = new HttpClient(settings)
  try {
    return await work(settings, client)
  } finally {
    await client.close()
    await server.close()
  }
}

describe('the property checks', () => {
  test('are the checks that generate inputs', { timeout: 300_000 }, async () => {
    const generating = await withReference({}, async (settings, client) => {
      const ids: string[] = []
      for (const check of allChecks)
        if (Object.keys((await outcomeOf(settings, client, check.id)).ctx.inputs).length > 0) ids.push(check.id)
      return ids
    })
    expect(generating.sort()).toEqual([...PROPERTY_CHECKS].sort())
  })
})

describe('the verdict on a fault a property check catches', () => {
  test.each(caughtByProperties.map((fault) => [fault.name, fault] as const))(
    '%s is the same under 20 seeds',
    { timeout: 300_000 },
    async (_, fault) => {
      await withReference({ behaviours: [fault], ...broughtByFaults([fault], {}) }, async (settings, client) => {
        for (const checkId of fault.breaks.filter((id) => PROPERTY_CHECKS.includes(id))) {
          const caught: number[] = []
          for (const seed of SEEDS)
            if ((await outcomeOf({ ...settings, seed }, client, checkId)).code === 'IPTS_CHECK_FAILED')
              caught.push(seed)
          expect(caught, `${checkId} caught ${fault.name} under ${caught.length} of ${SEEDS.length} seeds`).toEqual(
            SEEDS,
          )
        }
      })
    },
  )
})

describe('the verdict on the faults placed where a sampling suite would not look', () => {
  // Such a fault is seen in the exchanges of other checks (a cursor walk's later page, the restricted key's reads):
  // each run selects the checks whose exchanges of a plain run the faults change, the checks they name, and the
  // property checks, whose requests change with the seed; every other check meets the plain reference's answers
  // under any seed. All of the faults at once, as each breaks checks of its own.
  test('is the same under 20 seeds: each of its checks fails, and no other', { timeout: 300_000 }, async () => {
    const expected = [...new Set(unsampledFaults.flatMap((fault) => fault.breaks))].sort()
    const together: Behaviour = {
      name: 'unsampled faults',
      description: 'every fault of src/reference/faults/unsampled.ts, in order',
      onRequest: (request, data) => unsampledFaults.forEach((fault) => fault.onRequest?.(request, data)),
      onResponse: (response, request, data) =>
        unsampledFaults.forEach((fault) => fault.onResponse?.(response, request, data)),
    }
    const reached = checksReached(together, await plainRunWith({ probeRateLimit: false, allowWrites: false }, {}))
    expect(reached, "the faults change an exchange of the profile's description").not.toBe('all')
    const only = [...new Set([...(reached === 'all' ? [] : reached), ...expected, ...PROPERTY_CHECKS])]
    const verdicts = await Promise.all(
      SEEDS.map(async (seed) => ({
        seed,
        failed: idsWithStatus(
          await runAgainstReference(
            { faults: faults.filter((f) => unsampledFaults.includes(f)).map((f) => f.name) },
            { seed, runs: 1 },
            { only },
          ),
          'failed',
        ),
      })),
    )
    for (const { seed, failed } of verdicts) expect(failed, `seed ${seed}`).toEqual(expected)
  })
})
