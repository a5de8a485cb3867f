import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { packageRoot } from '../../src/core/package-root.js'
import { HAR_BODY_BUDGET_CHARS, HAR_BODY_CUT_CHARS } from '../../src/har/write.js'
import { LOOK_AHEAD_EXCHANGES } from '../../src/traffic/har-spool.js'
import { SECRETS_REMEMBERED } from '../../src/traffic/learned-secrets.js'
import { MESSAGES_RECORDED } from '../../src/traffic/websocket-messages.js'
import { WRITES_REMEMBERED } from '../../src/traffic/write-keys.js'

/**
 * The bounds on what the proxy and the HAR keep are the ones the documents state. The unit tests at each bound count
 * from the constant, so they would follow a constant moved by one; this holds the constant to its documented value.
 */

/** Documents wrap their lines: one space for every run of whitespace. */
const read = (doc: string) => readFileSync(join(packageRoot, doc), 'utf8').replace(/\s+/g, ' ')
const grouped = (n: number) => n.toLocaleString('en-US')

describe('the bounds of recorded traffic, as docs/traffic.md states them', () => {
  const traffic = read('docs/traffic.md')
  test.each([
    ['MESSAGES_RECORDED', `A channel records its first ${grouped(MESSAGES_RECORDED)} messages`],
    ['SECRETS_REMEMBERED', `it remembers the ${SECRETS_REMEMBERED} most recently seen`],
    ['SECRETS_REMEMBERED', `when a ${SECRETS_REMEMBERED + 1}th comes, all but the ${SECRETS_REMEMBERED / 2} most`],
    ['LOOK_AHEAD_EXCHANGES', `set aside and, ${LOOK_AHEAD_EXCHANGES} exchanges later, redacted`],
    ['WRITES_REMEMBERED', `only the last ${grouped(WRITES_REMEMBERED)} pairings of Idempotency-Key and body`],
  ])('%s: "%s"', (_, sentence) => {
    expect(traffic).toContain(sentence)
  })
})

describe("the HAR's body budget, as docs/reports.md states it", () => {
  test('bodies whole up to 4 MiB over the run, then cut to their first 2 KiB', () => {
    expect([HAR_BODY_BUDGET_CHARS, HAR_BODY_CUT_CHARS]).toEqual([4 * 1024 * 1024, 2 * 1024])
    const reports = read('docs/reports.md')
    expect(reports).toContain('response bodies are kept whole up to 4 MiB over the run')
    expect(reports).toContain('any other is cut to its first 2 KiB')
  })
})
