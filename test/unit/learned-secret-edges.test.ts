import { describe, expect, test } from 'vitest'
import { LearnedSecrets } from '../../src/traffic/learned-secrets.js'

/**
 * What recorded traffic's keys and receipts are learned as secrets, at the edges: 8 characters (not blank) and more,
 * not a broken client's junk word, not a placeholder of the reports.
 */

function learned(key: string): string[] {
  const secrets = new LearnedSecrets()
  secrets.learn({ request: { method: 'GET', url: 'http://127.0.0.1:9/v1/markets', headers: { 'x-api-key': key } } })
  return secrets.list().map((secret) => secret.placeholder)
}

describe('LearnedSecrets: which keys are secrets', () => {
  test.each([
    ['k'.repeat(8), true],
    [` ${'k'.repeat(8)} `, true],
    ['k'.repeat(7), false],
    [` ${'k'.repeat(7)} `, false],
    [' '.repeat(9), false],
    ['undefined', false],
    ['UNDEFINED', false],
    [' undefined ', false],
    ['[object Object]', false],
    ['undefined1', true],
    ['xundefined', true],
    ['nullnull', true],
    ['[object Object]x', true],
    ['x[object Object]', true],
    ['$IPTS_API_KEY', false],
    ['${IPTS_API_KEY}AB_1', false],
    ['IPTS_API_KEY_2', true],
  ])('%j is learned: %s', (key, expected) => {
    expect(learned(key)).toEqual(expected ? ['$IPTS_API_KEY'] : [])
  })

  test('receipts in the query are learned under their own name, each value once', () => {
    const secrets = new LearnedSecrets()
    const url = 'http://127.0.0.1:9/v1/intents/0x1?receipt=receipt-0001&receipt=receipt-0002&receipt=receipt-0001'
    secrets.learn({ request: { method: 'GET', url, headers: {} } })
    expect([...secrets.list()].sort((a, b) => a.value.localeCompare(b.value))).toEqual([
      { value: 'receipt-0001', placeholder: '$IPTS_INTENT_RECEIPT' },
      { value: 'receipt-0002', placeholder: '$IPTS_INTENT_RECEIPT_2' },
    ])
  })
})
