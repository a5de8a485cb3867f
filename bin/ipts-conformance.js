#!/usr/bin/env node
import { existsSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const entry = new URL('../dist/src/cli/main.js', import.meta.url)
if (!existsSync(entry)) {
  // A clone installed without its dev dependencies (npm ci --omit=dev, or npm install PATH before npm ci in PATH) has
  // no compiled dist/.
  process.stderr.write(
    `ipts-conformance: ${dirname(dirname(fileURLToPath(import.meta.url)))} has no dist/: run \`npm ci\` in that folder to build it\n`,
  )
  process.exit(2)
}
const { main } = await import(entry.href)
process.exit(await main(process.argv.slice(2)))
