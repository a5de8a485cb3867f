import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from '../core/package-root.js'
import { renderCheckTable } from './check-table.js'
import { withGeneratedSection } from './readme-section.js'

/** npm run docs: rewrites the README's check list from the catalogue. */
const readmePath = join(packageRoot, 'README.md')
writeFileSync(readmePath, withGeneratedSection(readFileSync(readmePath, 'utf8'), renderCheckTable()))
console.log("README.md: check list rewritten from the catalogue")
