import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The folder holding this package's package.json, whether running from src/ (tests) or dist/ (installed). */
function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const candidate = join(dir, 'package.json')
    if (existsSync(candidate) && JSON.parse(readFileSync(candidate, 'utf8')).name === 'ipts-conformance') return dir
    const parent = dirname(dir)
    if (parent === dir) throw new Error('ipts-conformance: cannot find the package root')
    dir = parent
  }
}

export const packageRoot = findPackageRoot()
export const packageJson = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
  name: string
  version: string
}
export const specPath = (file: string): string => join(packageRoot, 'specs', file)
