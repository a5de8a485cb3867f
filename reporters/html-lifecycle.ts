import type { CheckOutcome, LifecycleStep, Report } from '../src/core/report.js'

/** The checks that walked a receipt's lifecycle, each with its steps. */
export function lifecycles(report: Report): (CheckOutcome & { lifecycle: LifecycleStep[] })[] {
  return report.checks.filter((check): check is CheckOutcome & { lifecycle: LifecycleStep[] } => !!check.lifecycle)
}

/** "+0.0 s", "+1.2 s": a step's time after the first step of its lifecycle. */
export function stepOffset(step: LifecycleStep, first: LifecycleStep): string {
  const ms = Date.parse(step.at) - Date.parse(first.at)
  return Number.isNaN(ms) ? step.at : `+${(ms / 1000).toFixed(1)} s`
}

/**
 * report.html's lifecycles: for each check that walked one (writes/cancellation-ends-lifecycle with --allow-writes, and
 * the realtime checks), its steps drawn as a vertical timeline (HTML and inline style, nothing fetched): REST requests
 * and realtime events, each with its time after the first step, its request, its outcome and the receipt as its
 * placeholder. Empty when no check walked a lifecycle (a run without --allow-writes).
 */
export function lifecycleSection(
  report: Report,
  { escapeHtml }: { escapeHtml: (text: string | number | boolean | undefined) => string },
): string {
  const walked = lifecycles(report)
  if (walked.length === 0) return ''
  const drawn = walked.map((check) => {
    const first = check.lifecycle[0]!
    const steps = check.lifecycle.map(
      (step) =>
        `<li class="step ${step.kind}"><span class="at">${escapeHtml(stepOffset(step, first))}</span> <span class="kind">${step.kind === 'rest' ? 'REST' : 'realtime'}</span> <strong>${escapeHtml(step.label)}</strong>: <code>${escapeHtml(step.request)}</code> → ${escapeHtml(step.outcome)}${step.receipt ? ` <span class="receipt">receipt <code>${escapeHtml(step.receipt)}</code></span>` : ''}</li>`,
    )
    return `<h3><code>${escapeHtml(check.id)}</code> (${escapeHtml(check.status)})</h3>
<ol class="lifecycle" aria-label="${escapeHtml(`the lifecycle ${check.id} walked: ${check.lifecycle.length} steps`)}">${steps.join('')}</ol>`
  })
  return `<section id="lifecycle"><h2>Lifecycle</h2>
<p>The receipt's lifecycle as the checks walked it, step by step, each at its time after the first (${escapeHtml(walked[0]!.lifecycle[0]!.at)}).</p>
${drawn.join('\n')}
</section>`
}

/** The lifecycle's style, added to the page's. */
export const LIFECYCLE_STYLE = `
ol.lifecycle{list-style:none;margin:0 0 1em;padding:0 0 0 1.2em;border-left:3px solid #8ab4e8}
ol.lifecycle .step{position:relative;margin:.4em 0;padding-left:.4em}
ol.lifecycle .step::before{content:"";position:absolute;left:-1.65em;top:.35em;width:.7em;height:.7em;border-radius:50%;background:#8ab4e8}
ol.lifecycle .step.realtime::before{background:#5cb85c}
ol.lifecycle .at{color:#666;font-variant-numeric:tabular-nums}
ol.lifecycle .kind{font-size:85%;padding:0 .3em;border:1px solid #ccc;border-radius:3px}
ol.lifecycle .receipt{color:#555}
`
