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

  test('is empty when no check walked a lifecycle', () => {
    expect(
      lifecycleSection(reportWith([{ id: 'writes/cancellation-ends-lifecycle', status: 'skipped' }]), { escapeHtml }),
    ).toBe('')
  })

  test("a step's time that cannot be read is shown as it is", () => {
    expect(stepOffset({ ...steps[1]!, at: 'later' }, steps[0]!)).toBe('later')
  })
})
