import { inject } from 'vitest'
import { faults } from '../../src/reference/faults/index.js'
import type { FaultName } from '../../src/reference/fault-names.js'
import type { Evidence, Report } from '../../src/core/report.js'
import { runAgainstReference } from './run.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The reports of referenceReport's runs, by their key, made once by mutation/reference-reports.ts. */
    referenceReports?: Record<string, Report>
  }
}

/**
 * What a hostile target may put in a response body: markup, a script, an external image, a CDATA end, control
 * characters.
 */
export const HOSTILE_BODY =
  '{"error":"</pre></script><script>window.__pwned=1</script><img src="https://evil.example/x.png" onerror="window.__pwned=2">]]><![CDATA[\u0001\u001b[31m"}'

/** The files a run or the proxy writes to its report folder, sorted by name: the four reports and the HAR. */
/** A check's anchor in report.html (`#check-…`), as a reader of the page links to it. */
export const checkAnchor = (id: string): string => `check-${id.replace(/[^a-z0-9-]/gi, '-')}`

export const REPORTS_AND_HAR = ['exchanges.har', 'junit.xml', 'report.html', 'report.json', 'report.md']

const waived = faults[0]!.breaks[0]!

/** A real run against the reference with nearly every fault switched on, one failing check waived. */
function provokedRun(): Promise<Report> {
  // A fault that takes a key out of the reference's profile would take it out for every fault of the run, and one that
  // brings a quota would hold every request of the run to its pace (40 a second: 40 s of waiting), so those stay out.
  const together = faults.filter((f) => !f.profileWithout && !f.run?.quota).map((f) => f.name)
  return runAgainstReference(
    { faults: together },
    {},
    { waivers: [{ check: waived, reason: 'vendor ticket <b>42</b> & "soon"' }] },
  )
}

/** The runs the report writers' tests read, by key: the plain reference's (''), one fault's, and the provoked run. */
const REPORTED_RUNS = {
  '': () => runAgainstReference(),
  'market-paused-as-string': () => runAgainstReference({ faults: ['market-paused-as-string'] }),
  'request-id-echoed-unvalidated': () => runAgainstReference({ faults: ['request-id-echoed-unvalidated'] }),
  'receipt-not-checked': () => runAgainstReference({ faults: ['receipt-not-checked'] }),
  provoked: provokedRun,
} satisfies Record<string, () => Promise<Report>>
type ReportedRun = keyof typeof REPORTED_RUNS

/**
 * Every reported run's report, for a vitest global setup to give each test file (mutation/reference-reports.ts): under
 * mutation of the report writers alone, the runs that feed them are the same for every mutant.
 */
export async function reportedRuns(): Promise<Record<ReportedRun, Report>> {
  const keys = Object.keys(REPORTED_RUNS) as ReportedRun[]
  const reports = await Promise.all(keys.map((key) => REPORTED_RUNS[key]()))
  return Object.fromEntries(keys.map((key, i) => [key, reports[i]!])) as Record<ReportedRun, Report>
}

/** The report of a whole run against the reference with no fault or one: the one given, or a run of its own. */
export async function referenceReport(fault: '' | Extract<ReportedRun, FaultName> = ''): Promise<Report> {
  return givenReport(fault) ?? REPORTED_RUNS[fault]()
}

/** The provoked run's report (nearly every fault), and the failing check it waives. */
export async function provokedReport(): Promise<{ report: Report; waived: string }> {
  return { report: givenReport('provoked') ?? (await provokedRun()), waived }
}

const givenReport = (key: ReportedRun): Report | undefined => {
  const given = inject('referenceReports')?.[key]
  return given && structuredClone(given)
}

/** The report with hostile text planted in the first failure's evidence, as a malicious target would have it. */
export function withHostileEvidence(report: Report): Report {
  const copy = structuredClone(report)
  const failed = copy.checks.find((c) => c.status === 'failed' && c.evidence?.response)
  if (!failed) throw new Error('the provoked run has no failure with a response to plant hostile evidence in')
  failed.evidence!.response!.bodyExcerpt = HOSTILE_BODY
  failed.evidence!.message = `${failed.evidence!.message} <script>window.__pwned=3</script>`
  failed.reason = failed.evidence!.message
  return copy
}

/**
 * A run's report with every optional part a report may hold, as runs with other flags give them: cut short by a
 * signal, strict, without re-reads, with a profile, a restart command, an operation without a response, a check that
 * crashed, one cut off and one not run for want of the target, one waived, one retried, a walked lifecycle, writes
 * sent (one with every member, one with none), an uncovered requirement, recorded traffic's breaches of client rules
 * and a run error. Each in the first check or requirement free for it, so that a writer that mixes them up shows it.
 */
