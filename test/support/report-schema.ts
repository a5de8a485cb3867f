import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { specPath } from '../../src/core/package-root.js'
import type { Report } from '../../src/core/report.js'

/** A validator of specs/report.schema.json, the shape of report.json that other tools read. */
export function reportValidator() {
  const schema = JSON.parse(readFileSync(specPath('report.schema.json'), 'utf8'))
  const ajv = new Ajv2020({ strict: true, allErrors: true })
  addFormats.default(ajv)
  return ajv.compile<Report>(schema)
}
