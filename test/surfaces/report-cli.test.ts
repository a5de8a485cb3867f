import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { main } from '../../src/cli/main.js'
import { faults } from '../../src/reference/faults/index.js'
import type { CheckOutcome } from '../../src/core/report.js'
import { FIXED_SEED } from '../support/run.js'

const ANSI = /\x1b\[/

async function run(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = []
  const err: string[] = []
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true))
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true))
  try {
    return { code: await main(argv, env), out: out.join(''), err: err.join('') }
  } finally {
    vi.restoreAllMocks()
  }
}

const tempDir = () => mkdtempSync(join(tmpdir(), 'ipts-report-cli-'))
const fault = faults[0]!

afterEach(() => {
  vi.restoreAllMocks()
})

/** The whole run with the fault that the report folder, the failing baseline and the terminal's lines are read from. */
let faultRun: { dir: string; jobSummary: string; code: number; out: string }
beforeAll(async () => {
  const dir = tempDir()
  const jobSummary = join(dir, 'summary.md')
  writeFileSync(jobSummary, '# earlier step\n')
  const { code, out } = await run(['--report-dir', dir, '--seed', String(FIXED_SEED), '--fault', fault.name], {
    GITHUB_STEP_SUMMARY: jobSummary,
  })
  faultRun = { dir, jobSummary, code, out }
})

describe('the report directory', () => {
  test('holds every format after a run, and report.md is appended to the CI job summary', () => {
    const { dir, jobSummary, code, out } = faultRun
    expect(code, out).toBe(1)
    for (const file of ['report.json', 'report.md', 'junit.xml', 'report.html'])
      expect(out, `the summary names ${file}`).toContain(join(dir, file))
    const summary = readFileSync(jobSummary, 'utf8')
    expect(summary.startsWith('# earlier step\n'), 'the job summary keeps what was there').toBe(true)
    expect(summary).toContain(readFileSync(join(dir, 'report.md'), 'utf8'))
  })
})

/**
 * The whole plain run compared with the fault's run as its baseline: a passing run, and the passing baseline a run with
 * the fault is compared with in turn.
 */
let plainRun: Promise<{ dir: string; code: number; out: string }> | undefined
const plainRunAfterFault = () =>
  (plainRun ??= (async () => {
    const dir = tempDir()
    const argv = ['--report-dir', dir, '--seed', String(FIXED_SEED), '--baseline', join(faultRun.dir, 'report.json')]
    return { dir, ...(await run(argv)) }
  })())

describe('--baseline', () => {
  test('names the checks fixed since a failing baseline, and the exit code follows the current run', async () => {
    expect(faultRun.code).toBe(1)
    const { dir: now, code, out } = await plainRunAfterFault()
    expect(code, out).toBe(0)
    const fixedLine = out.split('\n').find((line) => line.trim().startsWith('fixed '))
    expect(fixedLine).toMatch(new RegExp(`fixed ${fault.breaks.length}: `))
    for (const id of fault.breaks) expect(fixedLine).toContain(id)
    expect(out).toContain('newly failing 0')
    expect(readFileSync(join(now, 'report.md'), 'utf8')).toContain('### Compared with the baseline')
  })

  test('names the checks newly failing since a passing baseline', async () => {
    const { dir: before, code: passing } = await plainRunAfterFault()
    expect(passing).toBe(0)
    const now = tempDir()
    const { code, out } = await run([
      '--report-dir',
      now,
      '--seed',
      String(FIXED_SEED),
      '--fault',
      fault.name,
      '--baseline',
      join(before, 'report.json'),
    ])
    expect(code, out).toBe(1)
    const report = JSON.parse(readFileSync(join(now, 'report.json'), 'utf8'))
    const failed = report.checks.filter((c: CheckOutcome) => c.status === 'failed').map((c: CheckOutcome) => c.id)
    expect(out).toContain(`newly failing ${failed.length}: ${failed.join(', ')}`)
    expect(out).toContain('fixed 0')
    const earlier = new Map<string, string>(
      JSON.parse(readFileSync(join(before, 'report.json'), 'utf8')).checks.map((c: CheckOutcome) => [c.id, c.status]),
    )
    const unchanged = report.checks.filter((c: CheckOutcome) => earlier.get(c.id) === c.status).length
    expect(out).toMatch(new RegExp(`unchanged ${unchanged}, of which still failing 0`))
  })

  test.each([
    ['a missing file', () => join(tempDir(), 'nope.json'), /--baseline: cannot read .* \(ENOENT\)/],
    ['a file that is not JSON', () => writeTemp('{"checks": ['), /--baseline: .* is not JSON/],
    ['JSON that is not a report', () => writeTemp('{"checks": [{"id": 1}]}'), /--baseline: .* is not a report\.json/],
  ])('%s is a usage error naming --baseline, before anything runs', async (_, path, pattern) => {
    const { code, out, err } = await run(['--report-dir', tempDir(), '--baseline', path()])
    expect(code).toBe(2)
    expect(out).toBe('')
    expect(err.trimEnd().split('\n'), 'one line').toHaveLength(1)
    expect(err).toMatch(pattern)
  })
})

function writeTemp(text: string): string {
  const path = join(tempDir(), 'baseline.json')
  writeFileSync(path, text)
  return path
}

/** The rules judged over all of a run's responses once its checks are done: no progress line counts them. */
const judgedOverAll = (c: CheckOutcome) => c.concern === 'every-response' || c.concern === 'relations'

describe('terminal output', () => {
  test('off a terminal: a line per concern and per failed check, no colour, no cursor movement; the closing line counts what the progress counted', async () => {
    const { out } = faultRun
    expect(out).not.toMatch(ANSI)
    expect(out).not.toContain('\r')
    const report = JSON.parse(readFileSync(out.match(/report: (.*report\.json)/)![1]!, 'utf8'))
    const concerns = new Set(
      report.checks.filter((c: CheckOutcome) => !judgedOverAll(c)).map((c: CheckOutcome) => c.concern),
    )
    for (const concern of concerns)
      expect(
        out.match(new RegExp(`^${concern}: \\d+ checks? done.* \\(\\d+ of \\d+ in all\\)$`, 'gm')),
        `one line for ${concern}`,
      ).toHaveLength(1)
    for (const id of fault.breaks.filter((b) => !/^(every-response|relations)\//.test(b)))
      expect(out).toMatch(new RegExp(`^failed ${id} \\[`, 'm'))
    const inAll = Number(/\(\d+ of (\d+) in all\)$/m.exec(out)![1])
    const rules = report.checks.filter((c: CheckOutcome) => c.concern === 'every-response').length
    const relations = report.checks.filter((c: CheckOutcome) => c.concern === 'relations').length
    expect(
      out,
      'the closing line counts the checks the progress counted, and the rules and relations beside them',
    ).toContain(
      `of ${inAll} checks and ${rules} every-response rules, ${relations} relations between responses against`,
    )
    expect(inAll + rules + relations, 'progress and summary count the same whole').toBe(report.summary.total)
  })
})
