import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
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

  test('a long reason, a comment without an argument, an argument no comment uses and a stale section are each named', () => {
    const root = mkdtempSync(join(tmpdir(), 'ipts-pragmas-'))
    try {
      for (const folder of ['src', 'reporters', 'suites', 'scripts', 'docs']) mkdirSync(join(root, folder))
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
        `- file: src/gone.ts\n  reason: gone\n  argument: gone\n- file: src/code.ts\n  reason: "${long}"\n  argument: why\n`,
      )
      writeFileSync(join(root, 'docs', 'mutation.md'), '# Mutation testing\n')
      const { status, problems } = check(root)
      expect(problems).toEqual([
        `src/code.ts:1: a reason of ${long.length} characters (at most 100)`,
        'src/code.ts:3: no argument in scripts/mutation-equivalents.yaml for "short"',
        'scripts/mutation-equivalents.yaml: no comment in src/gone.ts gives the reason "gone"',
        'docs/mutation.md: "Why each disabled mutant is equivalent" is stale (node scripts/mutation-pragmas.js)',
      ])
      expect(status).toBe(1)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
