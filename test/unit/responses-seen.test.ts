import { describe, expect, test } from 'vitest'
import { operations } from '../../src/contract/operations.js'
import { addResponses, countResponse, operationCoverage, type ResponsesSeen } from '../../src/engine/responses-seen.js'

describe('the responses seen, by operation and status', () => {
  test('each response counted under its status, one without under "no response"; judged ones counted apart', () => {
    const seen: ResponsesSeen = {}
    countResponse(seen, 'getVault', 200, true)
    countResponse(seen, 'getVault', 200, false)
    countResponse(seen, 'getVault', undefined, false)
    countResponse(seen, 'getConfig', 503, true)
    expect(seen).toEqual({
      getVault: { statuses: { '200': 2, 'no response': 1 }, judged: 1 },
      getConfig: { statuses: { '503': 1 }, judged: 1 },
    })
  })

  test("another part's counts added to the run's: statuses and judged summed, new operations and statuses taken", () => {
    const into: ResponsesSeen = { getVault: { statuses: { '200': 2 }, judged: 1 } }
    addResponses(into, {
      getVault: { statuses: { '200': 3, '429': 1 }, judged: 2 },
      getConfig: { statuses: { '200': 1 }, judged: 1 },
    })
    addResponses(into, undefined)
    expect(into).toEqual({
      getVault: { statuses: { '200': 5, '429': 1 }, judged: 3 },
      getConfig: { statuses: { '200': 1 }, judged: 1 },
    })
  })

  test('coverage: every operation of the contract in its order, then those seen beside it by name', () => {
    const contract = operations().map((op) => op.id as string)
    const seen: ResponsesSeen = {
      zWrite: { statuses: { '201': 1 }, judged: 1 },
      getVault: { statuses: { '200': 4 }, judged: 3 },
      aWrite: { statuses: { 'no response': 1 }, judged: 0 },
    }
    const coverage = operationCoverage(seen)
    expect(coverage.map(({ operation }) => operation)).toEqual([...contract, 'aWrite', 'zWrite'])
    expect(coverage.find(({ operation }) => operation === 'getVault')).toEqual({
      operation: 'getVault',
      statuses: { '200': 4 },
      judged: 3,
    })
    expect(
      coverage.find(({ operation }) => operation === 'getConfig'),
      'never exercised',
    ).toEqual({
      operation: 'getConfig',
      statuses: {},
      judged: 0,
    })
    expect(coverage.at(-1)).toEqual({ operation: 'zWrite', statuses: { '201': 1 }, judged: 1 })
  })
})
