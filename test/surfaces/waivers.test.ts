import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { Report } from '../../src/core/report.js'
import { main } from '../../src/cli/main.js'
import { faultByName } from '../../src/reference/faults/index.js'
import { FIXED_SEED, runAgainstReference } from '../support/run.js'

const FAULT = 'service-source-cache-on-vault'
const REASON = 'vendor ticket 7: the vault is served from a cache until Q3'
const waivedChecks = faultByName(FAULT)!.breaks
/** The checks the fault breaks and those whose exchanges show its rules: a run of the waived failures and no more. */
const selected = [...waivedChecks, ...(faultByName(FAULT)!.ruleWitnesses ?? [])]

afterEach(() => {
  vi.restoreAllMocks()
})

function expectWaivedFailures(report: Report): void {
  for (const id of waivedChecks) {
    const outcome = report.checks.find((c) => c.id === id)
    expect(outcome, `${id} is missing from the report`).toBeDefined()
    expect(outcome!.status, `${id} is reported as ${outcome!.status}`).toBe('waived')
    expect(outcome!.waiver).toEqual({ reason: REASON, outcome: 'failed' })
  }
  expect(report.summary.waived).toBe(waivedChecks.length)
  expect(report.summary.failed, 'a waived failure is not counted as failed').toBe(0)
  expect(report.summary.verdict, 'the verdict ignores waived checks').toBe('pass')
}

describe('waivers', () => {
  test('a waived check that fails is reported waived with the reason and its failed outcome, and the verdict ignores it', async () => {
    const report = await runAgainstReference(
      { faults: [FAULT] },
      {},
      { only: selected, waivers: waivedChecks.map((check) => ({ check, reason: REASON })) },
    )
    const levels = waivedChecks.map((id) => report.checks.find((c) => c.id === id)?.level)
    expect(levels, 'the waived checks are MUST checks, so without the waiver the run would fail').toContain('MUST')
    expectWaivedFailures(report)
  })

  test('a waiver in the --config file reaches the run through the CLI, which exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-waivers-'))
    const config = join(dir, 'ipts.yaml')
    const waivers = waivedChecks.map((check) => `  - check: ${check}\n    reason: "${REASON}"\n`).join('')
    const checks = selected.map((check) => `  - ${check}\n`).join('')
    writeFileSync(
      config,
      `fault: ${FAULT}\nreport-dir: ${dir}\nseed: ${FIXED_SEED}\ncheck:\n${checks}waivers:\n${waivers}`,
    )
    const out: string[] = []
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true))
    const code = await main(['--config', config], {})
    vi.restoreAllMocks()
    expect(code, out.join('')).toBe(0)
    expectWaivedFailures(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report)
  })
})
