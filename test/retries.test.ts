import { describe, expect, test } from 'vitest'
import { renderMarkdown } from '../reporters/markdown.js'
import { startReferenceServer } from '../src/reference/server.js'
import type { Behaviour } from '../src/reference/types.js'
import { referenceInputs } from './hostile/servers.js'
import { failureSummary, idsWithStatus, runAgainstReference } from './support/run.js'

/** The reference, answering the first request for each config URL and key with a 503 (then as usual). */
function firstConfigRequestUnavailable(retryAfter: string | undefined): Behaviour {
  const seen = new Set<string>()
  return {
    name: 'first-config-request-unavailable',
    description: 'The first request for each config URL and key gets a 503.',
    onResponse(response, request) {
      const attempt = `${request.path}?${request.query} ${request.headers['x-api-key']}`
      if (request.path !== '/v1/config' || response.status !== 200 || seen.has(attempt)) return
      seen.add(attempt)
      response.status = 503
      response.body = { error: 'a dependency is temporarily unavailable', code: 'unavailable', requestId: response.headers['x-request-id'] }
      delete response.headers['x-service-source']
      if (retryAfter !== undefined) response.headers['retry-after'] = retryAfter
    },
  }
}

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
    expect(report.checks.find((c) => c.id === 'every-response/retry-after')?.status, 'the retried 503s were not seen').toBe('passed')
    const retried = report.checks.find((c) => c.retried)!
    expect(renderMarkdown(report), 'report.md does not name the retried check').toContain(`Outcomes that depended on a retry (429, 502 or 503): \`${retried.id}\``)
  })

  test('without Retry-After fails the every-response rule, though the retry succeeded', async () => {
    const report = await runWithConfig503(undefined)
    expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual(['every-response/retry-after'])
    const evidence = report.checks.find((c) => c.id === 'every-response/retry-after')?.evidence
    expect(evidence?.response?.status).toBe(503)
  })
})
