import { describe, expect, test } from 'vitest'
import { WRITES_REMEMBERED, WriteKeys } from '../../src/traffic/write-keys.js'

/** IDEM-SAME-BODY in recorded traffic at its edges: which pairings break it, per operation, and how many are named. */

describe('WriteKeys', () => {
  test('the same key with the same body, or another key with another body, breaks nothing', () => {
    const keys = new WriteKeys()
    keys.record('submitIntent', 'key-0001', '{"a":1}', 'write 1')
    keys.record('submitIntent', 'key-0001', '{"a":1}', 'write 2')
    keys.record('submitIntent', 'key-0002', '{"a":2}', 'write 3')
    keys.record('submitIntent', undefined, '{"a":1}', 'write 4')
    keys.record('submitIntent', 'key-0001', undefined, 'write 5')
    expect(keys.breaches()).toEqual([])
  })

  test('each is held to its first pairing: going back to it after a breach breaks nothing more', () => {
    const keys = new WriteKeys()
    keys.record('submitIntent', 'key-0001', '{"a":1}', 'write 1')
    keys.record('submitIntent', 'key-0002', '{"a":1}', 'write 2')
    keys.record('submitIntent', 'key-0001', '{"a":1}', 'write 3')
    keys.record('submitIntent', 'key-0003', '{"b":1}', 'write 4')
    keys.record('submitIntent', 'key-0003', '{"b":2}', 'write 5')
    keys.record('submitIntent', 'key-0003', '{"b":1}', 'write 6')
    expect(keys.breaches().map((b) => b.message.split(' sent ')[0])).toEqual([
      'submitIntent: write 2',
      'submitIntent: write 5',
    ])
  })

  test('a body again under another key, or a key again with another body, breaks it; another operation does not', () => {
    const keys = new WriteKeys()
    keys.record('submitIntent', 'key-0001', '{"a":1}', 'write 1')
    keys.record('submitAction', 'key-0002', '{"a":1}', 'write 2')
    keys.record('submitAction', 'key-0001', '{"a":2}', 'write 3')
    expect(keys.breaches()).toEqual([])
    keys.record('submitIntent', 'key-0003', '{"a":1}', 'write 4')
    keys.record('submitIntent', 'key-0001', '{"a":3}', 'write 5')
    expect(keys.breaches().map((b) => b.message)).toEqual([
      'submitIntent: write 4 sent a signed body again under Idempotency-Key "key-0003"; it was sent under "key-0001" before',
      'submitIntent: write 5 sent Idempotency-Key "key-0001" with another body than before',
    ])
  })

  test.each([
    [10, 10, undefined],
    [11, 10, 'and 1 more'],
    [12, 10, 'and 2 more'],
  ])('%i breaches: %i named, then %s', (count, named, more) => {
    const keys = new WriteKeys()
    keys.record('submitIntent', 'key-first', '{"a":0}', 'write 0')
    for (let i = 1; i <= count; i++) keys.record('submitIntent', `key-${i}`, '{"a":0}', `write ${i}`)
    const breaches = keys.breaches()
    expect(breaches.filter((b) => !b.message.startsWith('and '))).toHaveLength(named)
    expect(breaches.find((b) => b.message.startsWith('and '))?.message).toBe(more)
    expect(breaches.every((b) => b.requirement === 'IDEM-SAME-BODY')).toBe(true)
  })

  test.each([
    [WRITES_REMEMBERED - 1, 1],
    [WRITES_REMEMBERED, 0],
  ])('after %i other writes, the first pairing is remembered by %i breach', (others, breaches) => {
    const keys = new WriteKeys()
    keys.record('submitIntent', 'key-first', '{"first":true}', 'write 0')
    for (let i = 1; i <= others; i++) keys.record('submitIntent', `key-${i}`, `{"a":${i}}`, `write ${i}`)
    keys.record('submitIntent', 'key-again', '{"first":true}', 'write again')
    expect(keys.breaches()).toHaveLength(breaches)
  })

  test('a pairing sent again is remembered from then: the writes before it do not push it out', () => {
    const keys = new WriteKeys()
    keys.record('submitIntent', 'key-first', '{"first":true}', 'write 0')
    for (let i = 1; i < WRITES_REMEMBERED; i++) keys.record('submitIntent', `key-${i}`, `{"a":${i}}`, `write ${i}`)
    keys.record('submitIntent', 'key-first', '{"first":true}', 'write 0 again')
    keys.record('submitIntent', 'key-last', '{"last":true}', 'one more write')
    keys.record('submitIntent', 'key-again', '{"first":true}', 'write again')
    keys.record('submitIntent', 'key-first', '{"other":true}', 'write other')
    expect(keys.breaches().map((b) => b.message.split(' sent ')[0])).toEqual([
      'submitIntent: write again',
      'submitIntent: write other',
    ])
  })
})
