import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { checksByConcern } from '../../src/checks/index.js'
import { loadRequirements, type Requirement } from '../../src/contract/requirements.js'
import { packageRoot } from '../../src/core/package-root.js'
import { generatedFiles } from '../../src/docs/catalogue-files.js'
import { renderCheckTable } from '../../src/docs/check-table.js'
import { renderFlagTable } from '../../src/docs/flag-table.js'
import { generatedDocuments } from '../../src/docs/documents.js'
import { generatedSection, withGeneratedSection } from '../../src/docs/generated-section.js'
import { tableCell } from '../../src/docs/table-cell.js'
import { writeDocs } from '../../src/docs/write-docs.js'

/**
 * The pieces npm run docs writes with, on texts made by hand: the generated sections between their markers, a table's
 * cell, the list of checks given a requirement no check cites, and what it writes at all (every marked section of
 * docs/, every generated source file).
 */

const DOC = 'intro\n<!-- table:start -->\n\nold\n\n<!-- table:end -->\nafter\n'

describe('a generated section', () => {
  test('is the text between its markers, without the blank lines around it', () => {
    expect(generatedSection(DOC, 'table', 'd.md')).toBe('old')
  })

  test('is replaced between its markers, one line break each side, the rest kept', () => {
    expect(withGeneratedSection(DOC, 'table', 'new\nrows', 'd.md')).toBe(
      'intro\n<!-- table:start -->\nnew\nrows\n<!-- table:end -->\nafter\n',
    )
  })

  test.each([
    ['no start marker', 'x\n<!-- table:end -->\n'],
    ['no end marker', '<!-- table:start -->\nx\n'],
    ['the markers the wrong way round', '<!-- table:end -->\n<!-- table:start -->\n'],
    ['neither marker', 'x'],
  ])('%s: an error naming the document and both markers', (_, text) => {
    const message = 'd.md needs the markers <!-- table:start --> and <!-- table:end -->, in that order'
    expect(() => generatedSection(text, 'table', 'd.md')).toThrow(message)
    expect(() => withGeneratedSection(text, 'table', 'x', 'd.md')).toThrow(message)
  })

  test('markers at the very start and with nothing between them', () => {
    expect(generatedSection('<!-- t:start --><!-- t:end -->', 't', 'd.md')).toBe('')
  })
})

test("a table's cell: its bars escaped, its lines one", () => {
  expect(tableCell('a | b\nc|d')).toBe('a \\| b c\\|d')
})

test('the table of flags: each kind its value, the variable and its older names, the default, a bar in the help', () => {
  expect(
    renderFlagTable([
      { name: 'quiet', kind: 'flag', help: 'no progress' },
      { name: 'runs', kind: 'int', env: 'IPTS_RUNS', help: 'runs', default: '10' },
      { name: 'report-dir', kind: 'folder', env: 'IPTS_REPORT_DIR', help: 'a | b\nc' },
      { name: 'wait', kind: 'duration', env: 'IPTS_WAIT', envAliases: ['IPTS_WAIT_MS', 'WAIT'], help: 'w' },
      { name: 'seed', kind: 'text', env: 'IPTS_SEED', help: 's' },
    ]).split('\n'),
  ).toEqual([
    '| flag | environment | meaning |',
    '|---|---|---|',
    '| `--quiet` |  | no progress |',
    '| `--runs N` | `IPTS_RUNS` | runs (default `10`) |',
    '| `--report-dir DIR` | `IPTS_REPORT_DIR` | a \\| b c |',
    '| `--wait D` | `IPTS_WAIT` (or `IPTS_WAIT_MS`, `WAIT`) | w |',
    '| `--seed VALUE` | `IPTS_SEED` | s |',
    '| `--help`, `-h` (also `ipts-conformance help`), `--version` | | |',
  ])
})

