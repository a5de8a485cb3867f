import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { allCheckIds } from '../../src/checks/index.js'
import { parseCli, flags, runHelp } from '../../src/cli/options.js'
import { renderCheckTable } from '../../src/docs/check-table.js'
import { generatedDocuments } from '../../src/docs/documents.js'
import { renderFlagTable } from '../../src/docs/flag-table.js'
import { generatedSection } from '../../src/docs/generated-section.js'
import { packageRoot } from '../../src/core/package-root.js'

const read = (path: string) => readFileSync(join(packageRoot, path), 'utf8')
const readme = read('README.md')
const documents = [
  'README.md',
  ...readdirSync(join(packageRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]

/** The relative links of a Markdown document (images too), outside code blocks and code spans. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/i.test(target))
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')
const anchorsOf = (markdown: string) =>
  new Set(
    [...markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!)),
  )

describe('the generated sections of docs/', () => {
  test.each(
    generatedDocuments.flatMap((document) =>
      Object.entries(document.sections).map(([name, render]) => [document.path, name, render] as const),
    ),
  )('%s: %s is what npm run docs renders', async (path, name, render) => {
    expect(generatedSection(read(path), name, path), `${path} is out of date: run \`npm run docs\``).toBe(
      await render(),
    )
  })

  test('the check list names every check and every-response rule', () => {
    const table = renderCheckTable()
    const missing = allCheckIds().filter((id) => !table.includes(`| \`${id}\` |`))
    expect(missing, 'checks the rendered table leaves out').toEqual([])
  })

  test('the flag table names every flag --help names, with the same environment variable', () => {
    const help = runHelp()
    for (const flag of flags) {
      expect(help, `--help names --${flag.name}`).toContain(`--${flag.name}`)
      if (flag.env) expect(help, `--help names ${flag.env}`).toContain(`env ${flag.env}`)
      expect(renderFlagTable(), `the flag table names --${flag.name}`).toContain(`\`--${flag.name}`)
    }
  })

  test("docs/flags.md's config file example is read as it says", () => {
    const example = /## The config file\n\n```yaml\n([\s\S]*?)```/.exec(read('docs/flags.md'))?.[1]
    expect(example, 'docs/flags.md has a config file example').toBeDefined()
    const file = join(mkdtempSync(join(tmpdir(), 'ipts-docs-')), 'ipts.yaml')
    writeFileSync(file, example!)
    const options = parseCli(['--config', file], {})
    expect(options.run.settings.baseUrl).toBe('https://dev.example')
    expect(options.run.settings.runs).toBe(50)
    expect(options.run.only).toEqual(['auth/missing-key', 'shapes/market-members'])
    expect(options.run.waivers).toEqual([{ check: 'shapes/market-members', reason: 'vendor ticket 42' }])
    expect(options.run.profile && 'values' in options.run.profile && options.run.profile.values.errorCodes).toEqual([
      'missing_api_key',
      'invalid_api_key',
      'insufficient_scope',
    ])
  })
})

describe('the README', () => {
  const lines = readme.split('\n')
  const lineOf = (text: string) => lines.findIndex((line) => line.includes(text)) + 1

  test('shows the two set-up commands on its first screen and npx ipts-conformance within its first 40 lines', () => {
    expect(lineOf('npm ci && npm start'), 'npm ci && npm start').toBeGreaterThan(0)
    expect(lineOf('npm ci && npm start'), 'npm ci && npm start on the first screen').toBeLessThanOrEqual(24)
    expect(lineOf('npm test'), 'npm test').toBeGreaterThan(0)
    expect(lineOf('npm test'), 'npm test on the first screen').toBeLessThanOrEqual(24)
    expect(lineOf('npx ipts-conformance'), 'npx ipts-conformance').toBeGreaterThan(0)
    expect(lineOf('npx ipts-conformance'), 'npx ipts-conformance within 40 lines').toBeLessThanOrEqual(40)
  })

  test('is about 150 lines: what it is, install, a run against a deployment, exit codes, the reports, links; the reference is in docs/', () => {
    expect(lines.length).toBeLessThanOrEqual(170)
    for (const heading of [
      '## Set-up',
      '## Install',
      '## Run against a deployment',
      '## Exit codes',
      '## Reports',
      '## Documentation',
    ])
      expect(readme, heading).toContain(`\n${heading}\n`)
    for (const document of documents.filter((path) => path.startsWith('docs/')))
      expect(readme, `the README links ${document}`).toContain(`](${document})`)
  })
})

describe('the links of README.md and docs/', () => {
  test.each(documents)('%s: every relative link names a file there is, and a heading of it', (path) => {
    const broken = relativeLinks(read(path)).filter((link) => {
      const [file, anchor] = link.split('#')
      const target = file ? resolve(dirname(join(packageRoot, path)), file) : join(packageRoot, path)
      if (!existsSync(target)) return true
      return anchor !== undefined && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)
    })
    expect(broken, `${path} links to what is not there`).toEqual([])
  })

  test('every file they link is in the packed tarball, so the links hold where the package is installed', () => {
    const linked = new Set(
      documents.flatMap((path) =>
        relativeLinks(read(path)).map((link) =>
          relative(packageRoot, resolve(dirname(join(packageRoot, path)), link.split('#')[0] || path)),
        ),
      ),
    )
    const [pack] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: packageRoot, encoding: 'utf8' }),
    ) as [{ files: { path: string }[] }]
    const packed = new Set(pack.files.map((file) => file.path))
    expect(
      [...linked].filter((path) => !packed.has(path)),
      'linked files npm pack leaves out (package.json files)',
    ).toEqual([])
  })
})
