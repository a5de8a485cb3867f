#!/usr/bin/env node
// npm's prepare: after `npm ci` or `npm install` in a clone, and when npm installs the package from a git URL (it
// installs the dev dependencies first there), compiles dist/. TypeScript is a dev dependency, so `npm ci --omit=dev`
// in a clone has no compiler: that install still succeeds, and this says how to get a dist/ instead of failing with
// 127.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

let tsc
try {
  tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc')
} catch {
  const built = existsSync(join(root, 'dist', 'src', 'cli', 'main.js'))
  process.stderr.write(
    built
      ? 'ipts-conformance: TypeScript is not installed (a dev dependency); dist/ is left as it was built\n'
      : `ipts-conformance: dist/ is not built: TypeScript is a dev dependency; \`npm ci && npm prune --omit=dev\` in ${root} builds it and keeps only the production dependencies\n`,
  )
  process.exit(0)
}
const build = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' })
process.exit(build.status ?? 1)