describe('the list of checks', () => {
  test('names an observable requirement no check cites, with its level and rule, and says none when there is none', () => {
    const requirements = loadRequirements()
    const uncited: Requirement = {
      ...requirements.find((r) => r.observable)!,
      id: 'NO-SUCH-RULE' as Requirement['id'],
      level: 'SHOULD',
      rule: 'a rule with a | bar',
    }
    const table = renderCheckTable([...requirements, uncited])
    const tail = table.slice(table.indexOf('### Observable requirements without a check'))
    expect(tail.split('\n')).toEqual([
      '### Observable requirements without a check',
      '',
      '| requirement | level | rule |',
      '| --- | --- | --- |',
      `| \`NO-SUCH-RULE\` | SHOULD${uncited.inferred ? ' (inferred)' : ''} | a rule with a \\| bar |`,
    ])
    expect(renderCheckTable().endsWith('### Observable requirements without a check\n\nNone.')).toBe(true)
  })

  test('counts the requirements assessed only against a profile among those cited, and an unobservable one without a reason', () => {
    const requirements = loadRequirements()
    const counted = (table: string) =>
      Number(/; (\d+) of them are assessed only against a deployment profile/.exec(table)![1])
    const profiled = requirements.filter((r) => r.profile)
    expect(counted(renderCheckTable())).toBeGreaterThan(0)
    expect(counted(renderCheckTable(requirements.map((r) => ({ ...r, profile: undefined }))))).toBe(0)
    const uncitedProfiled = { ...profiled[0]!, id: 'UNCITED' as Requirement['id'] }
    expect(counted(renderCheckTable([...requirements, uncitedProfiled]))).toBe(counted(renderCheckTable()))
    const silent = { ...requirements.find((r) => !r.observable)!, id: 'SILENT' as Requirement['id'], reason: undefined }
    expect(renderCheckTable([...requirements, silent])).toContain(
      `| \`SILENT\` | ${silent.level} | ${tableCell(silent.rule)} |  | ${silent.profile ? `\`${silent.profile}\`` : ''} |`,
    )
  })
})

describe('what npm run docs writes', () => {
  test('every marked section of docs/ but the benchmark’s, from the code', () => {
    const marked = readdirSync(join(packageRoot, 'docs'))
      .filter((file) => file.endsWith('.md'))
      .flatMap((file) =>
        [...readFileSync(join(packageRoot, 'docs', file), 'utf8').matchAll(/<!-- ([a-z-]+):start -->/g)].map(
          ([, name]) => `docs/${file}: ${name}`,
        ),
      )
      .filter((section) => !section.startsWith('docs/benchmark.md: '))
    const written = generatedDocuments.flatMap(({ path, sections }) =>
      Object.keys(sections).map((name) => `${path}: ${name}`),
    )
    expect(written.sort()).toEqual(marked.sort())
  })

  test('the ID types and one suite file per concern, each suite registering its concern', async () => {
    expect(generatedFiles.map((file) => file.path).sort()).toEqual(
      [
        'src/contract/catalogue-ids.ts',
        'src/reference/fault-names.ts',
        'src/reference/allowance-names.ts',
        ...Object.keys(checksByConcern).map((concern) => `suites/${concern}.test.ts`),
      ].sort(),
    )
    const suite = generatedFiles.find((file) => file.path === 'suites/auth.test.ts')!
    expect(await suite.render()).toBe(readFileSync(join(packageRoot, 'suites/auth.test.ts'), 'utf8'))
  })
})

describe('npm run docs, under a folder of its own', () => {
  test('rewrites each stale section and every generated file, and removes a suite file of no concern', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ipts-docs-'))
    mkdirSync(join(root, 'docs'))
    for (const { path, sections } of generatedDocuments) {
      let text = readFileSync(join(packageRoot, path), 'utf8')
      for (const name of Object.keys(sections)) text = withGeneratedSection(text, name, 'stale', path)
      writeFileSync(join(root, path), text)
    }
    mkdirSync(join(root, 'suites'))
    writeFileSync(join(root, 'suites', 'gone.test.ts'), 'stale')
    const lines = await writeDocs(root)
    for (const { path, sections } of generatedDocuments) {
      const text = readFileSync(join(root, path), 'utf8')
      for (const [name, render] of Object.entries(sections))
        expect(generatedSection(text, name, path), `${path}: ${name}`).toBe(await render())
      expect(text.replace(/<!-- \w+:start -->[\s\S]*?<!-- \w+:end -->/g, ''), 'the rest kept').toBe(
        readFileSync(join(packageRoot, path), 'utf8').replace(/<!-- \w+:start -->[\s\S]*?<!-- \w+:end -->/g, ''),
      )
    }
    for (const file of generatedFiles)
      expect(readFileSync(join(root, file.path), 'utf8'), file.path).toBe(
        readFileSync(join(packageRoot, file.path), 'utf8'),
      )
    expect(existsSync(join(root, 'suites', 'gone.test.ts'))).toBe(false)
    expect(lines).toEqual([
      'docs/flags.md: flags, subcommands rewritten from the code',
      'docs/checks.md: checks rewritten from the code',
      'docs/profile.md: template rewritten from the code',
      `${generatedFiles.map((file) => file.path).join(', ')}: written from the catalogue`,
    ])
  })
})
