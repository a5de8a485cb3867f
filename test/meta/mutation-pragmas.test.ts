import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { filesWithoutMutants } from '../../scripts/mutation-pragmas.js'
import { packageRoot } from '../../src/core/package-root.js'

const SCRIPT = join(packageRoot, 'scripts', 'mutation-pragmas.js')

/** scripts/mutation-pragmas.js --check over a project root: exit 1 and one line per problem. */
function check(root: string): { status: number | null; problems: string[] } {
  const result = spawnSync(process.execPath, [SCRIPT, '--check', root], { encoding: 'utf8' })
  return { status: result.status, problems: result.stderr.split('\n').filter(Boolean) }
}

describe('the Stryker disable comments of the shipped code (docs/mutation.md)', () => {
  test('each gives a reason of at most 100 characters, has its argument in scripts/mutation-equivalents.yaml, and the section that lists them is current', () => {
    const { status, problems } = check(packageRoot)
    expect(problems).toEqual([])
    expect(status).toBe(0)
  })

  test('a long reason, a comment without an argument or without a mutant to disable, an argument no comment uses and a stale section are each named', () => {
    const root = fixtureProject()
    try {
      const long = `equivalent,${' a long argument'.repeat(6)}`
      writeFileSync(
        join(root, 'src', 'code.ts'),
        [
          `// Stryker disable next-line StringLiteral: ${long}`,
          "const a = 'a'",
          '// Stryker disable next-line BlockStatement: short',
          'function f() {}',
          '',
        ].join('\n'),
      )
      writeFileSync(
        join(root, 'scripts', 'mutation-equivalents.yaml'),
        [
          '- file: src/gone.ts',
          '  reason: gone',
          '  argument: gone',
          '- file: src/code.ts',
          `  reason: "${long}"`,
          '  argument: why',
          '  disables: ["`\'a\'` → `\\"\\"`"]',
          '',
        ].join('\n'),
      )
      const { status, problems } = check(root)
      expect(problems).toEqual([
        `src/code.ts:1: a reason of ${long.length} characters (at most 100)`,
        'src/code.ts:3: no argument in scripts/mutation-equivalents.yaml for "short"',
        'src/code.ts:3: disables no mutant of BlockStatement',
        'scripts/mutation-equivalents.yaml: no comment in src/gone.ts gives the reason "gone"',
        'docs/mutation.md: "Why each disabled mutant is equivalent" is stale (node scripts/mutation-pragmas.js)',
      ])
      expect(status).toBe(1)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  test('a comment over a line that holds a mutant its entry does not name, one that disables nothing, and a named mutant no comment disables are each named', () => {
    const root = fixtureProject()
    try {
      writeFileSync(
        join(root, 'src', 'code.ts'),
        [
          'export function f(a: number[], b: boolean) {',
          '  // Stryker disable next-line ConditionalExpression: equivalent: an empty list has nothing to skip',
          '  if (a.length === 0 || b) return a',
          '  // Stryker disable next-line StringLiteral: nothing to disable here',
          '  return a.map((n) => n + 1)',
          '}',
          '',
        ].join('\n'),
      )
      writeFileSync(
        join(root, 'scripts', 'mutation-equivalents.yaml'),
        [
          '- file: src/code.ts',
          '  reason: "equivalent: an empty list has nothing to skip"',
          '  argument: the map of an empty list is an empty list',
          '  disables: ["`a.length === 0` → `false`", "`a.length === 0` → `true`"]',
          '- file: src/code.ts',
          '  reason: nothing to disable here',
          '  argument: none',
          '',
        ].join('\n'),
      )
      const { status, problems } = check(root)
      expect(problems).toEqual([
        'src/code.ts:4: disables no mutant of StringLiteral',
        "src/code.ts:2: disables `a.length === 0 || b` → `true`, which its entry's `disables` does not argue",
        "src/code.ts:2: disables `a.length === 0 || b` → `false`, which its entry's `disables` does not argue",
        'scripts/mutation-equivalents.yaml: no comment in src/code.ts with the reason "equivalent: an empty list has nothing to skip" disables `a.length === 0` → `true`',
        'docs/mutation.md: "Why each disabled mutant is equivalent" is stale (node scripts/mutation-pragmas.js)',
      ])
      expect(status).toBe(1)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})

describe('the files of which StrykerJS makes no mutant (docs/mutation.md names them apart from the unmeasured)', () => {
  test('types, re-exports and a table of numbers as const have none; a string, a condition or a function has one', async () => {
    const root = fixtureProject()
    try {
      const files = {
        'src/types.ts': 'export interface Settings {\n  seed: number\n}\nexport type Id = "a" | "b"\n',
        'src/exports.ts': "export { x } from './x.js'\nexport type { Settings } from './types.js'\n",
        'src/bounds.ts': 'export const BOUNDS = { min: 8, max: 128 } as const\n',
        'src/word.ts': "export const WORD = 'word'\n",
        'src/test.ts': 'export const above = (n: number) => n > 1\n',
      }
      for (const [file, text] of Object.entries(files)) writeFileSync(join(root, file), text)
      expect(await filesWithoutMutants(root, Object.keys(files))).toEqual([
        'src/types.ts',
        'src/exports.ts',
        'src/bounds.ts',
      ])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})

/** A project root with the folders the script reads and a docs/mutation.md without the section. */
function fixtureProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'ipts-pragmas-'))
  for (const folder of ['src', 'reporters', 'suites', 'scripts', 'docs']) mkdirSync(join(root, folder))
  writeFileSync(join(root, 'docs', 'mutation.md'), '# Mutation testing\n')
  return root
}
