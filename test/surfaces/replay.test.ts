import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { main } from '../../src/cli/main.js'
import type { CheckOutcome } from '../../src/core/report.js'
import { referenceBehaviours } from '../../src/reference/named-behaviours.js'
import { startReferenceServer } from '../../src/reference/server.js'
import { runAgainstReference } from '../support/run.js'

afterEach(() => {
  vi.restoreAllMocks()
})

/** The flags of a printed replay command, after the program name. */
function replayArguments(command: string): string[] {
  const [program, ...args] = command.split(' ').slice(1)
  expect(program, command).toBe('ipts-conformance')
  return args
}

/** Runs the printed command as it is (its flags switch the fault on), with only the report folder added. */
async function replayThroughCli(command: string, env: NodeJS.ProcessEnv = {}): Promise<CheckOutcome[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ipts-replay-'))
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
  const code = await main([...replayArguments(command), '--report-dir', dir], env)
  vi.restoreAllMocks()
  expect(code, 'exit 0 or 1 (a failed SHOULD check fails the run only under --strict)').toBeLessThanOrEqual(1)
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).checks
}

describe('a failing property', () => {
  test.each([
    ['properties-uppercase-address-refused', 'properties/well-formed-address-answered'],
    ['properties-receipt-prefix-match', 'properties/wrong-receipt-refused'],
    ['cursors-tampered-cursor-500', 'cursors/tampered-cursor-rejected'],
  ] as const)('under %s replays its counterexample from the printed command', async (fault, checkId) => {
    const report = await runAgainstReference({ faults: [fault] })
    const failed = report.checks.find((c) => c.id === checkId)!
    const counterexample = failed.evidence?.counterexample
    expect(counterexample, `${checkId} failed without a counterexample: ${failed.reason}`).toBeDefined()
    expect(counterexample!.replay, 'the command carries the fault that shaped the run').toBe(
      `npx ipts-conformance --fault ${fault} --check ${checkId} --seed ${counterexample!.seed} --replay-path ${counterexample!.path}`,
    )

    const checks = await replayThroughCli(counterexample!.replay!)
    expect(
      // The rules judged over every response (every-response, relations) judge the replay's responses too.
      checks.filter((c) => c.status !== 'skipped' && !/^(every-response|relations)\//.test(c.id)).map((c) => c.id),
      'only the replayed check ran',
    ).toEqual([checkId])
    const replayed = checks.find((c) => c.id === checkId)!
    expect(replayed.status).toBe('failed')
    expect(replayed.evidence?.counterexample?.value, 'the same counterexample').toEqual(counterexample!.value)
    expect(replayed.evidence?.counterexample?.runs, 'a replay runs the one input').toBe(1)
  })
})

describe('--replay-path', () => {
  test.each([
    [['--replay-path', '1:0']],
    [['--replay-path', '1:0', '--seed', '5']],
    [['--replay-path', '1:0', '--check', 'properties/garbage-key-refused']],
  ])('%j without --seed and exactly one --check exits 2 with one line', async (argv) => {
    const err: string[] = []
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true))
    const code = await main(argv, {})
    vi.restoreAllMocks()
    expect(code).toBe(2)
    expect(err.join('').trimEnd().split('\n'), 'one line').toEqual([
      expect.stringMatching(/--replay-path needs --seed( \(or IPTS_SEED\))? and exactly one --check/),
    ])
  })
})

describe('a failing property of a deployment named by --base-url', () => {
  test('its replay command names the deployment, and replays the counterexample there', async () => {
    const checkId = 'cursors/tampered-cursor-rejected'
    const server = await startReferenceServer({ behaviours: referenceBehaviours(['cursors-tampered-cursor-500']) })
    try {
      const env = { IPTS_API_KEY: server.data.apiKey }
      const run = await replayThroughCli(`npx ipts-conformance --base-url ${server.baseUrl} --check ${checkId}`, env)
      const counterexample = run.find((c) => c.id === checkId)!.evidence?.counterexample
      expect(counterexample, 'a counterexample').toBeDefined()
      expect(counterexample!.replay).toBe(
        `npx ipts-conformance --base-url ${server.baseUrl} --check ${checkId} --seed ${counterexample!.seed} --replay-path ${counterexample!.path}`,
      )
      const replayed = (await replayThroughCli(counterexample!.replay!, env)).find((c) => c.id === checkId)!
      expect(replayed.status).toBe('failed')
      expect(replayed.evidence?.counterexample?.value, 'the same counterexample').toEqual(counterexample!.value)
    } finally {
      await server.close()
    }
  })
})
