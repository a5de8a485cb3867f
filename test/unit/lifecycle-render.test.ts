import { describe, expect, test } from 'vitest'
import { lifecycleSection, stepOffset } from '../../reporters/html-lifecycle.js'
import { escapeHtml } from '../../reporters/html.js'
import type { CheckOutcome, LifecycleStep, Report } from '../../src/core/report.js'

const steps: LifecycleStep[] = [
  {
    kind: 'rest',
    label: 'submitIntent intake',
    request: 'POST https://staging.example/v1/intents',
    outcome: '202',
    at: '2026-11-26T04:00:00.000Z',
    receipt: '$IPTS_WRITE_RECEIPT_1',
  },
  {
    kind: 'realtime',
    label: 'channel opened',
    request: 'intent:0xabc at wss://staging.example/realtime',
    outcome: 'opened',
    at: '2026-11-26T04:00:00.250Z',
    receipt: '$IPTS_WRITE_RECEIPT_1',
  },
  {
    kind: 'realtime',
    label: 'message received',
    request: 'intent:0xabc',
    outcome: 'kind <b>status</b>',
    at: '2026-11-26T04:00:01.500Z',
  },
]

const reportWith = (checks: Partial<CheckOutcome>[]) => ({ checks }) as unknown as Report

describe("report.html's lifecycle", () => {
  test('draws each step of each lifecycle in order, REST and realtime, at its time after the first, its text escaped', () => {
    const html = lifecycleSection(
      reportWith([
        { id: 'writes/cancellation-ends-lifecycle', status: 'passed', lifecycle: steps },
        { id: 'intents/receipt-grants-status', status: 'passed' },
      ]),
      { escapeHtml },
    )
    expect(
      [...html.matchAll(/<li class="step (\w+)"><span class="at">([^<]+)<\/span>/g)].map((m) => [m[1], m[2]]),
    ).toEqual([
      ['rest', '+0.0 s'],
      ['realtime', '+0.3 s'],
      ['realtime', '+1.5 s'],
    ])
    expect(html.match(/<h3>/g), 'one lifecycle: a check without steps draws none').toHaveLength(1)
    expect(html).toContain('<span class="receipt">receipt <code>$IPTS_WRITE_RECEIPT_1</code></span>')
    expect(html).toContain('kind &lt;b&gt;status&lt;/b&gt;')
    expect(html).not.toContain('<b>status</b>')
  })

  test('the whole section: a heading and a list per check, each step with its kind, label, request, outcome and receipt', () => {
    const html = lifecycleSection(
      reportWith([
        { id: 'writes/a', status: 'passed', lifecycle: steps.slice(0, 2) },
        { id: 'realtime/b', status: 'failed', lifecycle: steps.slice(2) },
      ]),
      { escapeHtml },
    )
    expect(html.split('\n')).toEqual([
      '<section id="lifecycle"><h2>Lifecycle</h2>',
      "<p>The receipt's lifecycle as the checks walked it, step by step, each at its time after the first (2026-11-26T04:00:00.000Z).</p>",
      '<h3><code>writes/a</code> (passed)</h3>',
      '<ol class="lifecycle" aria-label="the lifecycle writes/a walked: 2 steps">' +
        '<li class="step rest"><span class="at">+0.0 s</span> <span class="kind">REST</span> <strong>submitIntent intake</strong>: <code>POST https://staging.example/v1/intents</code> → 202 <span class="receipt">receipt <code>$IPTS_WRITE_RECEIPT_1</code></span></li>' +
        '<li class="step realtime"><span class="at">+0.3 s</span> <span class="kind">realtime</span> <strong>channel opened</strong>: <code>intent:0xabc at wss://staging.example/realtime</code> → opened <span class="receipt">receipt <code>$IPTS_WRITE_RECEIPT_1</code></span></li></ol>',
      '<h3><code>realtime/b</code> (failed)</h3>',
      '<ol class="lifecycle" aria-label="the lifecycle realtime/b walked: 1 steps">' +
        '<li class="step realtime"><span class="at">+0.0 s</span> <span class="kind">realtime</span> <strong>message received</strong>: <code>intent:0xabc</code> → kind &lt;b&gt;status&lt;/b&gt;</li></ol>',
      '</section>',
    ])
  })

  test('is empty when no check walked a lifecycle', () => {
    expect(
      lifecycleSection(reportWith([{ id: 'writes/cancellation-ends-lifecycle', status: 'skipped' }]), { escapeHtml }),
    ).toBe('')
  })

  test("a step's time that cannot be read is shown as it is", () => {
    expect(stepOffset({ ...steps[1]!, at: 'later' }, steps[0]!)).toBe('later')
  })
})
