import { describe, expect, test } from 'vitest'
import {
  fillStep,
  sendsReceipt,
  stepPathPattern,
  takesEarlierValues,
  type ChainedStep,
} from '../../src/profile/chained-step.js'
import { keyPatternOf, writeOperationAt, type ProfileValues, type WriteOperation } from '../../src/profile/profile.js'

/** A chained step's values, filled in from an earlier answer (src/profile/chained-step.ts). */

const ANSWER = { id: '0xab/cd', receipt: 'r+1 &=', json: { data: { hash: '0xab/cd', seq: 7, nested: { ok: true } } } }
const step = (extra: Partial<ChainedStep>): ChainedStep => ({ bodies: { command: ['./sign'] }, ...extra })

describe('fillStep', () => {
  test('percent-encodes the values of a path, adds the query encoded, and sends headers and arguments as they are', () => {
    const filled = fillStep(
      step({
        path: '/v1/intents/{id}/cancel/{/data/seq}',
        query: { receipt: '{receipt}', at: 'x{/data/seq}' },
        headers: { 'X-Receipt': '{receipt}', 'X-Fixed': 'yes' },
        bodies: { command: ['./sign', '{id}', '--receipt={receipt}'] },
      }),
      '/v1/cancellations',
      ANSWER,
    )
    if ('missing' in filled) throw new Error(`missing ${filled.missing}`)
    expect(filled.path).toBe('/v1/intents/0xab%2Fcd/cancel/7?receipt=r%2B1+%26%3D&at=x7')
    expect(filled.headers).toEqual({ 'x-receipt': 'r+1 &=', 'x-fixed': 'yes' })
    expect(['./sign', '{id}', '--receipt={receipt}'].map(filled.fill)).toEqual([
      './sign',
      '0xab/cd',
      '--receipt=r+1 &=',
    ])
  })

  test("takes the operation's own path when the step states none, and leaves out a header or parameter that comes out empty", () => {
    const filled = fillStep(
      step({ headers: { 'X-Receipt': '{receipt}' }, query: { receipt: '{receipt}' } }),
      '/v1/cancellations',
      { ...ANSWER, receipt: '' },
    )
    expect(filled).toMatchObject({ path: '/v1/cancellations' })
    if ('missing' in filled) throw new Error(`missing ${filled.missing}`)
    expect(filled.headers).toEqual({})
  })

  test("adds the query to a path that has one already; a step's path is filled, and its placeholders are named", () => {
    const filled = fillStep(step({ path: '/v1/c?by={id}', query: { r: '{receipt}' } }), '/v1/x', ANSWER)
    expect(filled).toMatchObject({ path: '/v1/c?by=0xab%2Fcd&r=r%2B1+%26%3D' })
    expect(fillStep(step({ path: '/v1/{/data/none}' }), '/v1/c', ANSWER)).toEqual({
      missing: '/data/none',
      where: 'path',
    })
    expect(fillStep(step({ query: { at: '{/data/none}' } }), '/v1/c', ANSWER)).toEqual({
      missing: '/data/none',
      where: 'query.at',
    })
  })

  test('names the first placeholder the answer has no string or number for, and the key it is written at', () => {
    expect(fillStep(step({ headers: { A: '{/data/nested}' } }), '/v1/c', ANSWER)).toEqual({
      missing: '/data/nested',
      where: 'headers.A',
    })
    expect(fillStep(step({ bodies: { command: ['./sign', '{/data/none}'] } }), '/v1/c', ANSWER)).toEqual({
      missing: '/data/none',
      where: 'bodies.command[1]',
    })
    expect(fillStep(step({ path: '/v1/{/data/hash}' }), '/v1/c', ANSWER)).toMatchObject({ path: '/v1/0xab%2Fcd' })
    const rootMember = { ...ANSWER, json: { '': 'the-empty-member' } }
    expect(fillStep(step({ path: '/v1/{/}' }), '/v1/c', rootMember), '{/} points at the member named ""').toMatchObject(
      {
        path: '/v1/the-empty-member',
      },
    )
  })
})

