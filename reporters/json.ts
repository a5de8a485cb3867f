import type { Report } from '../src/core/report.js'

/** report.json: the stable shape of specs/report.schema.json. */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`
}
