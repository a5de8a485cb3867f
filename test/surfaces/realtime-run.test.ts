import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { checksByConcern } from '../../src/checks/index.js'
import type { Report } from '../../src/core/report.js'
import type { Har } from '../../src/har/types.js'
import { exitOf, spawnBin } from '../support/bin.js'
import { harValidator } from '../support/har-schema.js'

/** `npm start -- --allow-writes` against the embedded reference and its profile: the realtime checks, end to end. */

const REALTIME = checksByConcern.realtime.map((check) => check.id)

describe('a run of the realtime checks with --allow-writes against the embedded reference', () => {
  test('passes them all, and its HAR holds each channel with its messages, valid HAR 1.2, with no receipt anywhere', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-realtime-run-'))
    const child = spawnBin(['--allow-writes', '--check', REALTIME.join(','), '--report-dir', dir])
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    expect(await exitOf(child), output).toBe(0)
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report
    for (const id of REALTIME) expect(report.checks.find((c) => c.id === id)?.status, id).toBe('passed')
    const text = readFileSync(join(dir, 'exchanges.har'), 'utf8')
    const har = JSON.parse(text) as Har
    const validate = harValidator()
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true)
    const sockets = har.log.entries.filter((entry) => entry._webSocketMessages)
    expect(sockets).toHaveLength(7)
    const received = sockets.flatMap((s) => s._webSocketMessages!).filter((m) => m.type === 'receive')
    expect(received.map((m) => (JSON.parse(m.data) as { type: string }).type)).toEqual(
      expect.arrayContaining(['subscribed', 'error', 'event']),
    )
    // Every receipt of the reference begins so (its fixtures' and those its intake hands out), in every file written.
    for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file), 'utf8'), file).not.toMatch(/rcpt_/)
    expect(output).not.toMatch(/rcpt_/)
  })
})
