import { describe, expect, test } from 'vitest'
import { proxiedReference } from '../support/hostile-servers.js'
import { failureSummary, idsWithStatus, runAgainstReference } from '../support/run.js'

describe('the whole run', () => {
  test('never has more requests in flight than --concurrency, across both suite workers', async () => {
    let inFlight = 0
    let mostInFlight = 0
    let requests = 0
    const watch = {
      enter() {
        requests++
        mostInFlight = Math.max(mostInFlight, ++inFlight)
      },
      leave() {
        inFlight--
      },
    }
    const target = await proxiedReference(() => undefined, 10, watch)
    try {
      const report = await runAgainstReference({}, { baseUrl: target.baseUrl, ...target.inputs, concurrency: 3 })
      expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([])
      expect(requests, 'the run sent no request through the proxy').toBeGreaterThan(100)
      expect(mostInFlight, `${mostInFlight} requests in flight at once`).toBeLessThanOrEqual(3)
      expect(mostInFlight, 'requests were never concurrent').toBeGreaterThan(1)
    } finally {
      await target.close()
    }
  })
})
