import { levelLabel } from '../src/contract/requirements.js'
import { evidenceLines, oneLine } from './evidence-text.js'
import {
  assessedLine,
  belowMinimum,
  interruptionLine,
  provenance,
  type CheckOutcome,
  type Report,
} from '../src/core/report.js'
import { remediesLine } from './console.js'

/** Characters XML 1.0 cannot carry at all, even escaped: in text that comes from the target, each becomes U+FFFD. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(3)

/**
 * junit.xml in the Ant/Jenkins format: a testsuite per concern, a testcase per check, and a coverage suite with how
 * much was assessed (a testcase of its own with --min-assessed, failed below it). A waived check is skipped, never
 * passed.
 */
export function renderJunit(report: Report): string {
  const concerns = [...new Set(report.checks.map((c) => c.concern))]
  const { summary } = report.coverage
  const minimumCases = summary.minimum === undefined ? 0 : 1
  const failures =
    report.checks.filter((c) => c.status === 'failed' && !c.crashed).length + (belowMinimum(summary) ? 1 : 0)
  const crashed = report.checks.filter((c) => c.status === 'failed' && c.crashed).length
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    ...(report.interrupted ? [`<!-- ${escapeXml(interruptionLine(report)!).replace(/--/g, '- -')} -->`] : []),
    `<testsuites name="${escapeXml(report.tool.name)}" tests="${report.checks.length + report.errors.length + minimumCases}" failures="${failures}" errors="${crashed + report.checks.filter(notRunByTarget).length + report.errors.length}" time="${seconds(report.durationMs)}">`,
    ...concerns.flatMap((concern) => suiteLines(report, concern)),
    ...coverageSuite(report),
    ...(report.errors.length > 0 ? runErrorSuite(report.errors) : []),
    '</testsuites>',
    '',
  ]
  return lines.join('\n')
}

/**
 * A check the circuit breaker left not run: an error of the run in CI's eyes; one the run's interruption cut off is
 * skipped.
 */
const notRunByTarget = (check: CheckOutcome) => check.status === 'not run' && !check.interrupted

function suiteLines(report: Report, concern: string): string[] {
  const checks = report.checks.filter((c) => c.concern === concern)
  const count = (...statuses: string[]) => checks.filter((c) => statuses.includes(c.status)).length
  const crashed = checks.filter((c) => c.status === 'failed' && c.crashed).length
  const time = checks.reduce((sum, c) => sum + (c.durationMs ?? 0), 0)
  const interrupted = checks.filter((c) => c.interrupted).length
  return [
    `  <testsuite name="${escapeXml(concern)}" tests="${checks.length}" failures="${count('failed') - crashed}" errors="${crashed + checks.filter(notRunByTarget).length}" skipped="${count('skipped', 'waived') + interrupted}" time="${seconds(time)}" timestamp="${report.startedAt.replace(/Z$/, '')}">`,
    '    <properties>',
    ...(report.interrupted
      ? [`      <property name="interrupted" value="${escapeXml(interruptionLine(report)!)}"/>`]
      : []),
    `      <property name="target" value="${escapeXml(report.target.baseUrl)}"/>`,
    `      <property name="${report.traffic ? 'traffic' : 'seed'}" value="${escapeXml(report.traffic ? provenance(report) : String(report.seed))}"/>`,
    '    </properties>',
    ...checks.map(testcase),
    '  </testsuite>',
  ]
}

function testcase(check: CheckOutcome): string {
  const open = `    <testcase name="${escapeXml(`${check.id}: ${check.title}`)}" classname="${escapeXml(`ipts-conformance.${check.concern}`)}" time="${seconds(check.durationMs)}"`
  const label = `${check.id} [${check.requirement}, ${levelLabel(check)}]`
  switch (check.status) {
    case 'passed':
      return `${open}/>`
    case 'skipped':
      return `${open}>\n      <skipped message="${escapeXml(oneLine(check.reason || 'skipped', 1000))}"/>\n    </testcase>`
    case 'not run':
      // Cut off by the run's own interruption: nothing was judged, nothing is blamed on the target.
      if (check.interrupted)
        return `${open}>\n      <skipped message="${escapeXml(`not run: ${oneLine(check.reason, 1000)}`)}"/>\n    </testcase>`
      return `${open}>\n      <error message="${escapeXml(`not run: ${oneLine(check.reason, 1000)}`)}" type="not run"/>\n    </testcase>`
    case 'waived':
      return `${open}>\n      <skipped message="${escapeXml(`waived: ${oneLine(check.waiver?.reason, 1000)} (the check ${check.waiver?.outcome})`)}"/>\n    </testcase>`
    case 'failed': {
      const details = check.evidence ? evidenceLines(check.evidence, check.samples) : [check.reason ?? 'failed']
      // A check that crashed is an error of the suite, not a failure of the target.
      const element = check.crashed ? 'error' : 'failure'
      return `${open}>\n      <${element} message="${escapeXml(oneLine(check.reason, 1000))}" type="${escapeXml(label)}">${escapeXml(details.join('\n'))}</${element}>\n    </testcase>`
    }
  }
}

/**
 * How much the report assessed, as a suite of its own: the share as properties, each observable requirement not
 * assessed in system-out with why and what would assess it, and with --min-assessed a testcase that fails below it.
 */
function coverageSuite(report: Report): string[] {
  const { summary, requirements } = report.coverage
  const line = assessedLine(summary)
  const unassessed = requirements.filter((r) => r.observable && !r.assessed)
  const wanting = [
    remediesLine(report.coverage),
    ...unassessed.map((r) => `${r.id} [${r.level}]: ${oneLine(r.reason, 300)}`),
  ].filter((text): text is string => !!text)
  const minimum =
    summary.minimum === undefined
      ? []
      : [
          `    <testcase name="${escapeXml(`assessed at least ${summary.minimum}% of the observable requirements (--min-assessed)`)}" classname="ipts-conformance.coverage">`,
          ...(belowMinimum(summary) ? [`      <failure message="${escapeXml(line)}" type="min-assessed"/>`] : []),
          '    </testcase>',
        ]
  return [
    `  <testsuite name="coverage" tests="${minimum.length > 0 ? 1 : 0}" failures="${belowMinimum(summary) ? 1 : 0}" errors="0" skipped="0">`,
    '    <properties>',
    `      <property name="assessed" value="${escapeXml(line)}"/>`,
    `      <property name="assessed-percent" value="${summary.percent}"/>`,
    ...(summary.minimum === undefined ? [] : [`      <property name="min-assessed" value="${summary.minimum}"/>`]),
    '    </properties>',
    ...minimum,
    ...(wanting.length > 0 ? [`    <system-out>${escapeXml(wanting.join('\n'))}</system-out>`] : []),
    '  </testsuite>',
  ]
}

/** Problems of the run itself, as errors of a suite of their own, so that CI shows them. */
function runErrorSuite(errors: readonly string[]): string[] {
  return [
    `  <testsuite name="run" tests="${errors.length}" failures="0" errors="${errors.length}">`,
    ...errors.map(
      (error, i) =>
        `    <testcase name="run error ${i + 1}" classname="run">\n      <error message="${escapeXml(oneLine(error, 1000))}">${escapeXml(error)}</error>\n    </testcase>`,
    ),
    '  </testsuite>',
  ]
}
