import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { fillPath, staysInItsSegment } from '../../src/contract/operations.js'
import { malformedHexIdentifier } from '../../src/generators/hex-identifiers.js'
import { observe } from '../../src/engine/observations.js'
import type { Exchange } from '../../src/http/exchange.js'
import type { RunSettings } from '../../src/core/settings.js'
import { FIXED_SEED } from '../support/run.js'

describe('path parameters', () => {
  test('are percent-encoded so that /, ? and # stay in their segment', () => {
    expect(fillPath('/v1/intents/{hash}', { hash: 'a/b?c#d' })).toBe('/v1/intents/a%2Fb%3Fc%23d')
  })

  test.each(['', '.', '..'])('%j is refused: it would address another path', (value) => {
    expect(staysInItsSegment(value)).toBe(false)
    expect(() => fillPath('/v1/intents/{hash}', { hash: value })).toThrow(/would address another path/)
  })

  test('a parameter left out is refused as an empty one is, naming it and the template', () => {
    expect(() => fillPath('/v1/intents/{hash}', {})).toThrow(
      'path parameter hash "" would address another path than /v1/intents/{hash}',
    )
  })

  test.each([
    ['...', '...'],
    ['.a', '.a'],
    ['a.', 'a.'],
    [' ', '%20'],
  ])('%j is only a name: it stays in its segment, sent as %j', (value, sent) => {
    expect(staysInItsSegment(value)).toBe(true)
    expect(fillPath('/v1/intents/{hash}', { hash: value })).toBe(`/v1/intents/${sent}`)
  })

  test('the malformed-identifier generators never produce a value that addresses another path', () => {
    for (const schema of ['Hash', 'Address'] as const) {
      const values = fc.sample(malformedHexIdentifier(schema, ['0x' + 'a'.repeat(schema === 'Hash' ? 64 : 40)]), {
        seed: FIXED_SEED,
        numRuns: 5000,
      })
      expect(values.filter((value) => !staysInItsSegment(value))).toEqual([])
    }
  })
})

describe('the every-response rules', () => {
  const response = { status: 404, headers: { 'content-type': 'text/html' }, body: '<html></html>', truncated: false }
  const exchange = (operation?: string): Exchange => ({
    operation,
    request: { method: 'GET', url: 'http://127.0.0.1:1/v1/x', headers: {} },
    response,
    durationMs: 1,
    retries: [],
  })
  const settings = { seed: FIXED_SEED } as RunSettings

  test('judge an exchange with an operation of the contract', () => {
    expect(observe([exchange('getVault')], settings, [])['every-response/json-content-type']?.violations).toHaveLength(
      1,
    )
  })

  test('leave alone an exchange with a path that is no operation', () => {
    expect(observe([exchange(undefined)], settings, [])).toEqual({})
  })
})
