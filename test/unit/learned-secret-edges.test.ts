import { describe, expect, test } from 'vitest'
import type { ProfileValues } from '../../src/profile/profile.js'
import { LearnedSecrets, SECRETS_REMEMBERED } from '../../src/traffic/learned-secrets.js'

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
    ['[object Array]', false],
    ['[OBJECT PROMISE]', false],
    ['[object ]', true],
    ['undefined1', true],
    ['xundefined', true],
    ['nullnull', true],
    ['[object Object]x', true],
    ['x[object Object]', true],
    ['$IPTS_API_KEY', false],
    ['${IPTS_API_KEY}AB_1', false],
    ['[part of $IPTS_INTENT_RECEIPT]x', false],
    ['[withheld: holds $IPTS_API_KEY, encoded]', false],
    ['$ipts_api_key_lower', true],
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

  test('an empty receipt parameter is no secret and takes no number', () => {
    const secrets = new LearnedSecrets()
    secrets.learn({
      request: { method: 'GET', url: 'http://127.0.0.1:9/v1/intents/0x1?receipt=&receipt=receipt-0003', headers: {} },
    })
    expect(secrets.list()).toEqual([{ value: 'receipt-0003', placeholder: '$IPTS_INTENT_RECEIPT' }])
  })

  test("a write the profile names hands out its receipt at the profile's pointer; another write, or no answer, does not", () => {
    const values = {
      writes: { operations: { submitIntent: { method: 'POST', path: '/v1/intents', receipt: '/data/receipt' } } },
    } as unknown as ProfileValues
    const secrets = new LearnedSecrets(values)
    const answer = (receipt: unknown) => ({
      status: 201,
      headers: {},
      body: '',
      truncated: false,
      json: { data: { receipt } },
    })
    const write = (url: string, response?: ReturnType<typeof answer>, method = 'POST') =>
      secrets.learn({ request: { method, url: `http://127.0.0.1:9${url}`, headers: {} }, response } as never)
    write('/v1/intents', answer('write-receipt-1'))
    write('/v1/intents', answer(12345678))
    write('/v1/intents')
    write('/v1/other', answer('other-receipt-1'))
    write('/v1/intents', answer('get-receipt-01'), 'GET')
    expect(secrets.list()).toEqual([{ value: 'write-receipt-1', placeholder: '$IPTS_WRITE_RECEIPT' }])
    expect(new LearnedSecrets().size).toBe(0)
    expect(secrets.size).toBe(1)
  })

  test("a WebSocket's opening message hands out its receipt by the profile's realtime template; without realtime, or received, it does not", () => {
    const open = (receipt: string) => `{"type":"subscribe","channel":"intent:0x1","receipt":"${receipt}"}`
    const channel = {
      request: { method: 'GET', url: 'ws://127.0.0.1:9/v1/realtime?ticket=t', headers: {} },
      webSocketMessages: [
        { type: 'send' as const, time: 1, opcode: 1, data: open('sent-receipt-1') },
        { type: 'receive' as const, time: 1, opcode: 1, data: open('received-receipt-1') },
      ],
    }
    const realtime = { open: '{"type":"subscribe","channel":"{channel}","receipt":"{receipt}"}' }
    const secrets = new LearnedSecrets({ realtime } as unknown as ProfileValues)
    secrets.learn(channel)
    expect(secrets.list()).toEqual([{ value: 'sent-receipt-1', placeholder: '$IPTS_INTENT_RECEIPT' }])
    const without = new LearnedSecrets({} as ProfileValues)
    without.learn(channel)
    expect(without.size).toBe(0)
  })

  test.each([
    [SECRETS_REMEMBERED, SECRETS_REMEMBERED, 0],
    [SECRETS_REMEMBERED + 1, SECRETS_REMEMBERED / 2, SECRETS_REMEMBERED / 2 + 1],
  ])('%i keys learned: %i remembered, the %i least recent forgotten (listeners told first)', (keys, kept, gone) => {
    const secrets = new LearnedSecrets()
    const told: number[][] = []
    secrets.beforeForgetting((known, forgotten) => told.push([known.length, forgotten.length]))
    for (let i = 0; i < keys; i++)
      secrets.learn({
        request: { method: 'GET', url: 'http://127.0.0.1:9/v1/markets', headers: { 'x-api-key': `key-${1000 + i}` } },
      })
    expect(secrets.size).toBe(kept)
    expect(secrets.list()).toHaveLength(kept)
    expect(told).toEqual(gone === 0 ? [] : [[keys, gone]])
    expect(secrets.list().some(({ value }) => value === `key-${1000 + keys - 1}`)).toBe(true)
    expect(secrets.list().some(({ value }) => value === 'key-1000')).toBe(gone === 0)
  })

  test('a key seen again counts as seen last: it outlives those seen since its first time', () => {
    const secrets = new LearnedSecrets()
    const sent = (key: string) =>
      secrets.learn({ request: { method: 'GET', url: 'http://127.0.0.1:9/v1/markets', headers: { 'x-api-key': key } } })
    sent('key-seen-again')
    for (let i = 1; i < SECRETS_REMEMBERED; i++) sent(`key-${1000 + i}`)
    sent('key-seen-again')
    sent('key-one-more')
    const values = secrets.list().map(({ value }) => value)
    expect(values).toContain('key-seen-again')
    expect(values).not.toContain('key-1001')
    expect(secrets.list().find(({ value }) => value === 'key-seen-again')?.placeholder).toBe('$IPTS_API_KEY')
  })
})
