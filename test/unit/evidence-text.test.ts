import { describe, expect, test } from 'vitest'
import { connectionText, evidenceLines, oneLine, profileLine, sampleLine } from '../../reporters/evidence-text.js'
import { EVIDENCE_WITH_EVERY_MEMBER } from '../support/reports.js'

/** A failure's evidence as the plain text lines of JUnit and the console, and the phrases they are made of. */

describe("a failure's evidence as text lines", () => {
  test('every member in its order: request, response and body, transport error, retries, violations, counterexample, sample, profile, command, others', () => {
    expect(evidenceLines(EVIDENCE_WITH_EVERY_MEMBER, { showed: 2, of: 9 })).toEqual([
      'the body breaks the schema',
      'request: GET https://x.example/v1/markets',
      '  accept: application/json',
      'response: status 200, 10 bytes (cut at the size cap)',
      '  content-type: application/json',
      '  set-cookie: a=1',
      '  set-cookie: b=2',
      'body excerpt:',
      '{"data":1}',
      'transport error: ECONNRESET: socket hang up',
      'retried after status 503, waited 250 ms',
      'retried after status 429, waited 1000 ms',
      'schema Market: /data must be array (keyword type at #/type)',
      'schema Market: (root) x (keyword required at #/required)',
      'counterexample (seed 7, path 3:1, 4 runs): {"limit":0}',
      'replay: npx ipts-conformance --replay 3:1',
      'first seen in round 2 (on connections of its own) at 2026-11-27T10:00:00.000Z, on connection 3 (client port 51234); 2 of 9 samples showed it',
      'assessed against the profile: errorCodes = ["a"] (deploy.yaml)',
      'reproduce: curl -H "x-api-key: ${IPTS_API_KEY}" "https://x.example/v1/intents/0xab?r=${IPTS_WRITE_RECEIPT_1}&k=${IPTS_API_KEY}"',
      '2 more response(s) broke the same rule; see report.json',
    ])
  })

  test('the message alone; a whole response without a body excerpt, a counterexample without a replay', () => {
    expect(evidenceLines({ message: 'm' })).toEqual(['m'])
    expect(
      evidenceLines({
        message: 'm',
        response: { status: 500, headers: {}, bodyExcerpt: '', bodyBytes: 0, truncated: false },
        counterexample: { seed: 1, path: '0', value: null, runs: 1 },
        others: [],
      }),
    ).toEqual(['m', 'response: status 500, 0 bytes', 'counterexample (seed 1, path 0, 1 runs): null'])
  })
})

describe('the phrases', () => {
  test("a sample of the checks' round, with no connection and no count", () => {
    expect(sampleLine({ round: 0, at: 'T' })).toBe('first seen in round 0 (the checks) at T')
  })

  test.each([
    [{ number: 2, port: 51234 }, 'connection 2 (client port 51234)'],
    [{ number: 2 }, 'connection 2'],
    [{ number: 0, port: 0 }, 'connection 0 (client port 0)'],
    [{ id: '17' }, 'connection "17" (as the HAR names it)'],
    [{}, 'connection "" (as the HAR names it)'],
  ])('connection %j: %s', (connection, text) => {
    expect(connectionText(connection)).toBe(text)
  })

  test('a profile value on one line, cut at its bound, its source when known', () => {
    expect(profileLine({ key: 'k', value: 'x'.repeat(10) }, 5)).toBe('assessed against the profile: k = "xxx…')
    expect(profileLine({ key: 'k', value: 1, source: '' })).toBe('assessed against the profile: k = 1')
  })

  test('one line: whitespace collapsed and trimmed, cut with an ellipsis only beyond its bound, nothing for no text', () => {
    expect(oneLine('  a\n\tb  ')).toBe('a b')
    expect(oneLine('abcde', 5)).toBe('abcde')
    expect(oneLine('abcdef', 5)).toBe('abcd…')
    expect(oneLine(undefined)).toBe('')
    expect(oneLine('x'.repeat(201))).toBe(`${'x'.repeat(199)}…`)
    expect(oneLine('x'.repeat(200))).toBe('x'.repeat(200))
  })
})
