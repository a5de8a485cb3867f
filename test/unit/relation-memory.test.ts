import { describe, expect, test } from 'vitest'
import { relationRules, REQUEST_IDS_REMEMBERED } from '../../src/checks/relations.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'

describe('relations/request-id-unique over a long soak', () => {
  const rule = relationRules.find((r) => r.id === 'relations/request-id-unique')!
  const withId = (id: string) => {
    const response = responseOf(200, { 'x-request-id': id }, { data: {} })
    return [response, exchangeOf(response)] as const
  }

  test(`remembers the ${REQUEST_IDS_REMEMBERED} most recent request IDs: memory stays flat, a recent repeat still fails`, () => {
    const memory = rule.remember()
    let found = 0
    for (let n = 0; n <= REQUEST_IDS_REMEMBERED; n++) if (memory.response!(...withId(`req-${n}`)) !== undefined) found++
    expect(found, 'each a request ID of its own').toBe(0)
    expect(memory.response!(...withId(`req-${REQUEST_IDS_REMEMBERED}`)), 'the latest given again').toMatch(
      /was carried by an earlier response too/,
    )
    expect(memory.response!(...withId('req-1')), 'one still remembered').toMatch(/was carried by an earlier response/)
    expect(memory.response!(...withId('req-0')), 'the oldest, forgotten').toBeUndefined()
  })
})
