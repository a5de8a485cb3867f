import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { allCheckIds } from '../src/checks/index.js'
import { renderCheckTable } from '../src/docs/check-table.js'
import { renderFlagTable } from '../src/docs/flag-table.js'
import { generatedSection } from '../src/docs/readme-section.js'
import { flags, runHelp } from '../src/cli/options.js'
import { packageRoot } from '../src/core/package-root.js'

const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8')

describe("the README's check list", () => {
  test('is the table rendered from the catalogue', () => {
    expect(generatedSection(readme, 'checks'), 'README.md is out of date with the checks: run `npm run docs`').toBe(renderCheckTable())
  })

  test('names every check and every-response rule', () => {
    const table = renderCheckTable()
    const missing = allCheckIds().filter((id) => !table.includes(`| \`${id}\` |`))
    expect(missing, 'checks the rendered table leaves out').toEqual([])
  })
})

describe("the README's flag table", () => {
  test('is the table rendered from the flags that parse argv, the environment and the config file', () => {
    expect(generatedSection(readme, 'flags'), 'README.md is out of date with the flags: run `npm run docs`').toBe(renderFlagTable())
  })

  test('names every flag --help names, with the same environment variable', () => {
    const help = runHelp()
    for (const flag of flags) {
      expect(help, `--help names --${flag.name}`).toContain(`--${flag.name}`)
      if (flag.env) expect(help, `--help names ${flag.env}`).toContain(`env ${flag.env}`)
      expect(generatedSection(readme, 'flags'), `the README names --${flag.name}`).toContain(`\`--${flag.name}`)
    }
  })
})
