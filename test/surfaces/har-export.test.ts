import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { allCheckIds } from '../../src/checks/index.js'
import { LAST_SWEEP, roundOfSenders } from '../../src/engine/resample.js'
import type { Har, HarEntry } from '../../src/har/types.js'
import { HAR_FILE, writeHar } from '../../src/har/write.js'
import { startReferenceServer } from '../../src/reference/server.js'
import type { RefRequest, RefResponse } from '../../src/reference/types.js'
import { referenceInputs } from '../support/hostile-servers.js'
import { firstConfigRequestUnavailable } from '../support/behaviours.js'
import { harEntry } from '../support/har-entries.js'
import { harValidator } from '../support/har-schema.js'
import { runAgainstReference } from '../support/run.js'

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
// The preflight's probes (src/runner/preflight.ts) carry the run's key; the allowance under test may answer one 503.
const PROBE_ANSWERS = [
  '/v1/config 200',
  '/v1/vault 200',
  '/v1/markets 200',
  '/v1/config 503',
  '/v1/vault 503',
  '/v1/markets 503',
]

describe('exchanges.har', () => {
  test('holds every request the target answered, each retry its own entry, valid HAR 1.2 with the check IDs and placeholders for secrets', async () => {
    const answered: string[] = []
    const recording = {
      name: 'record',
      description: 'records each answer',
      onResponse: (response: RefResponse, request: RefRequest) =>
        void answered.push(`${request.path} ${response.status}`),
    }
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
    expect(
      beyond.filter((answer) => !PROBE_ANSWERS.includes(answer)),
      'what the target answered beyond the HAR: the preflight probes alone',
    ).toEqual([])
    expect(withoutEach(logged, answered), 'entries the target did not answer').toEqual([])
    const starts = entries.map((e) => e.startedDateTime)
    expect(starts, 'entries oldest first').toEqual([...starts].sort())

    const known = new Set<string>(allCheckIds())
    // The reads after the checks are named by what made them: the last sweep, or a soak's round.
    const unknown = entries
      .flatMap((e) => e._checks ?? ['(none)'])
      .filter((id) => !known.has(id) && id !== LAST_SWEEP && roundOfSenders([id]) === 0)
    expect(unknown, 'every entry names the checks that made it').toEqual([])
    // The last sweep reads on a connection of its own: its entries name it by the client's port, as HAR 1.2 allows.
    const swept = entries.filter((e) => e._checks?.includes(LAST_SWEEP)).map((e) => e.connection)
    expect(
      swept.filter((connection) => connection !== undefined).length,
      'last sweep entries with their connection',
    ).toBeGreaterThan(0)
    expect(swept.find((connection) => connection !== undefined)).toMatch(/^\d+$/)

    const retried = entries.filter((e) => e.response.status === 503 && e.request.url.endsWith('/v1/config'))
    expect(retried.length, 'the 503s that were retried are entries of their own').toBeGreaterThan(0)
    for (const attempt of retried) {
      const later = entries.find(
        (e) =>
          e.request.url === attempt.request.url &&
          e.startedDateTime > attempt.startedDateTime &&
          e._checks?.[0] === attempt._checks?.[0],
      )
      expect(later?.response.status, `the retry of ${attempt.request.url} by ${attempt._checks}`).toBeDefined()
    }

    for (const secret of [
      inputs.apiKey!,
      inputs.restrictedApiKey!,
      inputs.intent!.receipt,
      inputs.secondIntent!.receipt,
    ]) {
      expect(text.includes(secret) || text.includes(encodeURIComponent(secret)), 'a key or receipt is in the HAR').toBe(
        false,
      )
    }
    expect(
      entries.some((e) => e.request.headers.some((h) => h.name === 'x-api-key' && h.value === '$IPTS_API_KEY')),
      'the key header as its placeholder',
    ).toBe(true)
    expect(
      entries.some((e) => e.request.url.includes('receipt=$IPTS_INTENT_RECEIPT')),
      'the receipt in the URL as its placeholder',
    ).toBe(true)
  })
})

describe("a run's HAR against a target whose every body is large", () => {
  /** 470 exchanges (a default run's order of magnitude), each answered with the body `bodyOf(i)`. */
  async function* entries(bodyOf: (index: number) => string): AsyncGenerator<HarEntry> {
    for (let index = 0; index < 470; index++) {
      const text = bodyOf(index)
      yield harEntry({
        url: 'http://127.0.0.1:9/v1/markets',
        content: {
          size: text.length,
          mimeType: 'application/json',
          text,
          comment: 'body truncated at the size cap: the first 4194304 bytes',
        },
      })
    }
  }

  test.each([
    ['the same 4 MiB body (a 50 MB body cut at the capture cap)', () => 'x'.repeat(4 * 1024 * 1024)],
    [
      'a different 200 KB body each time (JSON nested 100,000 deep, with a counter)',
      (index: number) => `${'['.repeat(100_000)}${index}${']'.repeat(100_000)}`,
    ],
  ])(
    'with %s stays under 10 MiB: bodies in full up to the budget, then each kept once or cut, saying so',
    async (_, body) => {
      const shared = body(0)
      const path = join(mkdtempSync(join(tmpdir(), 'ipts-har-budget-')), HAR_FILE)
      await writeHar(
        path,
        entries((index) => (body.length === 0 ? shared : body(index))),
      )
      expect(statSync(path).size).toBeLessThan(10 * 1024 * 1024)
      const written = (JSON.parse(readFileSync(path, 'utf8')) as Har).log.entries
      expect(written).toHaveLength(470)
      const full = written.filter((entry) => entry.response.content.text!.length === entry.response.content.size)
      expect(full.length, 'bodies are kept whole up to the budget').toBeGreaterThan(0)
      for (const entry of written.slice(full.length))
        expect(entry.response.content.comment).toMatch(/left out|cut to its first/)
    },
  )
})
