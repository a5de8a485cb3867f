import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { packageRoot } from '../../src/core/package-root.js'
import { filesOf, mutantsToday, pendingOf, rangesOf, type MutantToday } from '../../scripts/mutation-pending.js'
import { mergeResult, resultOf, type PartResult } from '../../scripts/mutation-results.js'

const SOURCE = ['const a = 1', 'if (a > 0) run()', 'export const b = a + 2'].join('\n')

const today = (at: string, end: string, mutator: string, to: string, ignored = false): MutantToday => ({
  file: 'src/a.ts',
  at,
  end,
  mutator,
  to,
  ignored,
})

/** A part's result over src/a.ts as SOURCE reads, its mutants given as [at, end, mutator, to, status, why?]. */
const resultOver = (mutants: [string, string, string, string, string, string?][]): PartResult => {
  const lines = Object.fromEntries(SOURCE.split('\n').map((line, i) => [i + 1, line]))
  return {
    run: { when: '2026-11-26 10:00 UTC', seconds: 600 },
    files: {
      'src/a.ts': {
        lines,
        mutants: mutants.map(([at, end, mutator, to, status, why]) => ({
          at,
          end,
          mutator,
          to,
          status,
          ...(why ? { why } : {}),
        })),
      },
    },
  }
}

describe('what a part of npm run mutation has still to measure (scripts/mutation-pending.js)', () => {
  test("a part's files are those its patterns select, a ! pattern taking files out", () => {
    const files = [
      'src/checks/auth.ts',
      'src/checks/index.ts',
      'src/checks/deep/x.ts',
      'src/http/client.ts',
      'reporters/html.ts',
    ]
    expect(filesOf(['src/checks/**/*.ts', '!src/checks/index.ts'], files)).toEqual([
      'src/checks/auth.ts',
      'src/checks/deep/x.ts',
    ])
    expect(filesOf(['reporters/*.ts', 'src/http/client.ts'], files)).toEqual([
      'src/http/client.ts',
      'reporters/html.ts',
    ])
    expect(filesOf(['!src/checks/auth.ts'], files)).toEqual([])
  })

  test('nothing is pending where the result holds every mutant of the code as it reads today', () => {
    const result = resultOver([
      ['1:11', '1:12', 'NumericLiteral', '0', 'Killed'],
      ['2:5', '2:10', 'EqualityOperator', 'a >= 0', 'Survived'],
    ])
    const mutants = [today('1:11', '1:12', 'NumericLiteral', '0'), today('2:5', '2:10', 'EqualityOperator', 'a >= 0')]
    expect(pendingOf(mutants, result, () => SOURCE)).toEqual([])
    expect(pendingOf(mutants, undefined, () => SOURCE)).toEqual(mutants)
  })

  test('a new mutant is pending, ignored or not, and so is one whose line reads otherwise today', () => {
    const result = resultOver([
      ['1:11', '1:12', 'NumericLiteral', '0', 'Killed'],
      ['2:5', '2:10', 'EqualityOperator', 'a >= 0', 'Survived'],
    ])
    const mutants = [
      today('1:11', '1:12', 'NumericLiteral', '0'),
      today('2:5', '2:10', 'EqualityOperator', 'a >= 0'),
      today('2:5', '2:10', 'EqualityOperator', 'a <= 0'),
      today('3:17', '3:22', 'ArithmeticOperator', 'a - 2', true),
    ]
    expect(pendingOf(mutants, result, () => SOURCE).map((m) => m.to)).toEqual(['a <= 0', 'a - 2'])
    const changed = SOURCE.replace('const a = 1', 'const a = 1 // one')
    expect(pendingOf(mutants, result, () => changed).map((m) => m.to)).toEqual(['0', 'a <= 0', 'a - 2'])
  })

  test('a mutant an ignorer left to another part is pending where the ignorer keeps it today; a static one is not', () => {
    const result = resultOver([
      ['1:11', '1:12', 'NumericLiteral', '0', 'Ignored', 'inside a function: measured by another part'],
      ['2:5', '2:10', 'EqualityOperator', 'a >= 0', 'Ignored', 'Static mutant (and "ignoreStatic" was enabled)'],
      ['3:17', '3:22', 'ArithmeticOperator', 'a - 2', 'Ignored', 'in an instance field: measured by another part'],
    ])
    const mutants = [
      today('1:11', '1:12', 'NumericLiteral', '0'),
      today('2:5', '2:10', 'EqualityOperator', 'a >= 0'),
      today('3:17', '3:22', 'ArithmeticOperator', 'a - 2', true),
    ]
    expect(pendingOf(mutants, result, () => SOURCE).map((m) => m.to)).toEqual(['0'])
  })

  test('with survivors, a mutant the result holds undetected is pending too, though its line reads the same', () => {
    const result = resultOver([
      ['1:11', '1:12', 'NumericLiteral', '0', 'Killed'],
      ['2:5', '2:10', 'EqualityOperator', 'a >= 0', 'Survived'],
      ['2:5', '2:10', 'EqualityOperator', 'a <= 0', 'NoCoverage'],
      ['3:17', '3:22', 'ArithmeticOperator', 'a - 2', 'Timeout'],
    ])
    const mutants = [
      today('1:11', '1:12', 'NumericLiteral', '0'),
      today('2:5', '2:10', 'EqualityOperator', 'a >= 0'),
      today('2:5', '2:10', 'EqualityOperator', 'a <= 0'),
      today('3:17', '3:22', 'ArithmeticOperator', 'a - 2'),
    ]
    expect(pendingOf(mutants, result, () => SOURCE, { survivors: true }).map((m) => m.to)).toEqual(['a >= 0', 'a <= 0'])
    expect(pendingOf(mutants, result, () => SOURCE)).toEqual([])
  })

  test('the pending mutants become the spans of lines --mutate takes, file by file, those that touch merged', () => {
    const at = (file: string, first: number, last: number) => ({
      ...today(`${first}:1`, `${last}:2`, 'BlockStatement', '{}'),
      file,
    })
    expect(
      rangesOf([
        at('src/b.ts', 9, 9),
        at('src/a.ts', 5, 7),
        at('src/a.ts', 1, 2),
        at('src/a.ts', 3, 3),
        at('src/a.ts', 6, 12),
      ]),
    ).toEqual(['src/a.ts:1-3', 'src/a.ts:5-12', 'src/b.ts:9-9'])
    expect(rangesOf([at('src/a.ts', 4, 4), at('src/a.ts', 1, 2)])).toEqual(['src/a.ts:1-2', 'src/a.ts:4-4'])
    expect(rangesOf([])).toEqual([])
  })

  describe("the mutants StrykerJS's instrumenter makes today, under a part's config", () => {
    const root = mkdtempSync(join(tmpdir(), 'ipts-mutation-pending-'))
    afterAll(() => rmSync(root, { recursive: true, force: true }))
    mkdirSync(join(root, 'src'))
    mkdirSync(join(root, 'mutation'))
    symlinkSync(join(packageRoot, 'node_modules'), join(root, 'node_modules'), 'dir')
    writeFileSync(join(root, 'src/a.ts'), SOURCE)
    writeFileSync(
      join(root, 'mutation/ignore-b.mjs'),
      [
        "import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin'",
        'export const strykerPlugins = [',
        "  declareValuePlugin(PluginKind.Ignore, 'ignore-b', {",
        "    shouldIgnore: (path) => (path.isVariableDeclaration() && path.node.declarations[0].id.name === 'b' ? 'b is not measured here' : undefined),",
        '  }),',
        ']',
      ].join('\n'),
    )

    test('are named as a result names them, lines and columns from 1, and those its ignorers leave out are ignored', async () => {
      const plain = await mutantsToday(root, {}, ['src/a.ts'])
      expect(plain).toContainEqual(today('2:5', '2:10', 'EqualityOperator', 'a >= 0'))
      expect(plain).toContainEqual(today('3:18', '3:23', 'ArithmeticOperator', 'a - 2'))
      expect(plain.every((m) => !m.ignored)).toBe(true)
      const underIgnorer = await mutantsToday(
        root,
        { plugins: ['@stryker-mutator/*', './mutation/ignore-b.mjs'], ignorers: ['ignore-b'] },
        ['src/a.ts'],
      )
      expect(underIgnorer.filter((m) => m.ignored).map((m) => m.to)).toEqual(['a - 2'])
      expect(underIgnorer.map(({ ignored, ...m }) => m)).toEqual(plain.map(({ ignored, ...m }) => m))
    })
  })
})

