import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { specPath } from '../../src/core/package-root.js'
import { messageText, realtimeProblems, socketUrl, type RealtimeSection } from '../../src/profile/realtime.js'

/**
 * The rules of a realtime section (src/profile/realtime.ts, realtimeProblems) at the edges the reference's own section
 * does not reach: the channel named in the URL alone, a ticket without a body or read with GET, events without
 * terminal kinds; and templates whose values are not all given.
 */

const REFERENCE = (
  parse(readFileSync(specPath('reference-profile.yaml'), 'utf8')) as {
    profile: { realtime: RealtimeSection }
  }
).profile.realtime

const withSection = (edit: (section: RealtimeSection) => void): RealtimeSection => {
  const section = structuredClone(REFERENCE)
  edit(section)
  return section
}

describe('a realtime section', () => {
  test('may name the channel in the URL beside the ticket, and not in the opening message', () => {
    const inUrl = withSection((section) => {
      section.url = '/v1/realtime/{channel}?ticket={ticket}'
      section.open = '{"type":"subscribe","receipt":"{receipt}"}'
    })
    expect(realtimeProblems(inUrl)).toEqual([])
  })

  test('a ticket without a body may be read with GET; with a body it is sent with POST', () => {
    expect(realtimeProblems(withSection((section) => delete section.ticket.body))).toEqual([])
    expect(
      realtimeProblems(
        withSection((section) => {
          delete section.ticket.body
          section.ticket.method = 'GET'
        }),
      ),
    ).toEqual([])
    expect(realtimeProblems(withSection((section) => (section.ticket.method = 'GET')))).toEqual([
      'profile.realtime.ticket has a body but method GET: a body is sent with POST',
    ])
  })

  test('events without terminal kinds, or no events at all, state nothing to check', () => {
    expect(realtimeProblems(withSection((section) => delete section.events!.terminal))).toEqual([])
    expect(realtimeProblems(withSection((section) => delete section.events))).toEqual([])
  })
})

describe('a template whose value is not given', () => {
  test('keeps its placeholder', () => {
    expect(messageText('{"channel":"{channel}","receipt":"{receipt}"}', { channel: 'c' })).toBe(
      '{"channel":"c","receipt":"{receipt}"}',
    )
    expect(socketUrl('/rt?t={ticket}', 'http://h', {})).toBe('ws://h/rt?t={ticket}')
  })

  test('a base URL ending in several slashes is joined with one', () => {
    expect(socketUrl('/rt', 'https://h/api//', {})).toBe('wss://h/api/rt')
  })
})