export function withEveryPart(run: Report): Report {
  const report = structuredClone(run)
  delete report.resampling
  report.strict = true
  report.interrupted = { by: 'SIGTERM', at: report.startedAt }
  report.target.restart = 'npx ipts-conformance reference --port 4100 --fault x'
  report.profile = { source: 'deploy <1>.yaml', values: {} }
  const [crashed, notRun, waived, retried, walked, writer, unreached] = report.checks.filter(
    (c) => c.concern !== 'every-response',
  )
  Object.assign(crashed!, { status: 'failed', crashed: true, reason: 'TypeError: x is\nnot a function' })
  delete crashed!.evidence
  Object.assign(notRun!, { status: 'not run', interrupted: true, reason: 'interrupted by SIGTERM' })
  Object.assign(unreached!, { status: 'not run', reason: 'the target stopped\nanswering' })
  Object.assign(waived!, { status: 'waived', waiver: { reason: 'ticket *7*', outcome: 'failed' } })
  Object.assign(retried!, { retried: true })
  walked!.lifecycle = [
    { kind: 'rest', label: 'intake', request: 'POST /v1/intents', outcome: '202', at: '2026-11-27T10:00:00.000Z' },
    {
      kind: 'realtime',
      label: 'channel opened',
      request: 'wss://x/v1/intents/0x1/events',
      outcome: 'opened',
      at: '2026-11-27T10:00:01.250Z',
      receipt: '$IPTS_WRITE_RECEIPT_1',
    },
  ]
  writer!.writes = [
    {
      operation: 'submitIntent',
      method: 'POST',
      url: 'https://x/v1/intents',
      idempotencyKey: 'k|1',
      status: 202,
      attempts: 2,
      statusIdentifier: '0xab',
      receipt: '$IPTS_WRITE_RECEIPT_1',
      duplicate: false,
    },
    {
      operation: 'cancelIntent',
      method: 'DELETE',
      url: 'https://x/v1/intents/0xab',
      idempotencyKey: null,
      status: null,
      attempts: 1,
    },
  ]
  report.requirements[0]!.profile = { key: 'pagination', value: { maxPageSize: 100 } }
  report.requirements[1]!.status = 'uncovered'
  report.coverage.operations[0]!.statuses = {}
  const [wantingBoth, wantingKeys] = report.coverage.requirements.filter((r) => r.observable && !r.assessed)
  wantingBoth!.assessedWith = { inputs: ['--trader'], profileKeys: ['errorCodes'] }
  wantingKeys!.assessedWith = { profileKeys: ['quota', 'openapi'] }
  report.traffic = {
    source: 'proxy',
    exchanges: 4,
    judged: 2,
    outsideV1: 1,
    otherV1: 1,
    withoutResponse: 0,
    withoutBody: 0,
    clientRuleBreaches: [{ requirement: 'AUTH-2', message: 'sent the key in the <query>' }],
  }
  report.errors = ['a suite file did not load:\nsyntax <error>', 'an unhandled rejection']
  report.summary = { ...report.summary, verdict: 'fail', notRun: 2, waived: 1 }
  return report
}

/** A failure's evidence with every member it may have, a response cut at the size cap and commands with variables. */
export const EVIDENCE_WITH_EVERY_MEMBER: Evidence = {
  message: 'the body breaks the schema',
  request: { method: 'GET', url: 'https://x.example/v1/markets', headers: { accept: 'application/json' } },
  response: {
    status: 200,
    headers: { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] },
    bodyExcerpt: '{"data":1}',
    bodyBytes: 10,
    truncated: true,
  },
  transportError: { code: 'ECONNRESET', message: 'socket hang up' },
  retries: [
    { status: 503, waitedMs: 250 },
    { status: 429, waitedMs: 1000 },
  ],
  schemaViolations: [
    {
      schema: 'Market',
      keyword: 'type',
      instancePath: '/data',
      schemaPath: '#/type',
      params: {},
      message: 'must be array',
    },
    { schema: 'Market', keyword: 'required', instancePath: '', schemaPath: '#/required', params: {}, message: 'x' },
  ],
  counterexample: { seed: 7, path: '3:1', value: { limit: 0 }, runs: 4, replay: 'npx ipts-conformance --replay 3:1' },
  sample: { round: 2, at: '2026-11-27T10:00:00.000Z', connection: { number: 3, port: 51234 } },
  profile: { key: 'errorCodes', value: ['a'], source: 'deploy.yaml' },
  reproduce:
    'curl -H "x-api-key: ${IPTS_API_KEY}" "https://x.example/v1/intents/0xab?r=${IPTS_WRITE_RECEIPT_1}&k=${IPTS_API_KEY}"',
  others: [
    { message: 'again', request: { method: 'GET', url: 'https://x.example/v1/vault', headers: {} } },
    { message: 'and\nagain' },
  ],
}