describe('what a step takes', () => {
  test('a step takes earlier values only through a placeholder; {receipt} is the receipt sent', () => {
    expect(takesEarlierValues(step({ path: '/v1/cancel' }))).toBe(false)
    expect(takesEarlierValues(step({ bodies: { command: ['./sign', '{id}'] } }))).toBe(true)
    expect(takesEarlierValues(step({ query: { q: '{/data/hash}' } }))).toBe(true)
    expect(takesEarlierValues(step({ headers: { A: '{unknown}' } }))).toBe(false)
    expect(sendsReceipt(step({ bodies: { command: ['./sign', '{id}'] } }))).toBe(false)
    expect(sendsReceipt(step({ headers: { 'X-Receipt': 'Bearer {receipt}' } }))).toBe(true)
    expect(takesEarlierValues(step({ path: '/v1/intents/{id}/cancellation' }))).toBe(true)
    expect(sendsReceipt(step({ path: '/v1/receipts/{receipt}' }))).toBe(true)
  })
})

describe('the paths of a chained step in recorded traffic', () => {
  test('a placeholder stands for one or more characters of one path segment; the rest is literal', () => {
    const pattern = stepPathPattern('/v1/intents/{id}/cancel.json')
    expect(pattern.test('/base/v1/intents/0xab/cancel.json')).toBe(true)
    expect(pattern.test('/v1/intents//cancel.json')).toBe(false)
    expect(pattern.test('/v1/intents/a/b/cancel.json')).toBe(false)
    expect(pattern.test('/v1/intents/0xab/cancelXjson')).toBe(false)
    expect(pattern.test('/v1/intents/0xab/cancel.json/more'), 'the path ends where the template does').toBe(false)
    expect(stepPathPattern('/v1/intents/{id}').test('/v1/intents/0xab/cancel')).toBe(false)
    expect(stepPathPattern('/v1/a\\d+/{id}').test('/v1/a55/x'), 'a backslash of the template is literal').toBe(false)
    expect(stepPathPattern('/v1/a\\d+/{id}').test('/v1/a\\d+/x')).toBe(true)
  })

  test("writeOperationAt knows a cancellation by its chained step's path as well as its own", () => {
    const cancel: WriteOperation = {
      kind: 'cancellation',
      method: 'POST',
      path: '/v1/cancellations',
      statusIdentifier: '/data/id',
      bodies: { command: ['./sign'] },
      cancels: {
        operation: 'submit',
        path: '/v1/intents/{id}/cancellation',
        bodies: { command: ['./sign'] },
        state: '/state',
        terminalStates: ['cancelled'],
      },
    }
    const values = { writes: { operations: { cancel } } }
    expect(writeOperationAt(values, 'post', 'http://h/v1/intents/0x1/cancellation')).toBe('cancel')
    expect(writeOperationAt(values, 'POST', 'http://h/v1/cancellations')).toBe('cancel')
    expect(writeOperationAt(values, 'GET', 'http://h/v1/intents/0x1/cancellation')).toBeUndefined()
    expect(writeOperationAt(values, 'POST', 'http://h/v1/intents/0x1')).toBeUndefined()
    expect(writeOperationAt(values, 'POST', 'http://h/base/v1/cancellations'), 'under a base path').toBe('cancel')
    expect(writeOperationAt({} as ProfileValues, 'POST', 'http://h/v1/cancellations')).toBeUndefined()
  })

  test("keyPatternOf reads the profile's pattern with Unicode classes, and none where no pattern is stated", () => {
    const pattern = keyPatternOf({ writes: { keyPattern: '^\\p{L}+$' } } as unknown as ProfileValues)
    expect(pattern?.test('clé')).toBe(true)
    expect(pattern?.test('p{L}')).toBe(false)
    expect(keyPatternOf({} as ProfileValues)).toBeUndefined()
    expect(keyPatternOf({ writes: {} } as unknown as ProfileValues)).toBeUndefined()
    expect(keyPatternOf(undefined)).toBeUndefined()
  })
})
