import { describe, expect, test } from 'vitest'
import { renderMarkdown } from '../../reporters/markdown.js'
import { startReferenceServer } from '../../src/reference/server.js'
import { referenceInputs } from '../support/hostile-servers.js'
import { firstConfigRequestUnavailable } from '../support/behaviours.js'
import { failureSummary, idsWithStatus, runAgainstReference, TEST_RETRY_POLICY } from '../support/run.js'
import { answering, setStatus } from '../support/scripted-answers.js'
import type { RefRequest } from '../../src/reference/types.js'

async function runWithConfig503(retryAfter: string | undefined) {
  const reference = await startReferenceServer({ behaviours: [firstConfigRequestUnavailable(retryAfter)] })
  try {
    return await runAgainstReference({}, { baseUrl: reference.baseUrl, ...referenceInputs(reference) })
  } finally {
    await reference.close()
  }
}

describe('a target that answers 503 once', () => {
  test('passes after the retries, and the report says which outcomes depended on a retry', async () => {
    const report = await runWithConfig503('1')
    expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([])
    expect(report.checks.filter((c) => c.retried).length, 'no check is marked retried').toBeGreaterThan(0)
    expect(
      report.checks.find((c) => c.id === 'every-response/retry-after')?.status,
      'the retried 503s were not seen',
    ).toBe('passed')
    const retried = report.checks.find((c) => c.retried)!
    expect(renderMarkdown(report), 'report.md does not name the retried check').toContain(
      `Outcomes that depended on a retry (a 429 or a 5xx): \`${retried.id}\``,
    )
  })

  test('without Retry-After fails the every-response rule, though the retry succeeded', async () => {
    const report = await runWithConfig503(undefined)
    expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual(['every-response/retry-after'])
    const evidence = report.checks.find((c) => c.id === 'every-response/retry-after')?.evidence
    expect(evidence?.response?.status).toBe(503)
  })
})

describe('the retry policy of a run (RunOptions.retryPolicy)', () => {
  test("is the client's: a 503 of every attempt is sent as many times as it allows", async () => {
    const attempts = async (maxAttempts: number) => {
      let sent = 0
      // The preflight's probe asks for the vault too, with the key but without Accept-Encoding: only the check's
      // attempts are counted.
      const record = (request: RefRequest) => {
        if (request.path === '/v1/vault' && request.headers['accept-encoding'] !== undefined) sent++
      }
      const unavailable = answering('vault-unavailable', (request) => request.path === '/v1/vault', setStatus(503))
      await runAgainstReference(
        { record, behaviours: [unavailable] },
        {},
        { only: ['shapes/vault-members'], retryPolicy: { ...TEST_RETRY_POLICY, maxAttempts } },
      )
      return sent
    }
    expect(await attempts(1)).toBe(1)
    expect(await attempts(3)).toBe(3)
  })
})
