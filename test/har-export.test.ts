import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { allCheckIds } from '../src/checks/index.js'
import type { Har } from '../src/har/types.js'
import { startReferenceServer } from '../src/reference/server.js'
import type { RefRequest, RefResponse } from '../src/reference/types.js'
import { referenceInputs } from './hostile/servers.js'
import { firstConfigRequestUnavailable } from './support/behaviours.js'
import { harValidator } from './support/har-schema.js'
import { runAgainstReference } from './support/run.js'

/** The items of a that are left once each item of b has taken away one equal item. */
function withoutEach(a: readonly string[], b: readonly string[]): string[] {
  const left = [...a]
  for (const item of b) {
    const at = left.indexOf(item)
    if (at >= 0) left.splice(at, 1)
  }
  return left
}

/** The reachability probe's reads (src/runner/target.ts), each without a key. */
const PROBE_ANSWERS = ['/v1/config 401', '/v1/vault 401', '/v1/markets 401']

describe('exchanges.har', () => {
  test('holds every request the target answered, each retry its own entry, valid HAR 1.2 with the check IDs and placeholders for secrets', async () => {
    const answered: string[] = []
    const recording = { name: 'record', description: 'records each answer', onResponse: (response: RefResponse, request: RefRequest) => void answered.push(`${request.path} ${response.status}`) }
    const reference = await startReferenceServer({ behaviours: [firstConfigRequestUnavailable('1'), recording] })
    const harPath = join(mkdtempSync(join(tmpdir(), 'ipts-har-')), 'exchanges.har')
    const inputs = referenceInputs(reference)
    try {
      await runAgainstReference({}, { baseUrl: reference.baseUrl, ...inputs }, { harPath })
    } finally {
      await reference.close()
    }
    const text = readFileSync(harPath, 'utf8')
    const har = JSON.parse(text) as Har
    const validate = harValidator()
    expect(validate(har), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true)

    const { entries } = har.log
    const logged = entries.map((e) => `${new URL(e.request.url).pathname} ${e.response.status}`)
    // The probe's reads go out at once and it stops at the first answer, so the target may answer one to three of them.
    const beyond = withoutEach(answered, logged)
    expect(beyond.length, 'the reachability probe is answered and not in the HAR').toBeGreaterThan(0)
    expect(beyond.filter((answer) => !PROBE_ANSWERS.includes(answer)), 'what the target answered beyond the HAR: the reachability probe alone (it sends no key)').toEqual([])
    expect(withoutEach(logged, answered), 'entries the target did not answer').toEqual([])
    const starts = entries.map((e) => e.startedDateTime)
    expect(starts, 'entries oldest first').toEqual([...starts].sort())

    const known = new Set(allCheckIds())
    const unknown = entries.flatMap((e) => e._checks ?? ['(none)']).filter((id) => !known.has(id))
    expect(unknown, 'every entry names the checks that made it').toEqual([])

    const retried = entries.filter((e) => e.response.status === 503 && e.request.url.endsWith('/v1/config'))
    expect(retried.length, 'the 503s that were retried are entries of their own').toBeGreaterThan(0)
    for (const attempt of retried) {
      const later = entries.find((e) => e.request.url === attempt.request.url && e.startedDateTime > attempt.startedDateTime && e._checks?.[0] === attempt._checks?.[0])
      expect(later?.response.status, `the retry of ${attempt.request.url} by ${attempt._checks}`).toBeDefined()
    }

    for (const secret of [inputs.apiKey!, inputs.restrictedApiKey!, inputs.intent!.receipt, inputs.secondIntent!.receipt]) {
      expect(text.includes(secret) || text.includes(encodeURIComponent(secret)), 'a key or receipt is in the HAR').toBe(false)
    }
    expect(entries.some((e) => e.request.headers.some((h) => h.name === 'x-api-key' && h.value === '$IPTS_API_KEY')), 'the key header as its placeholder').toBe(true)
    expect(entries.some((e) => e.request.url.includes('receipt=$IPTS_INTENT_RECEIPT')), 'the receipt in the URL as its placeholder').toBe(true)
  })
})
