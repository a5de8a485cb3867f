import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { validateXML } from 'xmllint-wasm'
import { allCheckIds } from '../../src/checks/index.js'
import { levelLabel, loadRequirements, type Requirement } from '../../src/contract/requirements.js'
import { renderJson } from '../../reporters/json.js'
import { escapeHtml, renderHtml } from '../../reporters/html.js'
import { escapeXml, renderJunit } from '../../reporters/junit.js'
import { renderMarkdown } from '../../reporters/markdown.js'
import { remediesLine, summaryLines } from '../../reporters/console.js'
import { compareWithBaseline, comparisonLines } from '../../reporters/baseline.js'
import { evidenceLines, oneLine, profileLine } from '../../reporters/evidence-text.js'
import { writeReports } from '../../reporters/write.js'
import {
  assessedLine,
  interruptionLine,
  provenance,
  resamplingLine,
  type CheckOutcome,
  type Coverage,
  type Report,
  type RequirementCoverage,
} from '../../src/core/report.js'
import type { ProfileKey } from '../../src/profile/profile.js'
import { reportValidator } from '../support/report-schema.js'
import {
  checkAnchor,
  EVIDENCE_WITH_EVERY_MEMBER,
  provokedReport,
  referenceReport,
  withEveryPart,
  withHostileEvidence,
} from '../support/reports.js'

const junitXsd = readFileSync(new URL('../fixtures/junit.xsd', import.meta.url), 'utf8')

async function xsdErrors(xml: string): Promise<string> {
  const result = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [junitXsd] })
  return result.valid ? '' : result.rawOutput
}

/**
 * The report with the first failed check of a rule judged over many samples carrying a connection in its first
 * sample, as a soak's round gives it, and that check.
 */
function withConnection(report: Report): { report: Report; check: CheckOutcome } {
  const copy = structuredClone(report)
  const check = copy.checks.find((c) => c.status === 'failed' && c.samples && c.evidence?.sample)
  if (!check) throw new Error('the provoked run has no failure of a rule judged over many samples')
  check.evidence!.sample = { ...check.evidence!.sample!, round: 3, connection: { number: 2, port: 51234 } }
  return { report: copy, check }
}

/** The report with its first failed check marked as one that crashed, and that check. */
function withOneCrash(report: Report): { report: Report; crashed: CheckOutcome } {
  const crashed = report.checks.find((c) => c.status === 'failed')!
  return {
    report: { ...report, checks: report.checks.map((c) => (c === crashed ? { ...c, crashed: true } : c)) },
    crashed,
  }
}

/** The statuses of checks and of requirements, in the order the reports count them, spelled out here. */
const CHECK_STATUSES = ['passed', 'failed', 'not run', 'skipped', 'waived'] as const
const REQUIREMENT_STATUSES = [
  'passed',
  'failed',
  'skipped',
  'not-assessable',
  'uncovered',
  'waived',
  'not run',
] as const
/** Of a report's checks of a level, how many have each status, in CHECK_STATUSES's order. */
const checkCounts = (report: Report, level: string) =>
  CHECK_STATUSES.map((status) => report.checks.filter((c) => c.level === level && c.status === status).length)
/** A status's badge in report.html, as a reader of the page expects it. */
const badgeHtml = (status: string) => `<span class="status s-${status.replace(' ', '-')}">${status}</span>`

let provoked: Report
let waived: string
let plain: Report
/** The plain run's report with every optional part (withEveryPart), which the writers are read on part by part. */
let every: Report
// Two whole runs, one with nearly every fault: longer than the default hook bound on a loaded machine.
beforeAll(async () => {
  ;({ report: provoked, waived } = await provokedReport())
  plain = await referenceReport()
  every = withEveryPart(plain)
}, 300_000)

describe('report.json', () => {
  test('validates against specs/report.schema.json, for a passing and a failing run', () => {
    const validate = reportValidator()
    for (const report of [plain, provoked]) {
      expect(validate(JSON.parse(renderJson(report))), JSON.stringify(validate.errors, null, 2)).toBe(true)
    }
  })

  test("says when and where each finding's first sample came, and how many samples showed it, and stays valid", () => {
    const failed = provoked.checks.filter((c) => c.status === 'failed' && !c.crashed)
    const timed = failed.filter((c) => c.evidence?.sample)
    expect(
      failed.filter((c) => c.evidence?.response && !c.evidence.sample).map((c) => c.id),
      'failures with a response as evidence and no time of it',
    ).toEqual([])
    for (const check of timed) expect(Date.parse(check.evidence!.sample!.at), check.id).not.toBeNaN()
    const counted = failed.filter((c) => c.samples)
    expect(counted.length, 'rules judged over many samples count them').toBeGreaterThan(0)
    for (const check of counted) {
      expect(check.samples!.showed, check.id).toBeGreaterThan(0)
      expect(check.samples!.showed, check.id).toBeLessThanOrEqual(check.samples!.of)
    }
    const { report, check } = withConnection(provoked)
    const validate = reportValidator()
    expect(validate(JSON.parse(renderJson(report))), JSON.stringify(validate.errors, null, 2)).toBe(true)
    const line = `first seen in round 3 (on connections of its own) at ${check.evidence!.sample!.at}, on connection 2 (client port 51234); ${check.samples!.showed} of ${check.samples!.of} samples showed it`
    expect(renderMarkdown(report)).toContain(line)
    expect(renderHtml(report)).toContain(line)
  })

  test('validates with a check that crashed', () => {
    const validate = reportValidator()
    expect(
      validate(JSON.parse(renderJson(withOneCrash(provoked).report))),
      JSON.stringify(validate.errors, null, 2),
    ).toBe(true)
  })

  test('the schema rejects a member it does not know', () => {
    const validate = reportValidator()
    const report = JSON.parse(renderJson(plain))
    report.checks[0].extra = 1
    expect(validate(report)).toBe(false)
  })

  test('requires the coverage, with every requirement of the catalogue once, in its order', () => {
    const validate = reportValidator()
    const { coverage: _, ...without } = JSON.parse(renderJson(plain)) as Report
    expect(validate(without)).toBe(false)
    expect(provoked.coverage.requirements.map((r) => r.id)).toEqual(loadRequirements().map((r) => r.id))
  })

  test('traces every requirement of the catalogue once, in its order', () => {
    expect(provoked.requirements.map((r) => r.id)).toEqual(loadRequirements().map((r) => r.id))
  })

  test('lists an observable requirement that no check cites as uncovered, and an unobservable one as not assessable with its reason', () => {
    const cited = new Set(provoked.checks.map((c) => c.requirement))
    for (const requirement of loadRequirements()) {
      const result = provoked.requirements.find((r) => r.id === requirement.id)!
      if (!requirement.observable && result.profile) {
        // Stated by the run's profile (the embedded reference's own): assessed by the checks that cite it.
        expect(result.status, requirement.id).not.toBe('not-assessable')
        expect(result.checks.length, requirement.id).toBeGreaterThan(0)
      } else if (!requirement.observable) {
        expect(result.status, requirement.id).toBe('not-assessable')
        expect(result.reason, requirement.id).toBe(requirement.reason)
      } else if (!cited.has(requirement.id)) {
        expect(result.status, requirement.id).toBe('uncovered')
        expect(result.checks, requirement.id).toEqual([])
      } else expect(result.checks.length, requirement.id).toBeGreaterThan(0)
    }
  })

  test('marks a requirement failed when one of its checks failed, and waived when its only failure is waived', () => {
    for (const check of provoked.checks.filter((c) => c.status === 'failed')) {
      expect(provoked.requirements.find((r) => r.id === check.requirement)!.status, check.id).toBe('failed')
    }
    const waivedCheck = provoked.checks.find((c) => c.id === waived)!
    expect(waivedCheck.status).toBe('waived')
    const siblings = provoked.checks.filter((c) => c.requirement === waivedCheck.requirement && c.id !== waived)
    const expected = siblings.some((c) => c.status === 'failed') ? 'failed' : 'waived'
    expect(provoked.requirements.find((r) => r.id === waivedCheck.requirement)!.status).toBe(expected)
  })

  test("carries each requirement's quote and whether it is inferred, and each check whether its requirement is", () => {
    const catalogue = new Map<string, Requirement>(loadRequirements().map((r) => [r.id, r]))
    for (const result of provoked.requirements) {
      expect(result.quote, result.id).toEqual(catalogue.get(result.id)!.quote)
      expect(result.inferred, result.id).toBe(catalogue.get(result.id)!.inferred === true)
    }
    for (const check of provoked.checks)
      expect(check.inferred, check.id).toBe(catalogue.get(check.requirement)!.inferred === true)
    expect(
      provoked.checks.some((c) => c.inferred) && provoked.checks.some((c) => !c.inferred),
      'the run has inferred and stated requirements',
    ).toBe(true)
  })

  test('names in each requirement every check of the suite that cites it', () => {
    const ids = new Set(provoked.requirements.flatMap((r) => r.checks))
    expect([...ids].sort()).toEqual(allCheckIds().sort())
  })
})

