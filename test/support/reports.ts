import { faults } from '../../src/reference/faults/index.js'
import type { Report } from '../../src/core/report.js'
import { runAgainstReference } from './run.js'

/**
 * What a hostile target may put in a response body: markup, a script, an external image, a CDATA end, control
 * characters.
 */
export const HOSTILE_BODY =
  '{"error":"</pre></script><script>window.__pwned=1</script><img src="https://evil.example/x.png" onerror="window.__pwned=2">]]><![CDATA[\u0001\u001b[31m"}'

/** The files a run or the proxy writes to its report folder, sorted by name: the four reports and the HAR. */
export const REPORTS_AND_HAR = ['exchanges.har', 'junit.xml', 'report.html', 'report.json', 'report.md']

/** A real run against the reference with nearly every fault switched on, one failing check waived. */
export async function provokedReport(): Promise<{ report: Report; waived: string }> {
  const waived = faults[0]!.breaks[0]!
  // A fault that takes a key out of the reference's profile would take it out for every fault of the run, and one that
  // brings a quota would hold every request of the run to its pace (40 a second: 40 s of waiting), so those stay out.
  const together = faults.filter((f) => !f.profileWithout && !f.run?.quota).map((f) => f.name)
  const report = await runAgainstReference(
    { faults: together },
    {},
    { waivers: [{ check: waived, reason: 'vendor ticket <b>42</b> & "soon"' }] },
  )
  return { report, waived }
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
