import { describe, expect, test } from 'vitest'
import { STAND_IN } from '../../src/checks/operation-calls.js'
import type { Behaviour, RefRequest, RefResponse } from '../../src/reference/types.js'
import { outcomeWithBehaviours, outcomeWithInputs } from '../support/run.js'

const ECHOED = 'properties/valid-request-id-echoed'

/** A reference that answers requests `when` picks with an x-request-id of its own instead of the valid one sent. */
function notEchoing(name: string, when: (request: RefRequest) => boolean): Behaviour {
  return {
    name,
    description: `a valid X-Request-ID is not echoed (${name})`,
    onResponse(response: RefResponse, request) {
      if (when(request)) response.headers['x-request-id'] = 'ref-0000000000000000'
    },
  }
}

const intentPath = (request: RefRequest) => request.path.startsWith('/v1/intents/')

describe('properties/valid-request-id-echoed on each path a generated ID rides', () => {
  test('fails when a malformed hash’s refusal does not echo the ID, naming that path', async () => {
    const outcome = await outcomeWithBehaviours(
      [ECHOED],
      [notEchoing('malformed-hash', (r) => r.path === '/v1/intents/not-a-hash')],
    )
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toMatch(/ on a malformed hash, got x-request-id "ref-0000000000000000"/)
  })

  test('fails when a wrong receipt’s refusal of the configured intent does not echo the ID, naming that path', async () => {
    const wrongReceipt = (r: RefRequest) =>
      intentPath(r) &&
      r.path !== `/v1/intents/${STAND_IN.hash}` &&
      r.path !== '/v1/intents/not-a-hash' &&
      r.query.get('receipt') === STAND_IN.receipt
    const outcome = await outcomeWithBehaviours([ECHOED], [notEchoing('wrong-receipt', wrongReceipt)])
    expect(outcome.status).toBe('failed')
    expect(outcome.reason).toMatch(/ on a wrong receipt, got x-request-id "ref-0000000000000000"/)
  })
})

describe('properties/valid-request-id-echoed', () => {
  test('runs without a configured intent, a wrong receipt riding on the stand-in hash', async () => {
    const outcome = await outcomeWithInputs(ECHOED, (server) => ({ apiKey: server.data.apiKey }))
    expect(`${outcome.status}${outcome.reason === undefined ? '' : `: ${outcome.reason}`}`).toBe('passed')
  })
})

describe('properties/garbage-key-refused', () => {
  test('runs without a restricted key, on the API key alone', async () => {
    const outcome = await outcomeWithInputs('properties/garbage-key-refused', (server) => ({
      apiKey: server.data.apiKey,
    }))
    expect(`${outcome.status}${outcome.reason === undefined ? '' : `: ${outcome.reason}`}`).toBe('passed')
  })
})
