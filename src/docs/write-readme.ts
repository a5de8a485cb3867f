import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from '../core/package-root.js'
import { renderCheckTable } from './check-table.js'
import { renderFlagTable } from './flag-table.js'
import { withGeneratedSection } from './readme-section.js'

/** npm run docs: rewrites the README's check list from the catalogue and its flag table from the CLI's. */
const readmePath = join(packageRoot, 'README.md')
const readme = readFileSync(readmePath, 'utf8')
writeFileSync(readmePath, withGeneratedSection(withGeneratedSection(readme, 'checks', renderCheckTable()), 'flags', renderFlagTable()))
console.log('README.md: check list and flag table rewritten from the catalogue and the CLI')