describe("a run over some lines merged into a part's result (mergeResult)", () => {
  const held = resultOver([
    ['1:11', '1:12', 'NumericLiteral', '0', 'Killed'],
    ['2:5', '2:10', 'EqualityOperator', 'a >= 0', 'Survived'],
    ['3:17', '3:22', 'ArithmeticOperator', 'a - 2', 'Killed'],
  ])
  const other = {
    lines: { 1: 'x' },
    mutants: [{ at: '1:1', end: '1:2', mutator: 'StringLiteral', to: '""', status: 'Killed' }],
  }
  const run = { when: '2026-11-27 10:00 UTC', seconds: 60, concurrency: 2, cores: 2 }

  test("replaces the mutants of the lines it mutated, and of lines that read otherwise today, and adds to the part's runs", () => {
    const changed = SOURCE.replace('a + 2', 'a + 3')
    const report = {
      files: {
        'src/a.ts': {
          source: changed,
          mutants: [
            {
              location: { start: { line: 2, column: 5 }, end: { line: 2, column: 10 } },
              mutatorName: 'EqualityOperator',
              replacement: 'a >= 0',
              status: 'Killed',
            },
            {
              location: { start: { line: 2, column: 5 }, end: { line: 2, column: 10 } },
              mutatorName: 'EqualityOperator',
              replacement: 'a <= 0',
              status: 'Timeout',
            },
          ],
        },
      },
    }
    const merged = mergeResult(
      { ...held, files: { ...held.files, 'src/b.ts': other } },
      report,
      ['src/a.ts:2-2'],
      run,
      () => changed,
    )
    expect(merged.files['src/a.ts']).toEqual({
      lines: { 1: 'const a = 1', 2: 'if (a > 0) run()' },
      mutants: [
        { at: '1:11', end: '1:12', mutator: 'NumericLiteral', to: '0', status: 'Killed' },
        { at: '2:5', end: '2:10', mutator: 'EqualityOperator', to: 'a <= 0', status: 'Timeout' },
        { at: '2:5', end: '2:10', mutator: 'EqualityOperator', to: 'a >= 0', status: 'Killed' },
      ],
    })
    expect(merged.files['src/b.ts']).toEqual(other)
    expect(merged.run).toEqual({ ...held.run, since: [{ ...run, mutants: 2 }] })
    const again = mergeResult(merged, { files: {} }, [], { ...run, seconds: 5 }, () => changed)
    expect(again.run.since).toEqual([
      { ...run, mutants: 2 },
      { ...run, seconds: 5, mutants: 0 },
    ])
  })

  test('a mutant the report holds outside the lines mutated (kept by incremental mode) replaces the one held', () => {
    const report = {
      files: {
        'src/a.ts': {
          source: SOURCE,
          mutants: [
            {
              location: { start: { line: 3, column: 17 }, end: { line: 3, column: 22 } },
              mutatorName: 'ArithmeticOperator',
              replacement: 'a - 2',
              status: 'Survived',
            },
          ],
        },
      },
    }
    const spanning = {
      ...held,
      files: {
        'src/a.ts': {
          ...held.files['src/a.ts']!,
          mutants: [
            ...held.files['src/a.ts']!.mutants,
            { at: '1:1', end: '2:3', mutator: 'BlockStatement', to: '{}', status: 'Killed' },
          ],
        },
      },
    }
    expect(
      mergeResult(
        spanning,
        { files: { 'src/a.ts': { source: SOURCE, mutants: [] } } },
        ['src/a.ts:1-1'],
        run,
        () => SOURCE,
      ).files['src/a.ts']!.mutants.map((m) => m.at),
      'one that reaches beyond the lines mutated was not mutated: it is kept',
    ).toEqual(['1:1', '2:5', '3:17'])
    const merged = mergeResult(held, report, ['src/a.ts:1-1'], run, () => SOURCE)
    expect(merged.files['src/a.ts']!.mutants.map((m) => `${m.at}:${m.to}:${m.status}`)).toEqual([
      '2:5:a >= 0:Survived',
      '3:17:a - 2:Survived',
    ])
    expect(merged.run.since, 'measured on the lines mutated: none').toEqual([{ ...run, mutants: 0 }])
  })

  test('a file the run reports for the first time is added, and a result of a part made whole keeps its own run', () => {
    const report = { files: { 'src/a.ts': { source: SOURCE, mutants: [] } } }
    const merged = mergeResult({ run: held.run, files: {} }, report, ['src/a.ts:1-3'], run, () => SOURCE)
    expect(merged.files).toEqual({ 'src/a.ts': { lines: {}, mutants: [] } })
    expect(resultOf(report, run).run).toEqual(run)
  })
})