describe('junit.xml', () => {
  test('validates against the Ant/Jenkins JUnit XSD, for a passing and a failing run', async () => {
    expect(await xsdErrors(renderJunit(plain))).toBe('')
    expect(await xsdErrors(renderJunit(provoked))).toBe('')
    expect(renderJunit(plain).split('\n')[0], 'the declaration that names its encoding, first').toBe(
      '<?xml version="1.0" encoding="UTF-8"?>',
    )
  })

  test('shows a check that crashed as an error of the suite, not a failure, and stays valid', async () => {
    const { report, crashed } = withOneCrash(provoked)
    const xml = renderJunit(report)
    expect(await xsdErrors(xml)).toBe('')
    const testcase = xml.split('<testcase ').find((c) => c.startsWith(`name="${crashed.id}: `))!
    expect(testcase).toMatch(/^[^\n]*\n\s*<error message="/)
    expect(xml.match(/<failure /g)).toHaveLength(report.checks.filter((c) => c.status === 'failed').length - 1)
  })

  test('says a run cut short by --max-duration in a comment, which holds no "--" and stays valid', async () => {
    const cut: Report = { ...plain, interrupted: { by: 'max-duration', at: plain.startedAt } }
    const xml = renderJunit(cut)
    expect(await xsdErrors(xml)).toBe('')
    expect(xml.split('\n')[1]).toMatch(/^<!-- CUT SHORT by - -max-duration.* -->$/)
  })

  test('the XSD rejects a test case without a name, so validation has teeth', async () => {
    const xml = renderJunit(plain).replace(/<testcase name="[^"]*"/, '<testcase')
    expect(await xsdErrors(xml)).toMatch(/name/)
  })

  test('stays valid XML with markup, a CDATA end and control characters in the evidence', async () => {
    const xml = renderJunit(withHostileEvidence(provoked))
    expect(await xsdErrors(xml)).toBe('')
    expect(xml).not.toContain('<script>')
    expect(xml).toContain('&lt;/script&gt;')
  })

  test('says in a failure when and where its first sample came, and how many samples showed it', async () => {
    const { report, check } = withConnection(provoked)
    const xml = renderJunit(report)
    expect(await xsdErrors(xml)).toBe('')
    const testcase = xml.split('<testcase ').find((c) => c.startsWith(`name="${check.id}: `))!
    expect(testcase).toContain(
      `on connection 2 (client port 51234); ${check.samples!.showed} of ${check.samples!.of} samples showed it`,
    )
  })

  test('labels each failure with its requirement and level, inferred where it is', () => {
    const xml = renderJunit(provoked)
    const failed = provoked.checks.filter((c) => c.status === 'failed')
    expect(
      failed.some((c) => c.inferred),
      'the provoked run fails an inferred check',
    ).toBe(true)
    for (const check of failed) expect(xml).toContain(`type="${check.id} [${check.requirement}, ${levelLabel(check)}]"`)
  })

  test('has one test case per check, a test suite per concern, and one for coverage', () => {
    const xml = renderJunit(provoked)
    expect(xml.match(/<testcase /g)).toHaveLength(provoked.checks.length)
    const concerns = new Set(provoked.checks.map((c) => c.concern))
    expect(xml.match(/<testsuite /g)).toHaveLength(concerns.size + 1)
  })

  test('states the share assessed and each requirement not assessed; with --min-assessed a test case fails below it, and stays valid', async () => {
    const { summary } = plain.coverage
    const line = `assessed ${summary.assessed} of ${summary.observable} observable requirements (${summary.percent}%)`
    const unassessed = plain.coverage.requirements.filter((r) => r.observable && !r.assessed)
    expect(unassessed.length, 'the run against the reference leaves some requirement unassessed').toBeGreaterThan(0)
    const xml = renderJunit(plain)
    expect(xml).toContain(`<property name="assessed" value="${line}"/>`)
    expect(xml).toContain(`<property name="assessed-percent" value="${summary.percent}"/>`)
    for (const r of unassessed) expect(xml).toContain(`${r.id} [${r.level}]: `)
    const listed = plain.coverage.requirements.filter((r) => xml.includes(`\n${r.id} [${r.level}]: `))
    expect(
      listed.map((r) => r.id),
      'only those: not an assessed one, nor one no test could observe',
    ).toEqual(unassessed.map((r) => r.id))
    expect(xml).not.toContain('min-assessed')
    const withMinimum = (minimum: number): Report => ({
      ...plain,
      coverage: { ...plain.coverage, summary: { ...summary, minimum } },
    })
    const below = renderJunit(withMinimum(100))
    expect(await xsdErrors(below)).toBe('')
    expect(below).toContain(`<failure message="${line}, below the 100% --min-assessed asks for" type="min-assessed"/>`)
    expect(below).toMatch(/^<testsuites [^>]* failures="1"/m)
    const above = renderJunit(withMinimum(0))
    expect(await xsdErrors(above)).toBe('')
    expect(above).toContain(
      '<testcase name="assessed at least 0% of the observable requirements (--min-assessed)" classname="ipts-conformance.coverage">\n    </testcase>',
    )
    expect(above).toMatch(/^<testsuites [^>]* failures="0"/m)
  })

  test('carries a failure per failed check, and a waived check as skipped with the waiver, never as passed', () => {
    const xml = renderJunit(provoked)
    const failed = provoked.checks.filter((c) => c.status === 'failed')
    expect(xml.match(/<failure /g)).toHaveLength(failed.length)
    const waivedCase = xml.split('<testcase ').find((c) => c.startsWith(`name="${waived}: `))!
    expect(waivedCase).toMatch(/<skipped message="waived: vendor ticket &lt;b&gt;42&lt;\/b&gt; &amp; &quot;soon&quot;/)
  })
})

describe('report.html', () => {
  test("draws recorded traffic's findings over the time of their samples, without the run's rounds", () => {
    const timed = provoked.checks.filter((c) => c.status === 'failed' && c.evidence?.sample)
    const traffic = { source: 'har' as const, exchanges: 9, judged: 9, outsideV1: 0, otherV1: 0, withoutResponse: 0 }
    // Recorded before the report was made, as a HAR's exchanges are: an hour after would squeeze them to its start.
    const later = new Date(Date.parse(provoked.startedAt) + 3_600_000).toISOString()
    const { resampling: _, ...recorded } = { ...provoked, startedAt: later, traffic: { ...traffic, withoutBody: 0 } }
    const html = renderHtml(recorded)
    const timeline = html.slice(
      html.indexOf('<section id="timeline">'),
      html.indexOf('</section>', html.indexOf('<section id="timeline">')),
    )
    expect(timeline).toContain('The recorded exchanges over ')
    expect(timeline).not.toContain('class="round')
    expect(timeline.match(/<circle class="finding/g)?.length).toBe(timed.length)
    const xs = [...timeline.matchAll(/<circle class="finding \w+" cx="([\d.]+)"/g)].map((match) => Number(match[1]))
    expect(new Set(xs).size, 'the marks spread over the samples, not all at the start').toBeGreaterThan(1)
  })

  test('shows each requirement with its level, inferred where it is, and the contract sentences it rests on', () => {
    const html = renderHtml(provoked)
    for (const r of provoked.requirements) {
      const start = html.indexOf(`<tr id="req-${r.id}"`)
      const row = html.slice(start, html.indexOf('</tr>', start))
      expect(row, r.id).toContain(`<td>${levelLabel(r)}</td>`)
      expect(row, r.id).toContain('<blockquote class="quote">')
    }
    expect(html).toContain('Missing or null means there is no next page.')
  })
})

describe('report.md', () => {
  test("states the share assessed, each operation's responses, and what would assess each requirement not assessed", () => {
    const markdown = renderMarkdown(plain)
    const { summary } = plain.coverage
    expect(markdown).toContain(
      `Coverage: assessed ${summary.assessed} of ${summary.observable} observable requirements (${summary.percent}%).`,
    )
    for (const op of plain.coverage.operations)
      expect(markdown).toMatch(new RegExp(`^\\| ${op.operation} \\| .* \\| ${op.judged} \\|$`, 'm'))
    // The reference's own profile states writes: only the opt-in is wanting.
    expect(markdown).toMatch(/^\| IDEM-DUPLICATE \| MUST \| .* \| `--allow-writes` \|$/m)
  })

  test('gives the verdict, counts by level and each failed check with its requirement and reason', () => {
    const markdown = renderMarkdown(provoked)
    expect(markdown).toContain('## IPTS conformance: FAIL')
    expect(markdown).toMatch(/\| MUST \| \d+ \| \d+ \| \d+ \| \d+ \|/)
    expect(markdown).toMatch(/\| SHOULD \| \d+ \| \d+ \| \d+ \| \d+ \|/)
    for (const check of provoked.checks.filter((c) => c.status === 'failed'))
      expect(markdown).toContain(`| \`${check.id}\` | ${check.requirement} | ${levelLabel(check)} |`)
  })

  test('names the observable requirements that no check covers', () => {
    const markdown = renderMarkdown(provoked)
    for (const r of provoked.requirements.filter((r) => r.status === 'uncovered'))
      expect(markdown).toContain(`\`${r.id}\``)
  })

  test('renders text from the target inert: no HTML, no broken table row', () => {
    const markdown = renderMarkdown(withHostileEvidence(provoked))
    expect(markdown).not.toContain('<script>')
    const rows = markdown.split('\n').filter((line) => line.startsWith('| `'))
    for (const row of rows) expect(row.split(/(?<!\\)\|/).length, row).toBe(6)
    expect(markdown).toContain('&lt;script&gt;window.\\_\\_pwned=3&lt;/script&gt;')
  })
})

describe('report.md of a report with every part', () => {
  let lines: string[]
  beforeAll(() => {
    lines = renderMarkdown(every).split('\n')
  })
  const checkWith = (has: (c: CheckOutcome) => unknown) => every.checks.find(has)!
  /** `count` lines from the one that is `first` on. */
  const from = (first: string, count: number) => {
    expect(lines, first).toContain(first)
    return lines.slice(lines.indexOf(first), lines.indexOf(first) + count)
  }

  test('the counts of the checks of each level by status, under a head naming each status', () => {
    const counts = (level: string) => checkCounts(every, level)
    expect(new Set(counts('MUST')).size, 'counts that tell the statuses apart').toBeGreaterThan(2)
    expect(from('| level | passed | failed | not run | skipped | waived |', 4)).toEqual([
      '| level | passed | failed | not run | skipped | waived |',
      '|---|---:|---:|---:|---:|---:|',
      `| MUST | ${counts('MUST').join(' | ')} |`,
      `| SHOULD | ${counts('SHOULD').join(' | ')} |`,
    ])
  })

  test('the verdict, the interruption in bold, and the target, tool, provenance, start, time and strictness; no re-reads', () => {
    expect(lines.slice(0, 5)).toEqual([
      '## IPTS conformance: FAIL',
      '',
      `**${interruptionLine(every)}**`,
      '',
      `${every.target.baseUrl} · ${every.tool.name} ${every.tool.version} · ${provenance(every)} · ${every.startedAt} · ${every.durationMs} ms · strict`,
    ])
    expect(lines).toContain(
      `The embedded reference server was gone when the run ended; the reproduction commands address it. \`${every.target.restart}\` serves one at the same address.`,
    )
  })

  test('an operation without a response, and what would assess a requirement: flags and profile keys', () => {
    const op = every.coverage.operations[0]!
    expect(lines).toContain(`| ${op.operation} | none | ${op.judged} |`)
    const wanting = every.coverage.requirements.find((r) => r.assessedWith?.profileKeys)!
    expect(lines).toContain(
      `| ${wanting.id} | ${wanting.level} | ${wanting.reason} | \`--trader\`, profile \`errorCodes\` |`,
    )
  })

  test('the profile and each requirement assessed against it, its value on one line', () => {
    const [first] = every.requirements
    expect(from('### Assessed against the deployment profile', 6)).toEqual([
      '### Assessed against the deployment profile',
      '',
      'Profile: deploy &lt;1&gt;.yaml.',
      '',
      '| requirement | status | profile value |',
      '|---|---|---|',
    ])
    expect(lines).toContain(
      `| ${first!.id} | ${first!.status} | assessed against the profile: pagination = {"maxPageSize":100} |`,
    )
  })

  test('a crashed check among the failed, the checks not run and the first reason, the property inputs summed', () => {
    const crashed = checkWith((c) => c.crashed)
    expect(from('### Failed checks', 5)).toEqual([
      '### Failed checks',
      '',
      '| check | requirement | level | reason |',
      '|---|---|---|---|',
      `| \`${crashed.id}\` | ${crashed.requirement} | ${levelLabel(crashed)} | TypeError: x is not a function |`,
    ])
    const notRun = every.checks.filter((c) => c.status === 'not run')
    expect(from('### Checks not run (2)', 5)).toEqual([
      '### Checks not run (2)',
      '',
      'interrupted by SIGTERM',
      '',
      notRun.map((c) => `\`${c.id}\``).join(', '),
    ])
    const properties = every.checks.filter((c) => c.inputs)
    const sum = (phase: 'coverage' | 'random') => properties.reduce((n, c) => n + c.inputs![phase], 0)
    expect(lines).toContain(
      `Generated inputs: ${sum('coverage')} in the fixed coverage phase, ${sum('random')} in the random phase (seed ${every.seed}), over ${properties.length} property checks.`,
    )
  })

  test("the recorded client's breaches, the lifecycle walked, step by step, and the writes sent", () => {
    const walked = checkWith((c) => c.lifecycle)
    const writer = checkWith((c) => c.writes)
    expect(from('### The recorded client broke a rule for clients (1)', 5)).toEqual([
      '### The recorded client broke a rule for clients (1)',
      '',
      "The client's fault, not the target's: the verdict does not count it.",
      '',
      '- AUTH-2: sent the key in the &lt;query&gt;',
    ])
    expect(from(`### Lifecycle walked by \`${walked.id}\` (${walked.status})`, 4)).toEqual([
      `### Lifecycle walked by \`${walked.id}\` (${walked.status})`,
      '',
      '1. +0.0 s REST **intake**: POST /v1/intents → 202',
      '2. +1.3 s realtime **channel opened**: wss://x/v1/intents/0x1/events → opened, receipt $IPTS\\_WRITE\\_RECEIPT\\_1',
    ])
    expect(from('### Writes sent (2, --allow-writes)', 6)).toEqual([
      '### Writes sent (2, --allow-writes)',
      '',
      '| check | operation | Idempotency-Key | status | attempts | status identifier | receipt | duplicate |',
      '|---|---|---|---|---|---|---|---|',
      `| \`${writer.id}\` | submitIntent (POST) | \`k\\|1\` | 202 | 2 | 0xab | $IPTS\\_WRITE\\_RECEIPT\\_1 | false |`,
      `| \`${writer.id}\` | cancelIntent (DELETE) | none | no response | 1 |  |  |  |`,
    ])
  })

  test('the waived, crashed and retried checks, the uncovered requirements, the run errors, then where the evidence is', () => {
    const waived = checkWith((c) => c.waiver)
    const uncovered = every.requirements.find((r) => r.status === 'uncovered')!
    expect(from('### Waived checks', 3)).toEqual([
      '### Waived checks',
      '',
      `- \`${waived.id}\` (failed): ticket \\*7\\*`,
    ])
    expect(lines).toContain(
      `Checks that crashed (a defect of the suite; their failure says nothing about the target): \`${checkWith((c) => c.crashed).id}\`.`,
    )
    const retried = checkWith((c) => c.retried)
    expect(lines).toContain(
      `Outcomes that depended on a retry (a 429 or a 5xx): \`${retried.id}\` (${retried.status}).`,
    )
    expect(lines).toContain(`Observable requirements no check covers yet: \`${uncovered.id}\`.`)
    expect(lines.slice(-7)).toEqual([
      '### Run errors',
      '',
      '- a suite file did not load: syntax &lt;error&gt;',
      '- an unhandled rejection',
      '',
      'Evidence and a reproduction command for each failure: `report.html` (open in a browser) and `report.json`.',
      '',
    ])
  })

  test('the crashed and retried checks and the uncovered requirements, two or more a line, each after a comma', () => {
    const report = structuredClone(every)
    const [crashed, retried] = [report.checks.filter((c) => c.crashed), report.checks.filter((c) => c.retried)]
    const others = report.checks.filter((c) => !c.crashed && !c.retried)
    Object.assign(others[0]!, { status: 'failed', crashed: true })
    Object.assign(others[1]!, { retried: true })
    const uncovered = report.requirements.filter((r) => r.status === 'uncovered')
    report.requirements.find((r) => r.status !== 'uncovered')!.status = 'uncovered'
    const twice = renderMarkdown(report).split('\n')
    const crashedNow = report.checks.filter((c) => c.crashed)
    expect(crashedNow).toHaveLength(crashed.length + 1)
    expect(twice).toContain(
      `Checks that crashed (a defect of the suite; their failure says nothing about the target): ${crashedNow.map((c) => `\`${c.id}\``).join(', ')}.`,
    )
    const retriedNow = report.checks.filter((c) => c.retried)
    expect(retriedNow).toHaveLength(retried.length + 1)
    expect(twice).toContain(
      `Outcomes that depended on a retry (a 429 or a 5xx): ${retriedNow.map((c) => `\`${c.id}\` (${c.status})`).join(', ')}.`,
    )
    const uncoveredNow = report.requirements.filter((r) => r.status === 'uncovered')
    expect(uncoveredNow).toHaveLength(uncovered.length + 1)
    expect(twice).toContain(
      `Observable requirements no check covers yet: ${uncoveredNow.map((r) => `\`${r.id}\``).join(', ')}.`,
    )
  })

  test('the comparison with a baseline, its heading escaped, each sum an item, before the run errors', () => {
    const comparison = compareWithBaseline(provoked, 'base_1.json', every)
    const [heading, ...rest] = comparisonLines(comparison)
    const compared = renderMarkdown(every, comparison).split('\n')
    const at = compared.indexOf('### Compared with the baseline')
    expect(compared[at - 1]).toBe('')
    expect(compared.slice(at, at + 4 + rest.length)).toEqual([
      '### Compared with the baseline',
      '',
      heading!.replace('base_1', 'base\\_1'),
      '',
      ...rest.map((line) => `- ${line.replace(/_/g, '\\_')}`),
    ])
    expect(compared[at + 4 + rest.length]).toBe('')
    expect(compared[at + 5 + rest.length]).toBe('### Run errors')
  })

  test('a passing run: PASS, its last sweep, then the target, tool, provenance, start and time, not strict', () => {
    expect(renderMarkdown(plain).split('\n').slice(0, 6)).toEqual([
      '## IPTS conformance: PASS',
      '',
      resamplingLine(plain.resampling!),
      '',
      `${plain.target.baseUrl} · ${plain.tool.name} ${plain.tool.version} · seed ${plain.seed} · ${plain.startedAt} · ${plain.durationMs} ms`,
      '',
    ])
  })

  test('without a restart command and with every observable requirement assessed: no line of either', () => {
    const lean = renderMarkdown({
      ...plain,
      target: { ...plain.target, restart: undefined },
      coverage: { ...plain.coverage, requirements: plain.coverage.requirements.map((r) => ({ ...r, assessed: true })) },
    }).split('\n')
    const coverage = lean.findIndex((line) => line.startsWith('Coverage: '))
    expect(lean.slice(coverage + 1, coverage + 3)).toEqual(['', '### Coverage'])
    const table = lean.indexOf('| operation | responses by status | judged |')
    const rows = plain.coverage.operations.length
    expect(lean.slice(table + 2 + rows, table + 4 + rows)).toEqual(['', 'Every observable requirement was assessed.'])
  })

  test('a passing run without a profile, a restart, failures, inputs or traffic: its counts, then Coverage, and no more sections', () => {
    const bare: Report = {
      ...plain,
      profile: undefined,
      target: { ...plain.target, restart: undefined },
      checks: plain.checks.filter((c) => c.status === 'passed').map(({ inputs: _, retried: __, ...c }) => c),
      requirements: plain.requirements.filter((r) => r.status !== 'uncovered'),
    }
    const text = renderMarkdown(bare).split('\n')
    const counts = (level: string) => checkCounts(bare, level).join(' | ')
    const requirements = REQUIREMENT_STATUSES.map(
      (status) => `${bare.requirements.filter((r) => r.status === status).length} ${status}`,
    )
    expect(text.slice(6, 18)).toEqual([
      '| level | passed | failed | not run | skipped | waived |',
      '|---|---:|---:|---:|---:|---:|',
      `| MUST | ${counts('MUST')} |`,
      `| SHOULD | ${counts('SHOULD')} |`,
      '',
      `Requirements: ${requirements.join(', ')}.`,
      '',
      `Coverage: ${assessedLine(bare.coverage.summary)}.`,
      '',
      '### Coverage',
      '',
      '| operation | responses by status | judged |',
    ])
    expect(text.filter((line) => line.startsWith('#'))).toEqual(['## IPTS conformance: PASS', '### Coverage'])
    const paragraphs = [
      'Generated inputs:',
      'Checks that crashed',
      'Outcomes that depended',
      'Observable requirements no check',
    ]
    for (const start of paragraphs)
      expect(
        text.some((line) => line.startsWith(start)),
        start,
      ).toBe(false)
  })

  test('each heading, the restart command and the sum of inputs stand apart, a blank line before and after', () => {
    const apart = (at: number) => [lines[at - 1], lines[at + 1]]
    const headings = lines.flatMap((line, at) => (line.startsWith('#') && at > 0 ? [at] : []))
    expect(headings.length).toBeGreaterThan(8)
    for (const at of headings) expect(apart(at), lines[at]).toEqual(['', ''])
    for (const start of [
      'The embedded reference server was gone',
      'Generated inputs: ',
      'Checks that crashed',
      'Outcomes that depended on a retry',
      'Observable requirements no check covers yet',
    ]) {
      const at = lines.findIndex((line) => line.startsWith(start))
      expect(at, start).toBeGreaterThan(0)
      expect(lines[at - 1], start).toBe('')
    }
  })

  test('the sections in their order', () => {
    const headings = lines.filter((line) => line.startsWith('#'))
    expect(headings.map((h) => h.replace(/ \(.*$| by .*$/, ''))).toEqual([
      '## IPTS conformance: FAIL',
      '### Coverage',
      '### Assessed against the deployment profile',
      '### Failed checks',
      '### Checks not run',
      '### The recorded client broke a rule for clients',
      '### Lifecycle walked',
      '### Writes sent',
      '### Waived checks',
      '### Run errors',
    ])
  })
})

describe('report.html of a report with every part', () => {
  let html: string
  let comparison: ReturnType<typeof compareWithBaseline>
  beforeAll(() => {
    comparison = compareWithBaseline(provoked, 'base <1>.json', every)
    html = renderHtml(every, comparison)
  })
  const sectionOf = (id: string) => {
    const start = html.indexOf(`<section id="${id}">`)
    expect(start, id).toBeGreaterThan(-1)
    return html.slice(start, html.indexOf('</section>', start) + '</section>'.length)
  }

  test('the contents link to the baseline, the run errors, the lifecycle and the writes, in the order of the page', () => {
    const toc = html.slice(html.indexOf('<nav id="toc">'), html.indexOf('</nav>'))
    const labels = [...toc.matchAll(/<a href="#([a-z-]+)">([^<]*)<\/a>/g)].map(([, id, label]) => `${id}: ${label}`)
    expect(labels).toEqual([
      'verdict: Verdict: FAIL',
      `skipped: Skipped (${every.checks.filter((c) => c.status === 'skipped').length})`,
      'baseline: Compared with the baseline',
      'run-errors: Run errors (2)',
      'failures: Failures (1)',
      'lifecycle: Lifecycle',
      'writes: Writes sent',
      `coverage: Coverage (${every.coverage.summary.percent}% assessed)`,
      'traceability: Traceability',
      `checks: Every check (${every.checks.length})`,
    ])
  })

  test('the header: the interruption, the recorded traffic, strictness, the restart command and the profile', () => {
    const header = html.slice(html.indexOf('<header>'), html.indexOf('</header>'))
    expect(header).toContain(
      `<p id="interrupted" class="interrupted"><b>${escapeHtml(interruptionLine(every)!)}</b></p>\n<p class="meta">`,
    )
    expect(header).toContain(`${escapeHtml(provenance(every))} · strict</p>`)
    expect(header).toContain('The run fails (strict: SHOULD failures count); ')
    expect(header).toContain(
      `<p class="restart">The embedded reference server was gone when the run ended; the reproduction commands address it. <code>${every.target.restart}</code> serves one at the same address`,
    )
    expect(header).toContain(
      `<p class="profile">Deployment profile: deploy &lt;1&gt;.yaml; ${every.requirements.filter((r) => r.profile).length} requirements assessed against it.</p>`,
    )
  })

  test('the baseline compared, the run errors, and a crashed check without evidence', () => {
    const [heading, ...rest] = comparisonLines(comparison)
    expect(sectionOf('baseline')).toBe(
      `<section id="baseline"><h2>Compared with the baseline</h2><p>${escapeHtml(heading!)}</p><ul>${rest.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul></section>`,
    )
    expect(sectionOf('run-errors')).toBe(
      '<section id="run-errors"><h2>Run errors</h2><ul><li><pre>a suite file did not load:\nsyntax &lt;error&gt;</pre></li><li><pre>an unhandled rejection</pre></li></ul></section>',
    )
    const crashed = every.checks.find((c) => c.crashed)!
    expect(sectionOf('failures')).toContain(
      `${levelLabel(crashed)} · <strong>the check crashed</strong>: a defect of the suite, not a finding about the target</p>\n<p class="message">TypeError: x is\nnot a function</p>\n</article>`,
    )
  })

  test("a failure's evidence, every member: a response cut at the cap, a transport error, retries, a replay, the profile, the variables its command wants, the others", () => {
    const failed = every.checks.find((c) => c.status === 'failed')!
    const page = renderHtml({
      ...every,
      checks: every.checks.map((c) =>
        c === failed ? { ...c, crashed: false, evidence: EVIDENCE_WITH_EVERY_MEMBER } : c,
      ),
    })
    const article = page.slice(page.indexOf(`<article class="failure" id="check-`), page.indexOf('</article>'))
    for (const part of [
      '<p class="message">the body breaks the schema</p>\n<p class="sample">first seen in round 2 ',
      '<h4>Request</h4><pre class="request">GET https://x.example/v1/markets\naccept: application/json</pre>',
      '<h4>Response: status <span class="http-status">200</span>, 10 bytes (cut at the size cap)</h4>',
      '<pre class="headers">content-type: application/json\nset-cookie: a=1\nset-cookie: b=2</pre>',
      '<p class="note">Pretty-printed; the value at each violation\'s JSON pointer is marked.</p><pre class="body json">',
      '<h4>Transport error</h4><pre>ECONNRESET: socket hang up</pre>',
      '<p>Retried: status 503 after 250 ms, status 429 after 1000 ms</p>',
      '<h4>Schema violations</h4><table class="violations"><thead><tr><th>schema</th><th>keyword</th><th>JSON pointer</th><th>schema path</th><th>message</th></tr></thead><tbody><tr><td>Market</td><td><code>type</code></td><td><code>/data</code></td><td><code>#/type</code></td><td>must be array</td></tr><tr><td>Market</td>',
      '<h4>Counterexample</h4><p>seed 7, path <code>3:1</code>, after 4 runs</p><pre>{\n  &quot;limit&quot;: 0\n}</pre>',
      '<h4>Replay</h4><div class="command"><pre class="reproduce">npx ipts-conformance --replay 3:1</pre>',
      '<h4>Deployment profile</h4><p class="profile">assessed against the profile: errorCodes = [&quot;a&quot;] (deploy.yaml)</p>',
      '<h4>Reproduce</h4><p class="note">Set IPTS_API_KEY and IPTS_WRITE_RECEIPT_1 in your shell first.</p>',
      '<details><summary>2 more response(s) broke the same rule</summary><ul><li>again <code>GET https://x.example/v1/vault</code></li><li>and again</li></ul></details>',
    ])
      expect(article).toContain(part)
    expect(article).toContain('<tr><td>Market</td><td><code>required</code></td><td><code>(root)</code></td>')
    const plainBody = renderHtml({
      ...every,
      checks: every.checks.map((c) =>
        c === failed
          ? {
              ...c,
              crashed: false,
              evidence: {
                ...EVIDENCE_WITH_EVERY_MEMBER,
                response: { ...EVIDENCE_WITH_EVERY_MEMBER.response!, truncated: false },
                schemaViolations: undefined,
                counterexample: { seed: 1, path: '0', value: 0, runs: 1 },
                reproduce: 'curl "https://x.example"',
              },
            }
          : c,
      ),
    })
    expect(plainBody, 'no note without a marked value').toContain(', 10 bytes</h4>\n<pre class="headers">')
    expect(plainBody, 'no replay without its command').toContain(
      'after 1 runs</p><pre>0</pre>\n<h4>Deployment profile</h4>',
    )
    expect(plainBody).toContain('</pre>\n<pre class="body json">{')
    expect(plainBody, 'no note for a command without variables').toContain(
      '<h4>Reproduce</h4><div class="command"><pre class="reproduce">curl &quot;https://x.example&quot;</pre>',
    )
  })

  test('the variables a real reproduction command wants, each once', () => {
    const failure = provoked.checks.find(
      (c) => c.status === 'failed' && c.evidence?.reproduce?.includes('${IPTS_API_KEY}'),
    )!
    const page = renderHtml({ ...provoked, checks: [failure] })
    expect(page).toContain('<h4>Reproduce</h4><p class="note">Set IPTS_API_KEY in your shell first.</p>')
  })

  test('the writes sent, a cell empty where a write has no such member', () => {
    const writer = every.checks.find((c) => c.writes)!
    const code = (text: string | number | boolean) => `<td><code>${text}</code></td>`
    expect(sectionOf('writes')).toBe(
      '<section id="writes"><h2>Writes sent (2)</h2><table><thead><tr><th>check</th><th>operation</th><th>Idempotency-Key</th><th>status</th><th>attempts</th><th>status identifier</th><th>receipt</th><th>duplicate</th></tr></thead><tbody>' +
        `<tr>${[writer.id, 'submitIntent (POST)', 'k|1', 202, 2, '0xab', '$IPTS_WRITE_RECEIPT_1', false].map(code).join('')}</tr>\n` +
        `<tr>${[writer.id, 'cancelIntent (DELETE)', 'none', 'no response', 1].map(code).join('')}<td></td><td></td><td></td></tr>` +
        '</tbody></table></section>',
    )
  })

  test("traceability: each requirement's row, its sentences, its checks each with its own outcome, its profile and reason", () => {
    const matrix = sectionOf('traceability')
    expect(matrix).toContain('<table class="matrix"><colgroup><col style="width:16%">')
    const rowOf = (id: string) => {
      const start = matrix.indexOf(`<tr id="req-${id}"`)
      expect(start, id).toBeGreaterThan(-1)
      return matrix.slice(start, matrix.indexOf('</tr>', start) + '</tr>'.length)
    }
    const statusOf = new Map(every.checks.map((c) => [c.id, c.status]))
    for (const r of every.requirements) {
      const row = rowOf(r.id)
      expect(row).toContain(
        `<blockquote class="quote">${r.quote.map((sentence) => `<p>${escapeHtml(sentence)}</p>`).join('')}</blockquote>`,
      )
      const checks = r.checks.map(
        (id) =>
          `<li><a href="#${checkAnchor(id)}"><code>${id}</code></a> ${badgeHtml(statusOf.get(id) ?? 'not run')}</li>`,
      )
      expect(row).toContain(
        `<td>${checks.length > 0 ? `<ul>${checks.join('')}</ul>` : '—'}</td><td>${badgeHtml(r.status)}`,
      )
      const profile = r.profile ? `<div class="profile">${escapeHtml(profileLine(r.profile, 120))}</div>` : ''
      const reason = r.reason ? `<div class="reason">${escapeHtml(r.reason)}</div>` : ''
      expect(row.endsWith(`${badgeHtml(r.status)}${profile}${reason}</td></tr>`), `${r.id}: its outcome cell`).toBe(
        true,
      )
    }
    const rows = every.requirements.map((r) => rowOf(r.id))
    expect(matrix).toContain(`<tbody>${rows.join('\n')}</tbody>`)
    expect(
      every.requirements.some((r) => r.quote.length > 1),
      'a requirement resting on more than one sentence',
    ).toBe(true)
    expect(new Set(every.requirements.flatMap((r) => r.checks.map((id) => statusOf.get(id)))).size).toBeGreaterThan(2)
    expect(every.requirements.some((r) => r.checks.length === 0)).toBe(true)
    expect(every.requirements.some((r) => !r.profile && !r.reason)).toBe(true)
    expect(every.requirements.some((r) => r.profile)).toBe(true)
  })

  test("every check's row: its anchor unless its failure has one, its requirement, level and status, its reason, a waiver's, a retry and its inputs", () => {
    const table = sectionOf('checks')
    expect(table).toContain(
      `<h2>Every check (${every.checks.length})</h2><table class="checks"><colgroup><col style="width:22%">`,
    )
    const rows = every.checks.map((c) => {
      const start = table.indexOf(`<td><code>${c.id}</code></td>`)
      expect(start, c.id).toBeGreaterThan(-1)
      const row = table.slice(table.lastIndexOf('<tr', start), table.indexOf('</tr>', start) + '</tr>'.length)
      expect(row.startsWith(c.status === 'failed' ? '<tr><td>' : `<tr id="${checkAnchor(c.id)}"><td>`), c.id).toBe(true)
      expect(row).toContain(
        `<td>${escapeHtml(c.title)}</td><td><a href="#req-${c.requirement}">${c.requirement}</a></td><td>${levelLabel(c)}</td><td>${badgeHtml(c.status)}</td>`,
      )
      const reason = c.status === 'waived' ? `waived (${c.waiver!.outcome}): ${c.waiver!.reason}` : c.reason
      expect(row).toContain(
        `<td>${c.retried ? '<em>after a retry:</em> ' : ''}${escapeHtml(oneLine(reason, 300))}${c.inputs ? `<div class="inputs">${c.inputs.coverage} coverage and ${c.inputs.random} random inputs</div>` : ''}</td></tr>`,
      )
      return row
    })
    expect(table).toContain(rows.join('\n'))
    for (const [what, has] of [
      ['failed', (c: CheckOutcome) => c.status === 'failed'],
      ['waived', (c: CheckOutcome) => c.status === 'waived'],
      ['retried', (c: CheckOutcome) => c.retried === true],
      ['with inputs', (c: CheckOutcome) => c.inputs !== undefined],
      ['without inputs', (c: CheckOutcome) => c.inputs === undefined && c.status !== 'failed'],
    ] as const)
      expect(every.checks.some(has), `a check ${what}`).toBe(true)
  })

  test('the header counts the checks of each level by status, each count its own', () => {
    const header = html.slice(html.indexOf('<header>'), html.indexOf('</header>'))
    for (const level of ['MUST', 'SHOULD'] as const) {
      const counts = checkCounts(every, level)
      expect(new Set(counts).size, `${level}: counts that tell the statuses apart`).toBeGreaterThan(2)
      expect(header).toContain(`<tr><th>${level}</th>${counts.map((n) => `<td>${n}</td>`).join('')}</tr>`)
    }
    const requirements = REQUIREMENT_STATUSES.map(
      (status) => `${badgeHtml(status)} ${every.requirements.filter((r) => r.status === status).length}`,
    )
    expect(header).toContain(`<p>Requirements: ${requirements.join(' ')}</p>`)
  })

  test("coverage: each operation's responses by status, each with its count", () => {
    const coverage = sectionOf('coverage')
    const answered = every.coverage.operations.filter((op) => Object.keys(op.statuses).length > 1)
    expect(answered.length, 'operations answered with more than one status').toBeGreaterThan(0)
    for (const op of answered) {
      const statuses = Object.entries(op.statuses).map(([status, n]) => `<span class="seen">${status} ×${n}</span>`)
      expect(coverage).toContain(
        `<tr><td><code>${op.operation}</code></td><td>${statuses.join(' ')}</td><td>${op.judged}</td></tr>`,
      )
    }
    expect(coverage).toContain(`<table class="unassessed"><colgroup><col style="width:22%">`)
  })

  test('coverage: what would assess each requirement not assessed, whether flags, profile keys, both or neither', () => {
    const coverage = sectionOf('coverage')
    const unassessed = every.coverage.requirements.filter((r) => r.observable && !r.assessed)
    const wanted = ({ assessedWith }: (typeof unassessed)[number]) =>
      [
        ...(assessedWith?.inputs ?? []).map((flag) => `<code>${flag}</code>`),
        ...(assessedWith?.profileKeys ?? []).map((key) => `profile <code>${key}</code>`),
      ].join(', ')
    const kinds = new Set(
      unassessed.map(({ assessedWith }) => `${!!assessedWith?.inputs} ${!!assessedWith?.profileKeys}`),
    )
    expect([...kinds].sort(), 'requirements wanting flags alone, profile keys alone, both and neither').toEqual([
      'false false',
      'false true',
      'true false',
      'true true',
    ])
    for (const r of unassessed) expect(coverage).toContain(`<td>${escapeHtml(r.reason)}</td><td>${wanted(r)}</td></tr>`)
    expect(coverage.match(/<\/td><\/tr>\n<tr><td><a href="#req-/g)).toHaveLength(unassessed.length - 1)
  })

  test('coverage: an operation without a response, and what would assess a requirement, flags and profile keys', () => {
    const coverage = sectionOf('coverage')
    expect(coverage).toContain(
      `<tr><td><code>${every.coverage.operations[0]!.operation}</code></td><td><span class="reason">no response</span></td><td>${every.coverage.operations[0]!.judged}</td></tr>`,
    )
    const wanting = every.coverage.requirements.find((r) => r.assessedWith?.profileKeys)!
    expect(coverage).toContain(
      `<td><a href="#req-${wanting.id}"><code>${wanting.id}</code></a></td><td>${wanting.level}</td><td>${escapeHtml(wanting.reason)}</td><td><code>--trader</code>, profile <code>errorCodes</code></td></tr>`,
    )
  })

  test('the requirement assessed against the profile shows its value, a check cited but not in the run is not run', () => {
    const [first] = every.requirements
    const matrix = sectionOf('traceability')
    expect(matrix).toContain(
      `<div class="profile">assessed against the profile: pagination = {&quot;maxPageSize&quot;:100}</div>`,
    )
    const cited = { ...first!, checks: ['no-such/check'] }
    const lone = renderHtml({ ...every, requirements: [cited] })
    expect(lone).toContain(
      '<li><a href="#check-no-such-check"><code>no-such/check</code></a> <span class="status s-not-run">not run</span></li>',
    )
  })

  test("styles every status and verdict it shows, and the marks of its drawings; a class is one word, a status's spaces dashed", () => {
    const pages = [html, renderHtml(provoked)]
    const style = html.slice(html.indexOf('<style>'), html.indexOf('</style>'))
    const classes = new Set(pages.flatMap((page) => [...page.matchAll(/class="([^"]+)"/g)].map(([, names]) => names!)))
    expect(
      [...classes].filter((names) => /(^| )r-not( |$)/.test(names)),
      'no class "r-not run"',
    ).toEqual([])
    expect(classes).toContain('r-not-run')
    const tokens = new Set([...classes].flatMap((names) => names.split(' ')))
    const drawn = [
      'verdict',
      'status',
      'failure',
      'tick',
      'axis',
      'label',
      'round',
      'violated',
      'finding',
      'must',
      'should',
    ]
    const styled = [...tokens].filter((token) => /^[sv]-/.test(token) || drawn.includes(token) || token === 'step')
    expect(styled.length).toBeGreaterThan(drawn.length)
    for (const token of styled) expect(style, `.${token}`).toMatch(new RegExp(`\\.${token}(?![\\w-])`))
  })

  test('a passing run: PASS in the title, the contents and the verdict, no interruption, no failure, a failure without a crash', () => {
    const page = renderHtml(plain)
    expect(page).toContain('<title>IPTS conformance: PASS</title>')
    expect(page).toContain('<li><a href="#verdict">Verdict: PASS</a></li>')
    expect(page).toContain('<li><a href="#timeline">Timeline</a></li>')
    expect(page).toContain(
      '<h1>IPTS conformance <span id="verdict" class="verdict v-pass">PASS</span></h1>\n<p class="meta">Target ',
    )
    expect(page).toContain(' failures. No MUST check failed; ')
    expect(page).toContain(` · seed ${plain.seed} · ${plain.runs} runs per property</p>`)
    expect(page).toContain('<section id="failures"><h2>Failures (0)</h2>\n<p>No check failed.</p>\n</section>')
    const failed = provoked.checks.find((c) => c.status === 'failed' && !c.crashed)!
    const failing = renderHtml(provoked)
    expect(failing).toContain('<title>IPTS conformance: FAIL</title>')
    expect(failing, 'one failure a block').toContain('</article>\n<article class="failure"')
    expect(failing).toContain(
      `<p class="meta">Requirement <a href="#req-${failed.requirement}">${failed.requirement}</a> · ${levelLabel(failed)}</p>`,
    )
  })

  test('an assessed share below --min-assessed is marked', () => {
    const below = { ...plain, coverage: { ...plain.coverage, summary: { ...plain.coverage.summary, minimum: 100 } } }
    expect(renderHtml(below)).toContain('<p class="assessed below">')
    expect(renderHtml(plain)).toContain('<p class="assessed">')
  })

  test('no list of skips, nor sections of what the report does not hold; no profile and every requirement assessed said so', () => {
    const bare: Report = {
      ...plain,
      profile: undefined,
      target: { ...plain.target, restart: undefined },
      checks: plain.checks.filter((c) => c.status !== 'skipped'),
      coverage: { ...plain.coverage, requirements: plain.coverage.requirements.map((r) => ({ ...r, assessed: true })) },
    }
    const page = renderHtml(bare)
    expect(page).toMatch(/<p>Requirements: [^\n]*<\/p>\n\n\n<p class="profile">No deployment profile/)
    expect(page).not.toContain('href="#skipped"')
    for (const id of ['baseline', 'run-errors', 'writes', 'interrupted']) expect(page).not.toContain(`id="${id}"`)
    expect(page).toContain('<p>Every observable requirement was assessed.</p>')
    expect(page).toContain('No MUST check failed;')
    expect(page).toContain('<p class="profile">No deployment profile (--profile): ')
  })
})

/**
 * What CI reads of junit.xml before its cases: each suite's counts of tests, failures, errors and skips are those of
 * its test cases, its time theirs summed, and the whole's counts the sums of its suites'.
 */
function expectCountsOfTheCases(xml: string): void {
  const attributes = (tag: string) =>
    Object.fromEntries([...tag.matchAll(/ (\w+)="([^"]*)"/g)].map((match) => [match[1]!, match[2]!]))
  const totals = { tests: 0, failures: 0, errors: 0 }
  const suites = xml.split('<testsuite ').slice(1)
  for (const block of suites.map((suite) => suite.slice(0, suite.indexOf('</testsuite>')))) {
    const suite = attributes(` ${block.slice(0, block.indexOf('>'))}`)
    const cases = block.split('<testcase ').slice(1)
    const withElement = (name: string) => cases.filter((c) => c.includes(`<${name} `)).length
    const counts = { tests: cases.length, failures: withElement('failure'), errors: withElement('error') }
    expect(
      { tests: Number(suite.tests), failures: Number(suite.failures), errors: Number(suite.errors) },
      suite.name,
    ).toEqual(counts)
    if (suite.skipped !== undefined) expect(Number(suite.skipped), suite.name).toBe(withElement('skipped'))
    if (suite.time !== undefined) {
      const time = cases.reduce((sum, c) => sum + Number(attributes(` ${c.slice(0, c.indexOf('>'))}`).time ?? 0), 0)
      expect(Number(suite.time), suite.name).toBeCloseTo(time, 1)
    }
    for (const key of ['tests', 'failures', 'errors'] as const) totals[key] += counts[key]
  }
  const whole = attributes(xml.slice(xml.indexOf('<testsuites '), xml.indexOf('>', xml.indexOf('<testsuites '))))
  expect({ tests: Number(whole.tests), failures: Number(whole.failures), errors: Number(whole.errors) }).toEqual(totals)
}

describe('junit.xml of a report with every part', () => {
  let xml: string
  beforeAll(() => {
    xml = renderJunit(every)
  })

  test("each case: its name, class and time; a pass closed at once, a waiver's reason and outcome, a failure's evidence line by line", () => {
    for (const check of every.checks) {
      const testcase = testcaseOf(check)
      expect(testcase).toMatch(
        new RegExp(
          `^name="${escapeXml(`${check.id}: ${check.title}`).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" classname="ipts-conformance\\.${check.concern}" time="[\\d.]+"`,
        ),
      )
      if (check.status === 'passed') expect(testcase).toMatch(/" time="[\d.]+"\/>\n/)
      if (check.status === 'waived')
        expect(testcase).toContain(
          `<skipped message="${escapeXml(`waived: ${oneLine(check.waiver!.reason, 1000)} (the check ${check.waiver!.outcome})`)}"/>`,
        )
    }
    const failed = provoked.checks.find((c) => c.status === 'failed' && c.evidence)!
    const lines = evidenceLines(failed.evidence!, failed.samples)
    expect(lines.length).toBeGreaterThan(1)
    expect(renderJunit(provoked)).toContain(`">${escapeXml(lines.join('\n'))}</failure>`)
    const suites = xml.split('<testsuite ').slice(1, -2)
    expect(suites.length).toBeGreaterThan(1)
    for (const suite of suites) {
      expect(suite).toMatch(new RegExp(` timestamp="${every.startedAt.slice(0, -1)}">\\n`))
      expect(suite).toContain(`<property name="target" value="${escapeXml(every.target.baseUrl)}"/>`)
    }
  })

  test("each suite's counts and time are its cases', the whole's the sums, with every kind of case and a minimum missed", () => {
    const missed = {
      ...provoked,
      coverage: { ...provoked.coverage, summary: { ...provoked.coverage.summary, minimum: 100 } },
    }
    const rendered = [xml, renderJunit(plain), renderJunit(missed)]
    for (const text of rendered) expectCountsOfTheCases(text)
    for (const element of ['<failure ', '<error ', '<skipped ', 'type="min-assessed"', 'type="not run"', 'name="run"'])
      expect(rendered.join(''), element).toContain(element)
    expect(every.checks.some((c) => c.status === 'not run' && c.interrupted)).toBe(true)
    expect(every.checks.some((c) => c.status === 'failed' && c.crashed)).toBe(true)
    const inSeconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(3)
    for (const check of every.checks)
      expect(testcaseOf(check)).toMatch(new RegExp(`time="${inSeconds(check.durationMs)}"`))
    expect(xml).toMatch(new RegExp(`<testsuites [^>]* time="${inSeconds(every.durationMs)}">`))
  })
  const testcaseOf = (check: CheckOutcome) => xml.split('<testcase ').find((c) => c.startsWith(`name="${check.id}: `))!

  test('stays valid, with the interruption and the recorded traffic as properties of each suite', async () => {
    expect(await xsdErrors(xml)).toBe('')
    const suites = xml.split('<testsuite ').length - 1
    expect(xml.split(`<property name="interrupted" value="${interruptionLine(every)}"/>`)).toHaveLength(suites - 1)
    expect(xml).toContain(`<property name="traffic" value="${provenance(every)}"/>`)
    expect(xml).not.toContain('<property name="seed"')
  })

  test('a check cut off is skipped, one the target left unanswered is an error, a waived one skipped with its waiver', () => {
    const [cut, unreached] = every.checks.filter((c) => c.status === 'not run')
    expect(testcaseOf(cut!)).toContain('<skipped message="not run: interrupted by SIGTERM"/>')
    expect(testcaseOf(unreached!)).toContain('<error message="not run: the target stopped answering" type="not run"/>')
    expect(testcaseOf(every.checks.find((c) => c.waiver)!)).toContain(
      '<skipped message="waived: ticket *7* (the check failed)"/>',
    )
  })

  test('a crashed check without evidence is an error carrying its reason', () => {
    const crashed = every.checks.find((c) => c.crashed)!
    expect(testcaseOf(crashed)).toContain(
      `<error message="TypeError: x is not a function" type="${crashed.id} [${crashed.requirement}, ${levelLabel(crashed)}]">TypeError: x is\nnot a function</error>`,
    )
  })

  test("a run's seed and --min-assessed as properties", () => {
    expect(renderJunit(plain)).toContain(`<property name="seed" value="${plain.seed}"/>`)
    const withMinimum = {
      ...plain,
      coverage: { ...plain.coverage, summary: { ...plain.coverage.summary, minimum: 90 } },
    }
    expect(renderJunit(withMinimum)).toContain('<property name="min-assessed" value="90"/>')
    expect(renderJunit(plain)).not.toContain('min-assessed')
  })

  test('a skip and a failure without a reason say which they are; a coverage with nothing wanting has no system-out', async () => {
    const [skipped, failed] = plain.checks
    const bare: Report = {
      ...plain,
      checks: [
        { ...skipped!, status: 'skipped', reason: '' },
        { ...failed!, status: 'failed', reason: undefined, evidence: undefined },
      ],
      coverage: { ...plain.coverage, requirements: [] },
    }
    const xml = renderJunit(bare)
    expect(xml).toContain('<skipped message="skipped"/>')
    expect(xml).toContain(
      `<failure message="" type="${failed!.id} [${failed!.requirement}, ${levelLabel(failed!)}]">failed</failure>`,
    )
    const coverage = xml.slice(xml.indexOf('<testsuite name="coverage"'))
    expect(coverage.slice(0, coverage.indexOf('</testsuite>'))).not.toContain('<system-out>')
    expect(await xsdErrors(xml)).toBe('')
  })

  test('each run error a test case of the suite "run", its first line the message, all of it the text', () => {
    expect(xml).toContain(
      [
        '  <testsuite name="run" tests="2" failures="0" errors="2">',
        '    <testcase name="run error 1" classname="run">',
        '      <error message="a suite file did not load: syntax &lt;error&gt;">a suite file did not load:',
        'syntax &lt;error&gt;</error>',
        '    </testcase>',
        '    <testcase name="run error 2" classname="run">',
        '      <error message="an unhandled rejection">an unhandled rejection</error>',
        '    </testcase>',
        '  </testsuite>',
      ].join('\n'),
    )
  })
})

describe("the console's closing lines", () => {
  const painted = (colour: string, text: string) => `<${colour}>${text}</${colour}>`

  test('the verdict painted, the counts of each kind, what the checks are, the target, the time, the seed and the share assessed', () => {
    const { summary, target, durationMs, seed, checks } = plain
    const rules = checks.filter((c) => c.concern === 'every-response').length
    const relations = checks.filter((c) => c.concern === 'relations').length
    const [sweep, first, remedies, ...rest] = summaryLines(
      plain,
      ['/r/report.json', '/r/report.md'],
      undefined,
      painted,
    )
    expect(sweep, 'the last sweep first').toBe(resamplingLine(plain.resampling!))
    expect(first).toBe(
      `<green>PASS</green>: ${summary.passed} passed, 0 failed, ${summary.skipped} skipped, 0 waived (0 MUST and 0 SHOULD failures) of ${checks.length - rules - relations} checks and ${rules} every-response rules, ${relations} relations between responses against ${target.baseUrl} in ${durationMs} ms, seed ${seed}; assessed ${plain.coverage.summary.assessed} of ${plain.coverage.summary.observable} observable requirements (${plain.coverage.summary.percent}%)`,
    )
    expect(remedies).toBe(`  ${remediesLine(plain.coverage)}`)
    expect(rest).toEqual(['report: /r/report.json', 'report: /r/report.md'])
    expect(summaryLines(plain, [])[1], 'no colour unless painted').toMatch(/^PASS: /)
  })

  test('a failing run: FAIL in red, each failed check with its requirement and level and reason on one line, a crash as such', () => {
    const { report: failing } = withOneCrash(provoked)
    const lines = summaryLines(failing, [], undefined, painted)
    expect(lines[1]).toMatch(/^<red>FAIL<\/red>: \d+ passed, [1-9]\d* failed, /)
    const failed = failing.checks.filter((c) => c.status === 'failed')
    expect(failed.length, 'the provoked run fails more checks than are listed').toBeGreaterThan(20)
    const listed = lines.filter((line) => /^ {2}(failed|crashed) /.test(line))
    expect(listed).toHaveLength(20)
    expect(listed[0]).toBe(
      `  crashed ${failed[0]!.id} [${failed[0]!.requirement}, ${levelLabel(failed[0]!)}]: ${failed[0]!.reason!.split('\n')[0]}`,
    )
    expect(listed[1]).toMatch(new RegExp(`^  failed ${failed[1]!.id} \\[`))
    expect(lines).toContain(`  … and ${failed.length - 20} more failures (see the report)`)
  })

  test('twenty failures are listed whole, with no line of more', () => {
    let kept = 0
    const twenty = {
      ...provoked,
      checks: provoked.checks.filter((c) => c.status !== 'failed' || kept++ < 20),
    }
    const lines = summaryLines(twenty, [])
    expect(lines.filter((line) => /^ {2}failed /.test(line))).toHaveLength(20)
    expect(lines.join('\n')).not.toContain('more failures')
  })

  test('a run without re-reads, relations or anything left to assess: the counts of checks and rules alone, no more lines', () => {
    const lean: Report = {
      ...plain,
      resampling: undefined,
      checks: plain.checks.filter((c) => c.concern !== 'relations'),
      coverage: { ...plain.coverage, requirements: [] },
    }
    const rules = lean.checks.filter((c) => c.concern === 'every-response').length
    const lines = summaryLines(lean, [])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(` of ${lean.checks.length - rules} checks and ${rules} every-response rules against `)
  })

  test('the checks not run, an interruption first and in yellow, the re-reads, the run errors and a baseline comparison', () => {
    const cut: Report = {
      ...structuredClone(plain),
      interrupted: { by: 'SIGINT', at: plain.startedAt },
      resampling: { kind: 'last sweep', rounds: 1, requests: 7, quotaRefusals: 0, durationMs: 5, rate: 10 },
      errors: ['a suite file did not load'],
    }
    cut.checks[0] = { ...cut.checks[0]!, status: 'not run', interrupted: true, reason: 'interrupted\nby SIGINT' }
    cut.summary = { ...cut.summary, notRun: 1 }
    const comparison = compareWithBaseline(provoked, 'base.json', cut)
    const lines = summaryLines(cut, ['/r/report.json'], comparison, painted)
    expect(lines[0]).toMatch(/^<yellow>INTERRUPTED by SIGINT.*<\/yellow>$/)
    expect(lines[1]).toBe('last sweep: 7 requests on a new connection')
    expect(lines[2]).toContain(' failed, 1 not run, ')
    const [heading, ...compared] = comparisonLines(comparison)
    expect(lines.slice(3)).toEqual([
      `  ${remediesLine(cut.coverage)}`,
      '  not run: 1 checks, interrupted by SIGINT',
      '  run error: a suite file did not load',
      heading,
      ...compared.map((line) => `  ${line}`),
      'report: /r/report.json',
    ])
  })

  describe('what would assess the requirements left unassessed', () => {
    const wanting = (id: string, inputs?: string[], profileKeys?: ProfileKey[]) =>
      ({
        id,
        level: 'MUST',
        observable: true,
        assessed: false,
        assessedWith: { ...(inputs && { inputs }), ...(profileKeys && { profileKeys }) },
      }) as RequirementCoverage
    const coverageOf = (requirements: RequirementCoverage[]): Coverage => ({ ...plain.coverage, requirements })

    test('flags wanted by the same requirements together, most first, then the profile keys', () => {
      const line = remediesLine(
        coverageOf([
          wanting('A', ['--intent-hash', '--intent-receipt'], ['intentStates']),
          wanting('B', ['--intent-hash', '--intent-receipt']),
          wanting('C', ['--trader']),
          wanting('D', ['--api-key']),
          { ...wanting('E', ['--never']), assessed: true },
          { ...wanting('F', ['--never']), observable: false },
        ]),
      )
      expect(line).toBe(
        'not assessed for want of --intent-hash and --intent-receipt (2 requirements), --api-key (1 requirement), --trader (1 requirement); and of a deployment profile (--profile) that states intentStates (1 requirement)',
      )
    })

    test('profile keys wanted by different requirements apart, most first', () => {
      expect(
        remediesLine(
          coverageOf([wanting('A', undefined, ['pagination']), wanting('B', undefined, ['pagination', 'errorCodes'])]),
        ),
      ).toBe(
        'not assessed for want of a deployment profile (--profile) that states pagination (2 requirements), errorCodes (1 requirement)',
      )
    })

    test('flags alone', () => {
      expect(remediesLine(coverageOf([wanting('A', ['--trader'])]))).toBe(
        'not assessed for want of --trader (1 requirement)',
      )
    })

    test('profile keys wanted by the same requirements in the order they were named, and nothing when every observable requirement was assessed or wants nothing', () => {
      expect(remediesLine(coverageOf([wanting('A', undefined, ['pagination', 'errorCodes'])]))).toBe(
        'not assessed for want of a deployment profile (--profile) that states pagination and errorCodes (1 requirement)',
      )
      expect(remediesLine(coverageOf([wanting('A')]))).toBeUndefined()
      expect(remediesLine(plain.coverage)).toBe(
        summaryLines(plain, [])
          .find((line) => line.startsWith('  not assessed'))
          ?.trim(),
      )
    })
  })
})

describe('the report folder', () => {
  test('holds the four reports, in the order their paths are returned, and the job summary gets report.md appended', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-write-'))
    const summary = join(dir, 'summary.md')
    writeFileSync(summary, 'before\n')
    const paths = await writeReports(provoked, join(dir, 'out'), undefined, summary)
    expect(paths).toEqual(['report.json', 'report.md', 'junit.xml', 'report.html'].map((f) => join(dir, 'out', f)))
    expect(readFileSync(paths[0]!, 'utf8')).toBe(renderJson(provoked))
    expect(readFileSync(paths[1]!, 'utf8')).toBe(renderMarkdown(provoked))
    expect(readFileSync(paths[2]!, 'utf8')).toBe(renderJunit(provoked))
    expect(readFileSync(paths[3]!, 'utf8')).toBe(renderHtml(provoked))
    expect(readFileSync(summary, 'utf8')).toBe(`before\n${renderMarkdown(provoked)}`)
    expect(readdirSync(join(dir, 'out')).sort(), 'no temporary file left').toEqual([
      'junit.xml',
      'report.html',
      'report.json',
      'report.md',
    ])
  })

  test('a folder that cannot be made: one line naming it and its error code, and nothing written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-write-'))
    const file = join(dir, 'a-file')
    writeFileSync(file, '')
    await expect(writeReports(plain, join(file, 'out'))).rejects.toThrow(
      `cannot write the reports to ${join(file, 'out')} (ENOTDIR); no report was written`,
    )
  })

  test('a report that cannot be placed: the reports placed before it and every temporary file removed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-write-'))
    // A folder where junit.xml goes: its rename fails after report.json and report.md are placed.
    mkdirSync(join(dir, 'junit.xml', 'inside'), { recursive: true })
    await expect(writeReports(plain, dir)).rejects.toThrow(
      /^cannot write the reports to .* \(E[A-Z]+\); no report was written$/,
    )
    expect(readdirSync(dir)).toEqual(['junit.xml'])
  })
})

describe('a run against the embedded reference', () => {
  test('records what it switched on and how to bring the reference back; report.html lists every skip with its reason on the first screen', async () => {
    const report = await referenceReport('receipt-not-checked')
    expect(reportValidator()(report), 'valid against specs/report.schema.json').toBe(true)
    expect(report.target.switchedOn).toEqual(['fault receipt-not-checked'])
    expect(report.target.restart).toMatch(/^npx ipts-conformance reference --port \d+ --fault receipt-not-checked$/)
    const html = renderHtml(report)
    const skipped = report.checks.filter((c) => c.status === 'skipped')
    expect(skipped.length, 'the run skips some checks').toBeGreaterThan(0)
    const firstScreen = html.slice(0, html.indexOf('<section id="failures">'))
    for (const check of skipped)
      expect(firstScreen, `${check.id} and its reason before the failures`).toContain(`<code>${check.id}</code></a>: `)
    expect(renderMarkdown(report)).toContain(report.target.restart!)
  })
})
