import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { allCheckIds } from '../src/checks/index.js'
import { renderCheckTable } from '../src/docs/check-table.js'
import { generatedSection } from '../src/docs/readme-section.js'
import { packageRoot } from '../src/core/package-root.js'

const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8')

describe("the README's check list", () => {
  test('is the table rendered from the catalogue', () => {
    expect(generatedSection(readme), 'README.md is out of date with the checks: run `npm run docs`').toBe(renderCheckTable())
  })

  test('names every check and every-response rule', () => {
    const table = renderCheckTable()
    const missing = allCheckIds().filter((id) => !table.includes(`| \`${id}\` |`))
    expect(missing, 'checks the rendered table leaves out').toEqual([])
  })
})
