import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { generatedFiles } from './catalogue-files.js'
import { generatedDocuments } from './documents.js'
import { withGeneratedSection } from './generated-section.js'

/**
 * Rewrites under `root` from the code the generated sections of docs/ (the flag tables, the subcommands' help, the
 * check list) and the files generated whole from the catalogue (the ID types, one suite file per concern), and removes
 * a suite file no concern has any more. Returns what it wrote, a line each.
 */
export async function writeDocs(root: string): Promise<string[]> {
  const written: string[] = []
  for (const document of generatedDocuments) {
    const path = join(root, document.path)
    let text = readFileSync(path, 'utf8')
    for (const [name, render] of Object.entries(document.sections))
      text = withGeneratedSection(text, name, await render(), document.path)
    writeFileSync(path, text)
    written.push(`${document.path}: ${Object.keys(document.sections).join(', ')} rewritten from the code`)
  }
  for (const file of generatedFiles) {
    const path = join(root, file.path)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, await file.render())
  }
  const suites = new Set(generatedFiles.map((file) => file.path))
  for (const name of readdirSync(join(root, 'suites'))) {
    if (!suites.has(`suites/${name}`)) rmSync(join(root, 'suites', name))
  }
  written.push(`${generatedFiles.map((file) => file.path).join(', ')}: written from the catalogue`)
  return written
}
