import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from '../core/package-root.js'
import { generatedDocuments } from './documents.js'
import { withGeneratedSection } from './generated-section.js'

/**
 * npm run docs: rewrites the generated sections of docs/ (the flag tables, the subcommands' help, the check list) from
 * the code.
 */
for (const document of generatedDocuments) {
  const path = join(packageRoot, document.path)
  let text = readFileSync(path, 'utf8')
  for (const [name, render] of Object.entries(document.sections))
    text = withGeneratedSection(text, name, await render(), document.path)
  writeFileSync(path, text)
  console.log(`${document.path}: ${Object.keys(document.sections).join(', ')} rewritten from the code`)
}
