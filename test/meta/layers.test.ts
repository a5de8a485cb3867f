import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { packageRoot } from '../../src/core/package-root.js'

const DEPCRUISE = join(packageRoot, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs')
const CONFIG = join(packageRoot, '.dependency-cruiser.cjs')

/**
 * dependency-cruiser over the given folders of `cwd` with the project's layer rules; its exit code is the number of
 * violations.
 */
function cruise(cwd: string, paths: readonly string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [DEPCRUISE, '--config', CONFIG, '--output-type', 'err', ...paths], {
    cwd,
    encoding: 'utf8',
  })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

describe('the layers (.dependency-cruiser.cjs)', () => {
  test('hold: no module imports a layer above its own, the reference server is imported only by the API and the CLI, and no import goes round in a circle', () => {
    const { status, output } = cruise(packageRoot, ['src', 'reporters', 'suites', 'vitest.config.ts'])
    expect(status, output).toBe(0)
  })

  test('are enforced: a check that imports the engine, an engine module that imports the reference server, and a CLI that reaches vitest are violations', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-layers-'))
    try {
      const write = (file: string, text: string) => {
        mkdirSync(dirname(join(dir, file)), { recursive: true })
        writeFileSync(join(dir, file), text)
      }
      cpSync(join(packageRoot, 'tsconfig.json'), join(dir, 'tsconfig.json'))
      write(
        'src/engine/run.ts',
        "import { fault } from '../reference/fault.js'\nexport const run = (): string => fault\n",
      )
      write('src/checks/check.ts', "import { run } from '../engine/run.js'\nexport const check = run\n")
      write('src/reference/fault.ts', "export const fault = 'a fault'\n")
      write('src/cli/main.ts', "export const main = async (): Promise<unknown> => import('./run.js')\n")
      write('src/cli/run.ts', "import { test } from 'vitest'\nexport const run = test\n")
      const { status, output } = cruise(dir, ['src'])
      expect(status, output).toBe(3)
      expect(output).toMatch(/checks-imports-no-layer-above: src\/checks\/check\.ts → src\/engine\/run\.ts/)
      expect(output).toMatch(/reference-is-a-fixture: src\/engine\/run\.ts → src\/reference\/fault\.ts/)
      expect(output, 'a subcommand that imports vitest, loaded on demand').toMatch(
        /vitest-only-in-the-vitest-mode: src\/cli\/main\.ts → vitest/,
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
