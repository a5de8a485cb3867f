import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { specPath } from '../../src/core/package-root.js'
import { ProfileError } from '../../src/core/errors.js'
import { profileProblems, profileValues } from '../../src/profile/load.js'
import { channelName, hasShape, messageText, socketUrl, type RealtimeSection } from '../../src/profile/realtime.js'

/** The profile's realtime section (src/profile/realtime.ts): its templates, and the rules its loader holds it to. */

const referenceRealtime = (): RealtimeSection =>
  (parse(readFileSync(specPath('reference-profile.yaml'), 'utf8')) as { profile: { realtime: RealtimeSection } })
    .profile.realtime

const withRealtime = (edit: (section: Record<string, unknown>) => void) => {
  const section = structuredClone(referenceRealtime()) as unknown as Record<string, unknown>
  edit(section)
  return { profile: { realtime: section } }
}

describe('a realtime section', () => {
  test("the reference's own is valid and read as written", () => {
    expect(profileValues({ profile: { realtime: referenceRealtime() } }, 'ref').realtime).toEqual(referenceRealtime())
  })

  test.each([
    [
      'a receipt in the WebSocket URL',
      (s: Record<string, unknown>) => (s.url = '/v1/realtime?ticket={ticket}&receipt={receipt}'),
      /^profile\.realtime\.url holds \{receipt\}: a WebSocket URL takes only \{ticket\} and \{channel\}/,
    ],
    [
      'an opening message without the receipt',
      (s: Record<string, unknown>) => (s.open = '{"channel":"{channel}"}'),
      /^profile\.realtime\.open holds no \{receipt\}/,
    ],
    [
      'no channel named in the URL or the message',
      (s: Record<string, unknown>) => (s.open = '{"receipt":"{receipt}"}'),
      /^profile\.realtime\.open and profile\.realtime\.url hold no \{channel\}/,
    ],
    [
      'a terminal kind that is no kind',
      (s: Record<string, unknown>) => ((s.events as { terminal: string[] }).terminal = ['cancelled', 'expired']),
      /^profile\.realtime\.events\.terminal lists expired, which is not one of events\.kinds$/,
    ],
    [
      'a ticket body with the receipt',
      (s: Record<string, unknown>) => ((s.ticket as { body: string }).body = '{"receipt":"{receipt}"}'),
      /^profile\.realtime\.ticket\.body holds \{receipt\}/,
    ],
    [
      'an intent channel not named intent:',
      (s: Record<string, unknown>) => (s.channels = { intent: 'orders:{hash}' }),
      /^profile\.realtime\.channels\.intent must match pattern/,
    ],
    [
      'no refusal stated',
      (s: Record<string, unknown>) => (s.refused = {}),
      /^profile\.realtime\.refused must NOT have fewer than 1 properties/,
    ],
    [
      'a misspelt key',
      (s: Record<string, unknown>) => ((s.refusd = s.refused), delete s.refused),
      /^unknown key 'profile\.realtime\.refusd' \(did you mean 'profile\.realtime\.refused'\?\)/,
    ],
  ])('with %s is refused in one line naming the key', (_, edit, problem) => {
    const parsed = withRealtime(edit)
    expect(profileProblems(parsed)[0]).toMatch(problem)
    expect(() => profileValues(parsed, 'p.yaml')).toThrow(ProfileError)
    expect(() => profileValues(parsed, 'p.yaml')).toThrow(/^p\.yaml: profile|^p\.yaml: unknown key/)
  })
})

describe('the realtime templates', () => {
  test('a channel name takes the intent hash or the action identifier', () => {
    expect(channelName('intent:{hash}', '0xab')).toBe('intent:0xab')
    expect(channelName('action:{id}/live', 'a-1')).toBe('action:a-1/live')
  })

  test('a message JSON-escapes each value, so that a value stays one JSON string', () => {
    const text = messageText('{"channel":"{channel}","receipt":"{receipt}","t":"{ticket}"}', {
      channel: 'intent:0x1',
      receipt: 'r"\\1',
      ticket: 't',
    })
    expect(JSON.parse(text)).toEqual({ channel: 'intent:0x1', receipt: 'r"\\1', t: 't' })
  })

  test('a WebSocket URL below the base URL takes its scheme as ws or wss and percent-encodes its values', () => {
    expect(
      socketUrl('/v1/rt?ticket={ticket}&c={channel}', 'http://127.0.0.1:9/api/', {
        ticket: 'a b',
        channel: 'intent:0x1',
      }),
    ).toBe('ws://127.0.0.1:9/api/v1/rt?ticket=a%20b&c=intent%3A0x1')
    expect(socketUrl('/rt?t={ticket}', 'https://example.test', { ticket: 't' })).toBe('wss://example.test/rt?t=t')
    expect(socketUrl('wss://rt.example.test/socket?t={ticket}', 'http://x', { ticket: '/' })).toBe(
      'wss://rt.example.test/socket?t=%2F',
    )
  })

  test('a message has a shape when the value at its pointer is the shape’s, in type too', () => {
    expect(hasShape({ type: 'subscribed' }, { pointer: '/type', value: 'subscribed' })).toBe(true)
    expect(hasShape({ ok: 1 }, { pointer: '/ok', value: '1' })).toBe(false)
    expect(hasShape(undefined, { pointer: '/type', value: 'x' })).toBe(false)
    expect(hasShape({ type: 'x' }, undefined)).toBe(false)
  })
})
