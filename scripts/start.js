#!/usr/bin/env node
// `npm start`: compiles the TypeScript only when a source is newer than the last build, then runs the bin in this same
// process.
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync, utimesSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const SOURCES = [
  'src',
  'suites',
  'reporters',
  'vitest.config.ts',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
]
const BUILD_INFO = join(root, 'dist', '.tsbuildinfo')

function newestChange(path) {
  const stat = statSync(path, { throwIfNoEntry: false })
  if (!stat) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestChange(join(path, entry))))
}

const built = statSync(BUILD_INFO, { throwIfNoEntry: false })?.mtimeMs ?? 0
if (Math.max(...SOURCES.map((source) => newestChange(join(root, source)))) > built) {
  const tsc = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')],
    { stdio: 'inherit' },
  )
  if (tsc.status !== 0) process.exit(tsc.status ?? 1)
  // tsc leaves its build info alone when nothing needed emitting; touching it keeps the next start from checking again.
  const now = new Date()
  utimesSync(BUILD_INFO, now, now)
}
await import('../bin/ipts-conformance.js')
