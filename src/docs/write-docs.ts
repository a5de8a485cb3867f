import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { packageRoot } from '../core/package-root.js'
import { generatedFiles } from './catalogue-files.js'
import { generatedDocuments } from './documents.js'
import { withGeneratedSection } from './generated-section.js'

/**
 * npm run docs: rewrites from the code the generated sections of docs/ (the flag tables, the subcommands' help, the
 * check list), the files generated whole from the catalogue (the ID types, one suite file per concern) and the
 * compatibility corpus.
 */
for (const document of generatedDocuments) {
  const path = join(packageRoot, document.path)
  let text = readFileSync(path, 'utf8')
  for (const [name, render] of Object.entries(document.sections))
    text = withGeneratedSection(text, name, await render(), document.path)
  writeFileSync(path, text)
  console.log(`${document.path}: ${Object.keys(document.sections).join(', ')} rewritten from the code`)
}

for (const file of generatedFiles) {
  const path = join(packageRoot, file.path)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, await file.render())
}
const suites = new Set(generatedFiles.map((file) => file.path))
for (const name of readdirSync(join(packageRoot, 'suites'))) {
  if (!suites.has(`suites/${name}`)) rmSync(join(packageRoot, 'suites', name))
}
console.log(`${generatedFiles.map((file) => file.path).join(', ')}: written from the catalogue`)

// The corpus of known bodies follows the faults and allowances (npm run corpus alone writes it too).
const { writeCompatibilityCorpus } = await import('../reference/compatibility-corpus.js')
writeCompatibilityCorpus()
console.log('specs/compatibility-corpus.json: written from the reference, its faults and allowances')
